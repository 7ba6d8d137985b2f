#!/usr/bin/env bash
# The README's demo command: set up, start Neo4j, index the whole sample book without the LLM,
# then ask a local and a global question (the global one has the LLM write the reports it needs).
# After each answer the CLI says what grounding found: names the context does not hold, or none.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

export GRAPHRAG_CONFIG="$PWD/sample/graphrag.toml"
gr=.venv/bin/graphrag-neo4j

$gr neo4j start
$gr index sample/a_christmas_carol.txt --method fast
echo
echo "== Local question: Who is Scrooge's clerk and how does Scrooge treat him?"
$gr query "Who is Scrooge's clerk and how does Scrooge treat him?" --method local
echo
echo "== Global question: What are the main themes of the book?"
$gr query "What are the main themes of the book?" --method global
