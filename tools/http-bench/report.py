"""Prints run.sh's table from the JSON lines requests.lua's done() wrote (one per route), then the
server's memory snapshots (files of /proc/<pid>/status lines: VmRSS, RssAnon, RssFile).

    report.py RESULTS.jsonl [LABEL=STATUS_FILE ...]
"""
import json
import sys

LABELS = {"health": "GET /health", "scoreboard": "GET …/scoreboard", "history": "GET …/history", "reviews": "GET …/reviews", "news": "GET …/news", "complete": "POST …/completions"}


def row(result, health_rate):
    seconds = result["durationMicroseconds"] / 1e6
    requests = result["requests"]
    rate = requests / seconds if seconds > 0 else 0.0
    latency = result["latencyMicroseconds"]
    statuses = {int(code): count for code, count in result["statuses"].items()}
    failed = sorted((code, count) for code, count in statuses.items() if not 200 <= code < 300)
    shares = ", ".join(f"{code}: {count:,} ({100 * count / max(requests, 1):.2f}%)" for code, count in failed) or "none"
    sockets = ", ".join(f"{kind} {count}" for kind, count in result["socketErrors"].items() if count) or "none"
    ratio = f"{100 * rate / health_rate:.1f}%" if health_rate else "–"
    return [LABELS.get(result["route"], result["route"]), f"{requests:,}", f"{rate:,.0f}", ratio,
            f"{latency['p50'] / 1000:.2f}", f"{latency['p99'] / 1000:.2f}", shares, sockets]


def table(rows):
    titles = ["route", "requests", "req/s", "of /health", "p50 ms", "p99 ms", "non-2xx (share)", "socket errors"]
    widths = [max(len(r[c]) for r in rows + [titles]) for c in range(len(titles))]
    numeric = {1, 2, 3, 4, 5}
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
    results = [json.loads(text) for text in open(sys.argv[1]) if text.strip()]
    health = next((r for r in results if r["route"] == "health"), None)
    health_rate = health["requests"] / (health["durationMicroseconds"] / 1e6) if health else 0.0
    print(table([row(r, health_rate) for r in results]))
    for argument in sys.argv[2:]:
        label, _, path = argument.partition("=")
        print(memory(label, path))


main()
