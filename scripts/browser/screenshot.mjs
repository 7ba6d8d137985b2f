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
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { connect, run, withBrowser } from "./browser.mjs";

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

async function main() {
  await withBrowser(opts.chromium, async (page) => {
    await connect(page, opts);
    await run(page, opts.query);
    await run(page, ":sysinfo");
    mkdirSync(dirname(resolve(opts.out)), { recursive: true });
    await page.screenshot({ path: resolve(opts.out) });
    console.log(`Saved a screenshot of Neo4j Browser (connected to ${opts.bolt}) to ${resolve(opts.out)}`);
  });
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
