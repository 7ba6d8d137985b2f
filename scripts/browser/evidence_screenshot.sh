#!/usr/bin/env bash
# Draws an answer's evidence in Neo4j Browser and saves artifacts/evidence.png: starts a Neo4j of
# its own (data in .graphrag-evidence/, ports EVIDENCE_BOLT_PORT/EVIDENCE_HTTP_PORT), indexes the
# Milvus nano triplets (embeddings only, no LLM), builds the local-search context of the nano
# question (--retrieve-only, no answer call), and drives the Browser in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/../.."
./scripts/setup.sh
if [ ! -x /usr/bin/chromium ]; then
  echo "evidence: installing Debian's chromium"
  apt-get update -qq && apt-get install -y -qq chromium
fi
if [ ! -d scripts/browser/node_modules ]; then
  (cd scripts/browser && npm ci --no-audit --no-fund)
fi

export GRAPHRAG_NEO4J__URI="bolt://127.0.0.1:${EVIDENCE_BOLT_PORT:-27687}"
export GRAPHRAG_NEO4J__HTTP_PORT="${EVIDENCE_HTTP_PORT:-27474}"
export GRAPHRAG_NEO4J__HOME="$PWD/.graphrag-evidence/neo4j"
export GRAPHRAG_NEO4J__PASSWORD="graphrag-evidence-password"
cli=.venv/bin/graphrag-neo4j
nano=tests/fixtures/milvus_nano/nano_dataset.json
mkdir -p artifacts

$cli neo4j start
trap '$cli neo4j stop' EXIT
$cli index --triplets "$nano"
question=$(.venv/bin/python -c "import json, sys; print(json.load(open(sys.argv[1]))['queries'][0]['query'])" "$nano")
$cli query "$question" --method local --retrieve-only --show-cypher > artifacts/evidence.cypher
node scripts/browser/evidence_screenshot.mjs --evidence artifacts/evidence.cypher \
  --before cypher/explore/style_labels.cypher \
  --http "http://127.0.0.1:${GRAPHRAG_NEO4J__HTTP_PORT}" --bolt "$GRAPHRAG_NEO4J__URI" \
  --out artifacts/evidence.png
