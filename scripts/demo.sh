#!/usr/bin/env bash
# The README's demo command: set up, start Neo4j, index the whole sample book without the LLM,
# then ask a local and a global question (the global one has the LLM write the reports it needs).
# After each answer the CLI says what grounding found: names the context does not hold, or none.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

export GRAPHRAG_CONFIG="$PWD/sample/graphrag.toml"
# The demo's graph lives in a Neo4j of its own (its folder, ports and a small memory), so the
# answers never draw on a graph you indexed yourself, and the demo never writes into yours.
export GRAPHRAG_NEO4J__HOME="${XDG_DATA_HOME:-$HOME/.local/share}/graphrag-neo4j/demo-neo4j"
export GRAPHRAG_NEO4J__HEAP=1g GRAPHRAG_NEO4J__PAGECACHE=512m
gr=.venv/bin/graphrag-neo4j

# Its ports: those of its last run while its server still runs, else 7688 and 7475 when free,
# else free ones (a shared machine may use those); remembered beside its folder.
ports_file="$GRAPHRAG_NEO4J__HOME.ports"
if [[ -f "$ports_file" ]]; then read -r bolt_port http_port < "$ports_file"; fi
export GRAPHRAG_NEO4J__URI="bolt://127.0.0.1:${bolt_port:-7688}" \
  GRAPHRAG_NEO4J__HTTP_PORT="${http_port:-7475}"
if ! $gr neo4j status > /dev/null 2>&1; then
  bolt_port=$(.venv/bin/python scripts/free_port.py 7688)
  http_port=$(.venv/bin/python scripts/free_port.py 7475)
  export GRAPHRAG_NEO4J__URI="bolt://127.0.0.1:$bolt_port" GRAPHRAG_NEO4J__HTTP_PORT="$http_port"
  mkdir -p "$(dirname "$ports_file")" && echo "$bolt_port $http_port" > "$ports_file"
fi
echo "== The demo's Neo4j: Bolt $GRAPHRAG_NEO4J__URI, Browser port $GRAPHRAG_NEO4J__HTTP_PORT"

$gr neo4j start
$gr index sample/a_christmas_carol.txt --method fast
echo
echo "== Local question: Who is Scrooge's clerk and how does Scrooge treat him?"
$gr query "Who is Scrooge's clerk and how does Scrooge treat him?" --method local
echo
echo "== Global question: What are the main themes of the book?"
$gr query "What are the main themes of the book?" --method global
echo
echo "== The demo's graph stays in its own Neo4j: browse it at http://127.0.0.1:$GRAPHRAG_NEO4J__HTTP_PORT/browser/"
echo "   (user neo4j, password in $GRAPHRAG_NEO4J__HOME/password); stop it with:"
echo "   GRAPHRAG_NEO4J__HOME=$GRAPHRAG_NEO4J__HOME GRAPHRAG_NEO4J__URI=$GRAPHRAG_NEO4J__URI $gr neo4j stop"
