#!/usr/bin/env bash
# Two `logbook serve` processes on one PostgreSQL log (SPEC §3a), on this machine:
#   tools/scale-out/run.sh            # builds, then serves on :8081 and :8082 until Ctrl-C
# A private PostgreSQL cluster is made in a temporary directory (PG_PORT, default 5433) and
# removed at the end, with both servers' data directories (their local read models).
#
# Both servers share LOGBOOK_SECRET_KEY, under which the personal-data keys (kept in the same
# database, docs/decisions/0005) are sealed.
set -euo pipefail
cd "$(dirname "$0")/../.."

PG_PORT=${PG_PORT:-5433}
FIRST_PORT=${FIRST_PORT:-8081}
SECOND_PORT=${SECOND_PORT:-8082}
work=$(mktemp -d /tmp/logbook-scale-out-XXXXXX)
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as=""
if [ "$(id -u)" = 0 ]; then chown postgres "$work"; as="runuser -u postgres --"; fi

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    $as "$bin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

swift build --product logbook
$as "$bin/initdb" -D "$work/pg" -U postgres --auth=trust -E UTF8 >/dev/null
$as "$bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -o "-p $PG_PORT -k $work -c listen_addresses=127.0.0.1" start >/dev/null
"$bin/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -c "CREATE DATABASE logbook"
log="postgres://postgres@127.0.0.1:$PG_PORT/logbook"
export LOGBOOK_SECRET_KEY=${LOGBOOK_SECRET_KEY:-$(head -c 32 /dev/urandom | base64)}

serve() {  # data directory, port, extra flags
    mkdir -p "$1"
    .build/debug/logbook serve --data-dir "$1" --port "$2" --event-store "$log" "${@:3}" > "$1.out" 2>&1 &
    pids+=($!)
    until grep -q "logbook listening on" "$1.out" 2>/dev/null; do sleep 0.2; done
    grep "listening on\|demo login" "$1.out"
}
serve "$work/first" "$FIRST_PORT" --demo
serve "$work/second" "$SECOND_PORT"
echo "one log in $log; read models in $work/first and $work/second; Ctrl-C stops everything"
wait
