#!/usr/bin/env bash
# What CI proves of an app's use of LogbookClient (docs/client.md, "The dependency graph"):
# this package, built on its own in a scratch directory of its own (so resolved and built from
# nothing, as an app's first build is), links and compiles no module of the server's; and its
# program signs in to `logbook serve --demo`, completes a task and sees the watched scoreboard
# change. Any failure fails the script.
#
# Usage: Examples/HouseholdApp/check.sh [path/to/logbook] [scratch path]
#        (defaults .build/debug/logbook and .build-example, from the repository's root)
set -euo pipefail
example="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$example/../.." && pwd)"
cd "$root"
binary="${1:-.build/debug/logbook}"
scratch="${2:-.build-example}"

started=$(date +%s)
swift build --package-path "$example" --scratch-path "$scratch"
echo "example: built in $(($(date +%s) - started)) s"

# The graph. Not `swift package show-dependencies`: it lists packages, and the Logbook package's
# include the server's (Hummingbird, PostgresNIO) whether or not a product needs them. What an
# app gets is the target graph, which the build shows: SwiftPM makes a `<module>.build` folder
# for every target of every package resolved, built or not, so neither those folders nor the
# checkouts say anything; the objects linked into the program (its product's LinkFileList), the
# Swift modules compiled (`Modules/`) and the shared libraries it loads (ldd) do. Forbidden:
# every target of the Logbook package but LogbookClient, whatever is added later, and the
# server's own packages.
swift package --package-path "$root" describe --type json >"$scratch/logbook-package.json"
python3 - "$scratch/debug" "$scratch/logbook-package.json" <<'PYTHON'
import json, os, re, subprocess, sys

debug, described = sys.argv[1], sys.argv[2]
def fail(reason):
    sys.exit(f"example: the graph check failed: {reason}")

# The layout this check reads; a moved or empty folder fails it instead of passing it.
link_list = os.path.join(debug, "household-app.product", "Objects.LinkFileList")
modules_dir = os.path.join(debug, "Modules")
program = os.path.join(debug, "household-app")
for path in (link_list, modules_dir, program):
    if not os.path.exists(path):
        fail(f"{path} is missing: SwiftPM's build layout is not the one this check reads")
linked = set()
for line in open(link_list):
    path = line.strip().strip("'\"")  # a path with a space is quoted
    folder = os.path.relpath(os.path.realpath(path), os.path.realpath(debug)).split(os.sep)[0]
    if not (folder.endswith(".build") and path.endswith(".o")):
        fail(f"a linked object outside a <module>.build folder: {path}")
    linked.add(folder[:-len(".build")])
compiled = {name.split(".")[0] for name in os.listdir(modules_dir) if name.endswith(".swiftmodule")}
for module in ("household_app", "LogbookClient", "OpenAPIRuntime", "AsyncHTTPClient"):
    if module not in linked or (module != "household_app" and module not in compiled):
        fail(f"{module} is not among the linked objects and compiled modules: this check reads the wrong build")

targets = json.load(open(described))["targets"]
server = {target["c99name"] for target in targets if target["name"] != "LogbookClient"}
if not {"API", "EventLog", "Projections", "LMDB", "CLMDB"} <= server:
    fail("the Logbook package's description lacks its server targets")
def is_server(module):
    return module in server or module.startswith("Hummingbird") or module in ("PostgresNIO", "OpenAPIHummingbird", "CBcrypt")
found = sorted(module for module in linked | compiled if is_server(module))
if found:
    fail(f"modules of the server's in an app's build: {', '.join(found)}")
libraries = subprocess.run(["ldd", program], capture_output=True, text=True, check=True).stdout
if re.search(r"liblmdb|libpq", libraries):
    fail("the program loads a library of the server's: " + ", ".join(re.findall(r"(liblmdb\S*|libpq\S*)", libraries)))
print(f"example: no module of the server's among {len(linked)} linked and {len(compiled)} compiled modules")
PYTHON

# The program against a demo server on a free port; the server says where it listens.
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
LOGBOOK_BCRYPT_COST=4 "$binary" serve --data-dir "$work/data" --demo --port 0 >"$work/server.log" 2>&1 &
server_pid=$!
base=""
for _ in $(seq 1 600); do
    base="$(sed -n 's/^logbook listening on //p' "$work/server.log" | head -n 1)"
    [ -n "$base" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log"; echo "example: the server exited" >&2; exit 1; }
    sleep 0.1
done
[ -n "$base" ] || { cat "$work/server.log"; echo "example: the server did not start" >&2; exit 1; }
if ! timeout --kill-after=5 60 "$scratch/debug/household-app" "$base"; then
    tail -n 40 "$work/server.log"
    echo "example: household-app failed against $base" >&2
    exit 1
fi
kill -TERM "$server_pid"
wait "$server_pid" || { tail -n 40 "$work/server.log"; echo "example: the server did not stop cleanly" >&2; exit 1; }
server_pid=""
echo "example: passed"
