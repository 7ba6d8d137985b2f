#!/usr/bin/env bash
# The README's demo command: set up, start Neo4j, index the bundled sample, ask two questions.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

export GRAPHRAG_CONFIG="$PWD/sample/graphrag.toml"
gr=.venv/bin/graphrag-neo4j

$gr neo4j start
$gr models
$gr index sample/christmas_carol_stave_one.md
$gr communities
echo
echo "== Local question: Who is Scrooge's clerk and how does Scrooge treat him?"
$gr query "Who is Scrooge's clerk and how does Scrooge treat him?" --method local
echo
echo "== Global question: What are the main themes of this text?"
$gr query "What are the main themes of this text?" --method global
