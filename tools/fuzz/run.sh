#!/usr/bin/env bash
# Fuzzes the real server against its contract with schemathesis: starts `logbook serve` on a
# fresh data directory and a free port, seeds it (tools/fuzz/seed.py), and runs schemathesis
# against /openapi.json as a registered user, with the operator token for operator routes.
# Any failed check fails the script. One worker: with two, hypothesis parses lambda sources
# from two threads and CPython 3.11's ast.parse is not safe for that ("AST constructor recursion
# depth mismatch", seen in CI). Bounded: FUZZ_MAX_TIME seconds of generation (default 150)
# under a hard timeout.
#
# Usage: tools/fuzz/run.sh [path/to/logbook]    (default .build/debug/logbook)
# Needs schemathesis 4.32.5 for python3 (`python3 -m pip install schemathesis==4.32.5`).
# FUZZ_SEED=<n> repeats a run; FUZZ_MAX_EXAMPLES caps the examples per operation (default 40).
set -euo pipefail
cd "$(dirname "$0")/../.."

binary="${1:-.build/debug/logbook}"
max_time="${FUZZ_MAX_TIME:-150}"
max_examples="${FUZZ_MAX_EXAMPLES:-40}"
work="$(mktemp -d)"
server_pid=""

cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

export LOGBOOK_BCRYPT_COST=4
export LOGBOOK_OPERATOR_TOKEN="fuzz-operator-$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
"$binary" serve --data-dir "$work/data" --port 0 >"$work/server.log" 2>&1 &
server_pid=$!

# The server prints one line once it listens: `logbook listening on http://host:port`.
base=""
for _ in $(seq 1 300); do
    base="$(sed -n 's/^logbook listening on //p' "$work/server.log" | head -n 1)"
    [ -n "$base" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log"; echo "fuzz: the server exited" >&2; exit 1; }
    sleep 0.1
done
[ -n "$base" ] || { cat "$work/server.log"; echo "fuzz: the server did not start" >&2; exit 1; }
echo "fuzz: server at $base"

seeded="$(python3 tools/fuzz/seed.py "$base" "$work")"  # fails the script if seeding fails
eval "$seeded"
export FUZZ_BASE_URL="$base" FUZZ_USER_TOKEN FUZZ_OPERATOR_TOKEN="$LOGBOOK_OPERATOR_TOKEN"
export SCHEMATHESIS_HOOKS="$PWD/tools/fuzz/hooks.py"

seed_args=()
[ -n "${FUZZ_SEED:-}" ] && seed_args=(--seed "$FUZZ_SEED")

status=0
timeout --signal=INT --kill-after=20 $((max_time + 120)) \
    python3 -m schemathesis.cli --config-file "$work/schemathesis.toml" run "$base/openapi.json" \
    --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance,positive_data_acceptance \
    --max-examples "$max_examples" --max-time "$max_time" --workers 1 --request-timeout 20 \
    --suppress-health-check all --no-color "${seed_args[@]}" || status=$?

if [ "$status" -ne 0 ]; then
    echo "fuzz: schemathesis failed (exit $status); server log:" >&2
    tail -n 50 "$work/server.log" >&2
fi
exit "$status"
