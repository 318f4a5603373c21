#!/usr/bin/env python3
"""Times `POST /v1/password-resets` for e-mails with and without an account.

Starts the built server (`.build/debug/logbook serve`) on a temporary data directory and a
free port, registers accounts, then sends reset requests for known and unknown e-mails,
interleaved on one keep-alive connection, and prints the median, p90, min and max of each in
milliseconds. The answer must not tell the two apart (SPEC §1 Accounts: no account
enumeration), so the two rows should agree within noise.

Known e-mails are distinct accounts by default, so every known request is the account's first
(the path that used to mint a token and append an event); `--same-known` repeats one account
instead (whose requests are capped at 5 an hour, after which they do no work).

    python3 tools/timing/reset-timing.py [--binary .build/debug/logbook] [--requests 50] [--gap-ms 0]
"""
import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def start_server(binary, data_dir):
    env = dict(os.environ, LOGBOOK_BCRYPT_COST="4")
    env.pop("LOGBOOK_SECRET_KEY", None)
    process = subprocess.Popen(
        [binary, "serve", "--data-dir", data_dir, "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        if line.startswith("logbook listening on http://"):
            host, port = line.strip().removeprefix("logbook listening on http://").rsplit(":", 1)
            return process, host, int(port)
    process.kill()
    sys.exit("the server did not start listening within 60 s")


def post(connection, path, body):
    data = json.dumps(body).encode()
    started = time.perf_counter()
    connection.request("POST", path, body=data, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    return response.status, (time.perf_counter() - started) * 1000


def summary(name, times):
    ordered = sorted(times)
    p90 = ordered[max(0, int(round(0.9 * len(ordered))) - 1)]
    return (f"{name:8} n={len(ordered):3}  median {statistics.median(ordered):6.2f} ms  "
            f"p90 {p90:6.2f} ms  min {ordered[0]:6.2f} ms  max {ordered[-1]:6.2f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/logbook")
    parser.add_argument("--requests", type=int, default=50, help="requests per kind")
    parser.add_argument("--gap-ms", type=float, default=0, help="pause between requests")
    parser.add_argument("--same-known", action="store_true", help="one known account for every known request")
    arguments = parser.parse_args()

    data_dir = tempfile.mkdtemp(prefix="reset-timing-")
    process, host, port = start_server(arguments.binary, data_dir)
    try:
        connection = http.client.HTTPConnection(host, port, timeout=30)
        accounts = 1 if arguments.same_known else arguments.requests
        known = [f"known{i}@example.org" for i in range(accounts)]
        for email in known:
            status, _ = post(connection, "/v1/accounts",
                             {"email": email, "password": "correct horse", "displayName": "Timing"})
            if status != 201:
                sys.exit(f"register {email}: {status}")
        # Warm-up on e-mails not measured: the first requests pay for lazy set-up.
        for i in range(10):
            post(connection, "/v1/password-resets", {"email": f"warm{i}@example.org"})
        timings = {"known": [], "unknown": []}
        for i in range(arguments.requests):
            for kind in ("known", "unknown") if i % 2 == 0 else ("unknown", "known"):
                email = known[i % accounts] if kind == "known" else f"nobody{i}@example.org"
                status, elapsed = post(connection, "/v1/password-resets", {"email": email})
                if status != 202:
                    sys.exit(f"reset {email}: {status}")
                timings[kind].append(elapsed)
                if arguments.gap_ms:
                    time.sleep(arguments.gap_ms / 1000)
        print(f"{arguments.binary}: {arguments.requests} requests each, gap {arguments.gap_ms} ms, "
              f"{'one known account' if arguments.same_known else 'a fresh known account each time'}")
        for kind, times in timings.items():
            print(summary(kind, times))
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
