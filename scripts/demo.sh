#!/usr/bin/env bash
# The README's demo command: set up, start Neo4j, index the bundled sample, ask two questions.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

.venv/bin/graphrag-neo4j neo4j start
.venv/bin/graphrag-neo4j init-db
