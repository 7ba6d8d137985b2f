#!/usr/bin/env bash
# A Ray cluster on this machine for tests and benchmarks: `start` a head and one worker node
# (1 CPU each, token auth, 127.0.0.1 only), `stop` both. Source `env` for what a driver needs.
set -euo pipefail
cd "$(dirname "$0")/.."
action=${1:?usage: scripts/ray-cluster.sh start|stop|env|kill-worker|start-worker}
port=${GRAPHRAG_TEST_RAY_PORT:-29900}
home="$PWD/.graphrag-test/ray"
start_node() { RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=1 .venv/bin/python scripts/ray_loopback_node.py "$@"; }
# Two nodes on one machine only agree with token auth; a token of this cluster's own.
export RAY_AUTH_MODE=token RAY_AUTH_TOKEN_PATH="$home/auth_token" RAY_ADDRESS="127.0.0.1:$port"
# The driver and the workers Ray starts keep 127.0.0.1 as their node address only when Ray is
# told the cluster is on one machine (its setting for Windows and macOS); the nodes are started
# by scripts/ray_loopback_node.py, which keeps it for them.
export RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0
# Short: Ray's socket paths must fit in 107 characters.
temp="/tmp/ray-$(id -u)-$port"
# The ports of Ray's worker processes, MIN-MAX: two clusters on one machine need apart ranges.
worker_ports=${GRAPHRAG_TEST_RAY_WORKER_PORTS:-30000-30999}
node=(--node-ip-address 127.0.0.1 --num-cpus 1 --temp-dir "$temp" --disable-usage-stats
      --min-worker-port "${worker_ports%-*}" --max-worker-port "${worker_ports#*-}")

case "$action" in
  env)
    echo "export RAY_AUTH_MODE=token RAY_AUTH_TOKEN_PATH=$RAY_AUTH_TOKEN_PATH RAY_ADDRESS=$RAY_ADDRESS RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0"
    ;;
  kill-worker)
    # The worker node's raylet and the workers and agents it started, killed by pid as a
    # machine failing would: the head and its tasks live on.
    raylet=$(pgrep -f -- "$temp/session_.*/sockets/raylet\.[0-9]+ " || true)
    [ -n "$raylet" ] || { echo "no worker node is running" >&2; exit 1; }
    kill -KILL $(pgrep -P "$raylet" || true) $raylet 2>/dev/null || true
    echo "killed the worker node (raylet $raylet)"
    ;;
  start-worker)
    start_node --address "$RAY_ADDRESS" "${node[@]}" > "$home/worker.log" 2>&1
    ;;
  start)
    mkdir -p "$home"
    [ -s "$RAY_AUTH_TOKEN_PATH" ] || .venv/bin/python -c \
      "import secrets; print(secrets.token_hex(32))" > "$RAY_AUTH_TOKEN_PATH"
    chmod 600 "$RAY_AUTH_TOKEN_PATH"
    start_node --head --port "$port" --include-dashboard false "${node[@]}" > "$home/head.log" 2>&1
    start_node --address "$RAY_ADDRESS" "${node[@]}" > "$home/worker.log" 2>&1
    echo "Ray cluster at $RAY_ADDRESS: a head and a worker node, 1 CPU each"
    ;;
  stop)
    # This cluster's processes only (their command lines name its folder), with the workers
    # and agents they started; `ray stop` would stop every Ray of this user.
    pids=$(pgrep -f -- "$temp/" || true)
    children=$(for pid in $pids; do pgrep -P "$pid" || true; done)
    [ -z "$pids$children" ] && exit 0
    kill -TERM $children $pids 2>/dev/null || true
    for _ in $(seq 20); do
      alive=$(for pid in $children $pids; do kill -0 "$pid" 2>/dev/null && echo "$pid"; done || true)
      [ -z "$alive" ] && break
      sleep 0.5
    done
    [ -z "${alive:-}" ] || kill -KILL $alive 2>/dev/null || true
    ;;
  *)
    echo "usage: scripts/ray-cluster.sh start|stop|env|kill-worker|start-worker" >&2
    exit 2
    ;;
esac
