#!/usr/bin/env node
/**
 * Screenshot of an answer's evidence drawn by Neo4j Browser.
 *
 * Loads the graphrag.grass style with `:style`, runs optional Cypher files first (e.g. the
 * explore/style_labels query), then the output of `graphrag-neo4j query ... --show-cypher`:
 * each `:param` line on its own, then the evidence query, and saves a PNG of the drawn graph.
 *
 *   GRAPHRAG_NEO4J__PASSWORD=... node scripts/browser/evidence_screenshot.mjs \
 *       --evidence artifacts/evidence.cypher [--style cypher/explore/graphrag.grass] \
 *       [--before cypher/explore/style_labels.cypher] [--out artifacts/evidence.png] \
 *       [--http http://127.0.0.1:7474] [--bolt bolt://127.0.0.1:7687] [--chromium PATH]
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { connect, run, withBrowser } from "./browser.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { values: opts } = parseArgs({
  options: {
    evidence: { type: "string" },
    style: { type: "string", default: join(repoRoot, "cypher", "explore", "graphrag.grass") },
    before: { type: "string", multiple: true, default: [] },
    out: { type: "string", default: join(repoRoot, "artifacts", "evidence.png") },
    http: { type: "string", default: "http://127.0.0.1:7474" },
    bolt: { type: "string", default: "bolt://127.0.0.1:7687" },
    user: { type: "string", default: "neo4j" },
    password: { type: "string", default: process.env.GRAPHRAG_NEO4J__PASSWORD ?? "" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
  },
});
if (!opts.password || !opts.evidence) {
  console.error("Pass --evidence FILE (the --show-cypher output) and set GRAPHRAG_NEO4J__PASSWORD.");
  process.exit(1);
}

/** The :param lines (each run on its own) and the query that follows them. */
function splitEvidence(text) {
  const lines = text.split("\n");
  const params = lines.filter((line) => line.startsWith(":param ")).map((l) => l.replace(/;\s*$/, ""));
  const query = lines.filter((line) => !line.startsWith(":param ")).join("\n").trim();
  return { params, query };
}

async function main() {
  const { params, query } = splitEvidence(readFileSync(opts.evidence, "utf8"));
  const grass = readFileSync(opts.style, "utf8").replace(/\s+/g, " ");
  await withBrowser(opts.chromium, async (page) => {
    await connect(page, opts);
    await run(page, `:style ${grass}`);
    for (const file of opts.before) {
      await run(page, readFileSync(file, "utf8").trim());
    }
    for (const line of params) {
      await run(page, line, 500);
    }
    await run(page, query, 6000); // the force layout needs a few seconds to settle
    const nodes = await page.locator("svg g.node").count();
    if (nodes === 0) {
      throw new Error("Neo4j Browser drew no nodes for the evidence query.");
    }
    mkdirSync(dirname(resolve(opts.out)), { recursive: true });
    await page.screenshot({ path: resolve(opts.out) });
    console.log(`Saved the evidence graph (${nodes} nodes drawn) to ${resolve(opts.out)}`);
  });
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
