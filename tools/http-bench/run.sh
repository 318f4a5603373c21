#!/usr/bin/env bash
# HTTP benchmarks of issue 3: task-done commands and scoreboard queries at 64 connections.
# Needs wrk (apt-get install -y wrk). Builds the server in release, starts it on a fresh data
# directory (bcrypt cost 4: registration is setup, not what is measured), seeds 64 users in 16
# houses, then runs wrk for each route. Server and wrk share this machine's cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
port=${PORT:-8097}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
swift build -c release --scratch-path .build-bench --product logbook
LOGBOOK_BCRYPT_COST=4 .build-bench/release/logbook serve --data-dir "$work/data" --port "$port" > "$work/serve.log" 2>&1 &
server=$!
until grep -q "logbook listening" "$work/serve.log"; do sleep 0.2; done
python3 tools/http-bench/setup.py "http://127.0.0.1:$port" "$work/tuples.txt"
export LOGBOOK_BENCH_TUPLES="$work/tuples.txt"
for route in complete scoreboard; do
    echo "== $route"
    LOGBOOK_BENCH_ROUTE=$route wrk -t2 -c64 -d15s --latency -s tools/http-bench/requests.lua "http://127.0.0.1:$port"
done
