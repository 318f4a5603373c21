"""The live scenario of run.sh (issue 14): task-done commands while N Server-Sent-Events streams
are open, for each N of a list (0 first: the run without streams), against one server, in one
run. Prints, per N: the commands' throughput (and as a share of N=0's), their p50/p99, and the
delivery latency from each command's 2xx to each watching stream's event, p50/p99.

    live.py BASE_URL TUPLES_FILE [--streams 0,100,1000] [--duration S] [--workers W] [--server-pid P]
            [--stream-client PATH] [--rate R]

Each stream watches its user's house (`house:<id>`), users taken round-robin from the tuples
(token, house, task) setup.py wrote, so a command's event goes to about N/16 streams. Commands
come from W workers, each on its own keep-alive connection, each completing its user's task.
The client is Python asyncio on the server's machine: at 1,000 streams its own parsing is part
of the latency it reports (it timestamps each chunk as it reads it, before parsing), and it
takes CPU from the server: the table shows the CPU seconds each used during the commands (the
server's from /proc/P/stat with --server-pid), so a drop in throughput can be told apart.
With --stream-client (sse-streams.c, built by run.sh) the streams are read by that C program
instead, which costs the shared cores far less; its CPU is counted in the client's column.
With --rate R the workers together send at most R commands a second (each paced to R/W) instead
of as many as they can: below the machine's saturation the rounds do the same work with and
without streams, so the server's CPU per command tells what the streams cost it, whatever the
two cores' share between server and clients.
"""
import argparse
import asyncio
import os
import re
import resource
import subprocess
import time

ID = re.compile(rb"^id: (\d+)$", re.M)


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("tuples")
    parser.add_argument("--streams", default="0,100,1000")
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--server-pid", type=int)
    parser.add_argument("--stream-client")
    parser.add_argument("--rate", type=float, default=0.0, help="commands a second in all (0: as many as they can)")
    return parser.parse_args()


def host_port(base):
    host, port = base.removeprefix("http://").split(":")
    return host, int(port)


