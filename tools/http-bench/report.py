"""Prints run.sh's table from the JSON lines requests.lua's done() wrote (one per route), with the
server's CPU time per request when run.sh measured it (--cpu: a JSON line per route, the server's
user and system clock ticks during its load), then the server's memory snapshots (files of
/proc/<pid>/status lines: VmRSS, RssAnon, RssFile).

    report.py RESULTS.jsonl [--cpu CPU.jsonl] [LABEL=STATUS_FILE ...]
"""
import json
import sys

LABELS = {"health": "GET /health", "scoreboard": "GET …/scoreboard", "history": "GET …/history", "reviews": "GET …/reviews", "news": "GET …/news", "complete": "POST …/completions"}


def cpu_per_request(result, cpu):
    """The server's CPU microseconds per request of `result`'s load; None when not measured."""
    ticks = cpu.get(result["route"])
    if ticks is None or result["requests"] == 0:
        return None
    return ticks["serverCpuTicks"] / ticks["ticksPerSecond"] * 1e6 / result["requests"]


def row(result, health_rate, health_p99, cpu, health_cpu):
    seconds = result["durationMicroseconds"] / 1e6
    requests = result["requests"]
    rate = requests / seconds if seconds > 0 else 0.0
    latency = result["latencyMicroseconds"]
    statuses = {int(code): count for code, count in result["statuses"].items()}
    failed = sorted((code, count) for code, count in statuses.items() if not 200 <= code < 300)
    shares = ", ".join(f"{code}: {count:,} ({100 * count / max(requests, 1):.2f}%)" for code, count in failed) or "none"
    sockets = ", ".join(f"{kind} {count}" for kind, count in result["socketErrors"].items() if count) or "none"
    ratio = f"{100 * rate / health_rate:.1f}%" if health_rate else "–"
    # Under wrk's closed loop a route's latency is its connections over its rate, so an absolute
    # p99 moves with the host; as a multiple of /health's p99 in the same run it does not.
    tail = f"{latency['p99'] / health_p99:.2f}×" if health_p99 else "–"
    spent = cpu_per_request(result, cpu)
    per_request = f"{spent:,.0f}" if spent is not None else "–"
    multiple = f"{spent / health_cpu:.2f}×" if spent is not None and health_cpu else "–"
    return [LABELS.get(result["route"], result["route"]), f"{requests:,}", f"{rate:,.0f}", ratio,
            f"{latency['p50'] / 1000:.2f}", f"{latency['p99'] / 1000:.2f}", tail, per_request, multiple, shares, sockets]


def table(rows):
    titles = ["route", "requests", "req/s", "of /health", "p50 ms", "p99 ms", "p99 × /health's", "server CPU µs/req", "× /health's",
              "non-2xx (share)", "socket errors"]
    widths = [max(len(r[c]) for r in rows + [titles]) for c in range(len(titles))]
    numeric = {1, 2, 3, 4, 5, 6, 7, 8}
    def line(cells):
        return "  ".join(c.rjust(w) if i in numeric else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return "\n".join([line(titles)] + [line(r) for r in rows])


def memory(label, path):
    fields = {}
    for text in open(path):
        name, _, value = text.partition(":")
        if name in ("VmRSS", "RssAnon", "RssFile"):
            fields[name] = int(value.split()[0])  # kB
    mb = lambda name: f"{fields[name] / 1024:,.1f} MB" if name in fields else "?"
    return f"server memory {label}: VmRSS {mb('VmRSS')}, RssAnon (heap) {mb('RssAnon')}, RssFile (mapped files) {mb('RssFile')}"


def main():
    arguments = sys.argv[2:]
    cpu = {}
    if arguments[:1] == ["--cpu"]:
        cpu = {line["route"]: line for line in (json.loads(text) for text in open(arguments[1]) if text.strip())}
        arguments = arguments[2:]
    results = [json.loads(text) for text in open(sys.argv[1]) if text.strip()]
    health = next((r for r in results if r["route"] == "health"), None)
    health_rate = health["requests"] / (health["durationMicroseconds"] / 1e6) if health else 0.0
    health_p99 = health["latencyMicroseconds"]["p99"] if health else 0
    health_cpu = cpu_per_request(health, cpu) if health else None
    print(table([row(r, health_rate, health_p99, cpu, health_cpu) for r in results]))
    for argument in arguments:
        label, _, path = argument.partition("=")
        print(memory(label, path))


main()
