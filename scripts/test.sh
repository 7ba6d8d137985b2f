#!/usr/bin/env bash
# The README's test command: set up, start a dedicated Neo4j, lint, type-check, pytest, stop Neo4j.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

# A server of its own (ports, data folder, password) so tests never touch a user's graph.
export GRAPHRAG_NEO4J__URI="bolt://127.0.0.1:${GRAPHRAG_TEST_BOLT_PORT:-17687}"
export GRAPHRAG_NEO4J__HTTP_PORT="${GRAPHRAG_TEST_HTTP_PORT:-17474}"
export GRAPHRAG_NEO4J__HOME="$PWD/.graphrag-test/neo4j"
export GRAPHRAG_NEO4J__PASSWORD="graphrag-test-password"
export GRAPHRAG_TEST_NEO4J=1

.venv/bin/ruff check .
.venv/bin/mypy

.venv/bin/graphrag-neo4j neo4j start
# A Ray cluster of its own (a head and a worker node, 1 CPU each, on 127.0.0.1) for the
# `index --ray` tests; its address and token reach them through the environment.
trap 'scripts/ray-cluster.sh stop; .venv/bin/graphrag-neo4j neo4j stop' EXIT
scripts/ray-cluster.sh start
eval "$(scripts/ray-cluster.sh env)"
.venv/bin/pytest "$@"
