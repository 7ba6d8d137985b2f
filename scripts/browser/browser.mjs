/**
 * Shared helpers for driving Neo4j Browser in Debian's headless Chromium with playwright-core:
 * launch, log in, run editor commands. Used by screenshot.mjs and evidence_screenshot.mjs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const CHROMIUM_FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/** Runs `work(page)` in a fresh Chromium profile that is deleted afterwards. */
export async function withBrowser(chromiumPath, work, viewport = { width: 1400, height: 1000 }) {
  const profile = mkdtempSync(join(tmpdir(), "graphrag-browser-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    return await work(page);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Opens Browser at `http` and logs in over `bolt`; throws one sentence on a refused login. */
export async function connect(page, { http, bolt, user, password }) {
  await page.goto(`${http}/browser/`, { waitUntil: "domcontentloaded" });
  const address = page.getByTestId("boltaddress");
  await address.waitFor({ timeout: 60_000 });
  await address.fill(bolt); // the scheme in the URL also sets the scheme selector
  await page.getByTestId("username").fill(user);
  await page.getByTestId("password").fill(password);
  await page.getByTestId("connect").click();
  const connected = page.getByText(/You are connected as user/);
  const failed = page.getByText(/authentication failure|Unauthorized|ServiceUnavailable/i);
  await Promise.race([connected.first().waitFor({ timeout: 60_000 }), failed.first().waitFor({ timeout: 60_000 })]);
  if (await failed.count()) {
    throw new Error(`Neo4j Browser could not log in: ${await failed.first().innerText()}`);
  }
}

/** Types a command into the editor (inserted as text, so no auto-closed brackets) and runs it. */
export async function run(page, command, settleMs = 1500) {
  const frames = page.getByTestId("frameCommand");
  const before = await frames.count();
  const editor = page.getByTestId("activeEditor");
  await editor.click();
  await page.keyboard.insertText(command);
  await page.getByTestId("editor-Run").click();
  await page.waitForFunction(
    ([selector, count]) => document.querySelectorAll(selector).length > count,
    ['[data-testid="frameCommand"]', before],
    { timeout: 60_000 },
  );
  await page.waitForTimeout(settleMs); // let the result render
}
