#!/usr/bin/env bash
# HTTP benchmark of issues 3, 9 and 12: GET /health, the house scoreboard (GET …/scoreboard), a
# page of the house's history (GET …/history), a page of workplace reviews (GET …/reviews), a page
# of workplace news (GET …/news) and task done (POST …/completions), one after the other against one
# server, then one table of req/s, p50/p99 (and p99 as a multiple of /health's), non-2xx
# responses by status, req/s as a share of /health's, the server's CPU time per request and as a
# multiple of /health's, and the server's memory.
#
# Builds the server in release (.build-bench), starts it on a fresh data directory (bcrypt cost 4:
# registration is setup, not what is measured), optionally pre-filled with --events household
# events by `logbook-bench fill`, waits until its read models include the whole log, seeds 64 users
# in 16 houses of 4 with 60 completions each, each house also an organisation with 60 reviews and
# 30 news items (setup.py), then runs wrk for each route (requests.lua; report.py prints the
# table). Server and wrk share this machine's cores. Needs wrk (apt-get install -y wrk).
#
# Options (flag or environment variable):
#   --duration S     DURATION=S      seconds of load per route (15)
#   --connections N  CONNECTIONS=N   wrk connections (64)
#   --threads N      THREADS=N       wrk threads (2)
#   --events N       EVENTS=N        pre-fill the log with about N events before the server starts (0)
#   --app A          APP=A           whose events --events writes: household, quiz, neighbourhood (household)
#   --port P         PORT=P          loopback port of the server (8097)
#   --out FILE       OUT=FILE        also keep the figures in FILE: a JSON line per route, then one
#                                    per route with the server's CPU ticks
#   --keep           KEEP=1          keep the work directory (data, server log, wrk output)
#   --no-build       NO_BUILD=1      use the binaries already in .build-bench/release
#   --live LIST      LIVE=LIST       then the live scenario (live.py): task done while each count of
#                                    SSE streams is open, e.g. 0,100,1000 (0: the run without streams)
#                    WORKERS=N       live.py's writers (16), the first N users of the first houses
#                    HOUSES=N        houses of 4 seeded (16); past the writers' 16 they only watch
#                    PY_STREAMS=1    read the streams in live.py's asyncio instead of sse-streams.c
#                    RATE=R          the writers send R commands a second in all, not as many as they can
#                    LOGBOOK_WRITE_AHEAD=0  the server's log with each LMDB commit synced, not in its
#                                    write-ahead mode (the default; ADR 0006)
set -euo pipefail
cd "$(dirname "$0")/../.."

duration=${DURATION:-15} connections=${CONNECTIONS:-64} threads=${THREADS:-2} events=${EVENTS:-0}
app=${APP:-household} port=${PORT:-8097} out=${OUT:-} keep=${KEEP:-} no_build=${NO_BUILD:-} live=${LIVE:-}
catch_up_seconds_max=${CATCH_UP_SECONDS_MAX:-3600}
while (($#)); do
    case $1 in
        --duration) duration=$2; shift 2 ;;
        --connections) connections=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --events) events=$2; shift 2 ;;
        --app) app=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --no-build) no_build=1; shift ;;
        --live) live=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
for number in "$duration" "$connections" "$threads" "$events" "$port"; do
    [[ $number =~ ^[0-9]+$ ]] || { echo "run.sh: $number is not a whole number" >&2; exit 2; }
done

bin=.build-bench/release
base="http://127.0.0.1:$port"
work=$(mktemp -d)
server=
stop_server() {
    if [[ -n $server ]]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    if [[ -n $keep ]]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap stop_server EXIT
trap 'exit 130' INT TERM

if [[ -z $no_build ]]; then
    swift build -c release --scratch-path .build-bench --product logbook
    if ((events > 0)); then swift build -c release --scratch-path .build-bench --product logbook-bench; fi
fi
if ((events > 0)); then
    "$bin/logbook-bench" fill --app "$app" --events "$events" --data-dir "$work/data"
    # The fill writes without fsync: flush its pages now, or the server's first fsyncs of the log
    # wait for the kernel to write them back, and the load measures that instead of the server.
    sync
fi

# The live scenario holds up to a thousand streams over 64 users, and a descriptor per stream.
if [[ -n $live ]]; then ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)"; fi
LOGBOOK_LIVE_STREAMS_PER_USER_MAX=1024 LOGBOOK_BCRYPT_COST=4 "$bin/logbook" serve --data-dir "$work/data" --host 127.0.0.1 --port "$port" > "$work/serve.log" 2>&1 &
server=$!
for ((attempt = 0; attempt < 600; attempt++)); do  # at most 2 minutes
    grep -q "logbook listening" "$work/serve.log" && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.2
done
if ! grep -q "logbook listening" "$work/serve.log"; then
    echo "run.sh: the server did not start; its output:" >&2
    cat "$work/serve.log" >&2
    exit 1
fi

python3 tools/http-bench/setup.py "$base" "$work/tuples.txt" "$catch_up_seconds_max"
grep -E '^(VmRSS|RssAnon|RssFile):' "/proc/$server/status" > "$work/memory-before-load.txt"

# The server's CPU time so far (user and system, in clock ticks): fields 14 and 15 of its stat,
# counted after the parenthesised name, which may hold spaces.
server_cpu_ticks() { sed 's/.*) //' "/proc/$server/stat" | awk '{print $12 + $13}'; }

export LOGBOOK_BENCH_TUPLES="$work/tuples.txt" LOGBOOK_BENCH_RESULTS="$work/results.jsonl"
# The command last: its appends would otherwise be part of what the queries run on.
for route in health scoreboard history reviews news complete; do
    echo "load: $route, ${duration} s, $connections connections" >&2
    cpu_before=$(server_cpu_ticks)
    LOGBOOK_BENCH_ROUTE=$route wrk -t"$threads" -c"$connections" -d"${duration}s" --latency \
        -s tools/http-bench/requests.lua "$base" > "$work/wrk-$route.txt"
    # What the server spent on the route's load: on a shared host, where req/s moves with the
    # neighbours (the hypervisor's steal), CPU per request moves less.
    echo "{\"route\": \"$route\", \"serverCpuTicks\": $(($(server_cpu_ticks) - cpu_before)), \"ticksPerSecond\": $(getconf CLK_TCK)}" >> "$work/cpu.jsonl"
done
grep -E '^(VmRSS|RssAnon|RssFile):' "/proc/$server/status" > "$work/memory-after-load.txt"

echo
echo "== $duration s per route, $connections connections, $threads wrk threads; log pre-filled with $events $app events"
python3 tools/http-bench/report.py "$work/results.jsonl" --cpu "$work/cpu.jsonl" \
    "before the load=$work/memory-before-load.txt" "after the load=$work/memory-after-load.txt"
if [[ -n $out ]]; then cat "$work/results.jsonl" "$work/cpu.jsonl" > "$out"; fi
if [[ -n $live ]]; then
    echo
    # The streams are read by a small C program unless PY_STREAMS=1 (the asyncio reader it replaced).
    stream_client=()
    if [[ -z ${PY_STREAMS:-} ]]; then
        "$(command -v cc || command -v clang)" -O2 -o "$work/sse-streams" tools/http-bench/sse-streams.c
        stream_client=(--stream-client "$work/sse-streams")
    fi
    python3 tools/http-bench/live.py "$base" "$work/tuples.txt" --streams "$live" --duration "$duration" --workers "${WORKERS:-16}" \
        --server-pid "$server" "${stream_client[@]}" ${RATE:+--rate "$RATE"}
fi