async def read_head(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = re.search(rb"(?i)content-length: *(\d+)", head)
    return status, head, int(length.group(1)) if length else None


class CStreams:
    """The streams opened and read by the C client (sse-streams.c): `streams` holds one object per
    stream whose `arrivals` fill in once `stop` has read the client's report."""

    class Arrivals:
        def __init__(self):
            self.arrivals = {}

    def __init__(self, path, host, port, pairs):
        self.process = subprocess.Popen([path, host, str(port)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.streams = [self.Arrivals() for _ in pairs]
        self.process.stdin.write("".join(f"{token} {house}\n" for token, house in pairs) + "go\n")
        self.process.stdin.flush()
        ready = self.process.stdout.readline()
        if not ready.startswith("ready"):
            raise SystemExit(f"live.py: the stream client did not start: {ready!r}")

    def stop(self):
        self.process.stdin.write("stop\n")
        self.process.stdin.flush()
        for line in self.process.stdout:
            if line.strip() == "end":
                break
            stream, position, seconds = line.split()
            self.streams[int(stream)].arrivals.setdefault(int(position), float(seconds))
        self.process.wait()


class Stream:
    """One open stream; `arrivals` maps each event id to when its chunk was read."""

    def __init__(self):
        self.arrivals = {}
        self.task = None
        self.writer = None

    async def open(self, host, port, token, house):
        reader, self.writer = await asyncio.open_connection(host, port)
        self.writer.write(f"GET /v1/live?topics=house:{house} HTTP/1.1\r\nHost: {host}\r\n"
                          f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n".encode())
        status, head, _ = await read_head(reader)
        if status != 200:
            raise SystemExit(f"live.py: a stream was refused with {status}: {head!r}")
        self.task = asyncio.create_task(self.read(reader))

    async def read(self, reader):
        buffered = b""
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            now = time.monotonic()
            # Chunked framing lines never look like `id: <digits>` on a line of their own.
            buffered = buffered[-64:] + chunk
            for match in ID.finditer(buffered):
                self.arrivals.setdefault(int(match.group(1)), now)

    def close(self):
        if self.task:
            self.task.cancel()
        if self.writer:
            self.writer.close()


async def worker(host, port, token, house, task, until, done, interval=0.0):
    """Completes the task over one connection until `until`, one command every `interval` seconds at
    most (0: back to back); appends (position, 2xx time, seconds)."""
    reader, writer = await asyncio.open_connection(host, port)
    request = (f"POST /v1/houses/{house}/tasks/{task}/completions HTTP/1.1\r\nHost: {host}\r\n"
               f"Authorization: Bearer {token}\r\nContent-Length: 0\r\n\r\n").encode()
    due = time.monotonic()
    while time.monotonic() < until:
        if interval:
            # On a schedule, not after each answer: a slow answer is not made up by a longer pause.
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            due += interval
        sent = time.monotonic()
        writer.write(request)
        status, head, length = await read_head(reader)
        body = await reader.readexactly(length or 0)
        answered = time.monotonic()
        if 200 <= status < 300:
            position = re.search(rb'"position":(\d+)', body)
            done.append((int(position.group(1)), answered, answered - sent))
        else:
            done.append((None, answered, answered - sent))
    writer.close()


def percentile(values, share):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main():
    args = parse_args()
    users = [line.split() for line in open(args.tuples) if line.strip()]
    counts = [int(n) for n in args.streams.split(",")]
    rows = []
    for count in counts:
        rows.append(asyncio.run(measure(args, users, count)))
    base_rate = rows[0]["rate"] if rows and counts[0] == 0 else None
    titles = ["streams", "commands", "cmd/s", "of 0 streams", "cmd p50 ms", "cmd p99 ms", "deliveries", "missed",
              "delivery p50 ms", "delivery p99 ms", "server CPU ms/cmd", "client CPU s"]
    table = [titles]
    for row in rows:
        share = f"{100 * row['rate'] / base_rate:.1f}%" if base_rate else "–"
        table.append([f"{row['streams']:,}", f"{row['commands']:,}", f"{row['rate']:,.0f}", share,
                      f"{row['cmd50']:.2f}", f"{row['cmd99']:.2f}", f"{row['deliveries']:,}", f"{row['missed']:,}",
                      "–" if row["streams"] == 0 else f"{row['d50']:.2f}", "–" if row["streams"] == 0 else f"{row['d99']:.2f}",
                      f"{1000 * row['server_cpu'] / max(row['commands'], 1):.2f}", f"{row['client_cpu']:.1f}"])
    widths = [max(len(r[c]) for r in table) for c in range(len(titles))]
    print(f"== live: task done for {args.duration:g} s by {args.workers} workers, with N streams open (house topics)")
    for r in table:
        print("  ".join(cell.rjust(width) for cell, width in zip(r, widths)))


async def measure(args, users, count):
    host, port = host_port(args.base)
    streams = []
    external = None
    if args.stream_client and count > 0:
        pairs = [(users[i % len(users)][0], users[i % len(users)][1]) for i in range(count)]
        external = CStreams(args.stream_client, host, port, pairs)
        streams = [(s, house) for s, (_, house) in zip(external.streams, pairs)]
    else:
        for i in range(count):
            streams.append((Stream(), users[i % len(users)][1]))
        for start in range(0, count, 50):
            await asyncio.gather(*(s.open(host, port, users[i % len(users)][0], house)
                                   for i, (s, house) in enumerate(streams[start:start + 50], start)))
    await asyncio.sleep(1.0)
    done = {w: [] for w in range(args.workers)}
    client_pid = external.process.pid if external else None
    cpu_before = cpu_seconds(args.server_pid, client_pid)
    started = time.monotonic()
    until = started + args.duration
    interval = args.workers / args.rate if args.rate > 0 else 0.0
    await asyncio.gather(*(worker(host, port, *users[w % len(users)][:3], until, done[w], interval) for w in range(args.workers)))
    elapsed = time.monotonic() - started
    cpu_after = cpu_seconds(args.server_pid, client_pid)
    await asyncio.sleep(2.0)  # the last deliveries on their way
    if external:
        external.stop()
    for s, _ in streams:
        if isinstance(s, Stream):
            s.close()
    latencies, missed, commands, durations = [], 0, 0, []
    for w, results in done.items():
        house = users[w % len(users)][1]
        watching = [s for s, h in streams if h == house]
        for position, answered, seconds in results:
            durations.append(seconds)
            if position is None:
                continue
            commands += 1
            for s in watching:
                arrived = s.arrivals.get(position)
                if arrived is None:
                    missed += 1
                else:
                    latencies.append(arrived - answered)
    return {"streams": count, "commands": commands, "rate": commands / elapsed,
            "cmd50": 1000 * percentile(durations, 0.50), "cmd99": 1000 * percentile(durations, 0.99),
            "deliveries": len(latencies), "missed": missed,
            "d50": 1000 * percentile(latencies, 0.50), "d99": 1000 * percentile(latencies, 0.99),
            "server_cpu": cpu_after[0] - cpu_before[0], "client_cpu": cpu_after[1] - cpu_before[1], "elapsed": elapsed}


def process_cpu_seconds(pid):
    """The user+system CPU seconds of process `pid` so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(server_pid, client_pid=None):
    """(the server's user+system CPU seconds, or NaN without a pid; this process's and, when
    given, the stream client's)."""
    mine = resource.getrusage(resource.RUSAGE_SELF)
    server = process_cpu_seconds(server_pid) if server_pid else float("nan")
    client = process_cpu_seconds(client_pid) if client_pid else 0.0
    return server, mine.ru_utime + mine.ru_stime + client


if __name__ == "__main__":
    main()
