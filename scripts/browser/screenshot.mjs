#!/usr/bin/env node
/**
 * Screenshot of Neo4j Browser connected to the local graphrag-neo4j server.
 *
 * Opens http://127.0.0.1:7474/browser/, logs in as neo4j over bolt://127.0.0.1:7687, runs a
 * query and `:sysinfo`, and saves a PNG (artifacts/browser.png at the repo root by default).
 *
 * Needs Debian's Chromium and playwright-core (no browser download):
 *   apt-get install -y chromium
 *   (cd scripts/browser && npm ci)
 *   GRAPHRAG_NEO4J__PASSWORD=... node scripts/browser/screenshot.mjs [--out FILE]
 *       [--http http://127.0.0.1:7474] [--bolt bolt://127.0.0.1:7687] [--user neo4j]
 *       [--password PW] [--query "MATCH (n) RETURN count(n) AS nodes"] [--chromium PATH]
 * Prefer the environment variable over --password: arguments are visible to other users.
 */
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { values: opts } = parseArgs({
  options: {
    out: { type: "string", default: join(repoRoot, "artifacts", "browser.png") },
    http: { type: "string", default: "http://127.0.0.1:7474" },
    bolt: { type: "string", default: "bolt://127.0.0.1:7687" },
    user: { type: "string", default: "neo4j" },
    password: { type: "string", default: process.env.GRAPHRAG_NEO4J__PASSWORD ?? "" },
    query: { type: "string", default: "MATCH (n) RETURN count(n) AS nodes" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
  },
});
if (!opts.password) {
  console.error("Set GRAPHRAG_NEO4J__PASSWORD (or pass --password) to the Neo4j password.");
  process.exit(1);
}

const CHROMIUM_FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

async function connect(page) {
  await page.goto(`${opts.http}/browser/`, { waitUntil: "domcontentloaded" });
  const address = page.getByTestId("boltaddress");
  await address.waitFor({ timeout: 60_000 });
  await address.fill(opts.bolt); // the scheme in the URL also sets the scheme selector
  await page.getByTestId("username").fill(opts.user);
  await page.getByTestId("password").fill(opts.password);
  await page.getByTestId("connect").click();
  const connected = page.getByText(/You are connected as user/);
  const failed = page.getByText(/authentication failure|Unauthorized|ServiceUnavailable/i);
  await Promise.race([connected.first().waitFor({ timeout: 60_000 }), failed.first().waitFor({ timeout: 60_000 })]);
  if (await failed.count()) {
    throw new Error(`Neo4j Browser could not log in: ${await failed.first().innerText()}`);
  }
}

async function run(page, command) {
  const editor = page.getByTestId("activeEditor");
  await editor.click();
  await page.keyboard.type(command);
  await page.getByTestId("editor-Run").click();
  await page.getByTestId("frameCommand").filter({ hasText: command }).first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1500); // let the result table render
}

async function main() {
  const profile = mkdtempSync(join(tmpdir(), "graphrag-browser-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: opts.chromium,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1400, height: 1000 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await connect(page);
    await run(page, opts.query);
    await run(page, ":sysinfo");
    mkdirSync(dirname(resolve(opts.out)), { recursive: true });
    await page.screenshot({ path: resolve(opts.out) });
    console.log(`Saved a screenshot of Neo4j Browser (connected to ${opts.bolt}) to ${resolve(opts.out)}`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
