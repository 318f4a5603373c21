#!/usr/bin/env python3
"""Drives the operator console (/admin) in headless Chromium against a running server and
asserts what it shows; saves a screenshot of each view at 360 px wide.

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON
messages separated by NUL on file descriptors 3 and 4), so nothing but the standard library is
needed. Each step prints `ok: <step>`; the first failed check prints `FAIL: …` and exits 1.

usage: drive.py BASE_URL OPERATOR_TOKEN SCREENSHOT_DIR [--chromium PATH]
"""
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid

STEP_SECONDS = 20  # every wait of a step is bounded
WIDTH_PX = 360


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Browser:
    """One headless Chromium and one page, spoken to over the DevTools pipe."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="console-test-chromium-")
        to_browser_read, to_browser_write = os.pipe()
        from_browser_read, from_browser_write = os.pipe()
        # Above any descriptor the child's 3 and 4 could collide with while they are set up.
        child_read = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
        child_write = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
        for fd in (to_browser_read, from_browser_write):
            os.close(fd)

        def wire():
            os.dup2(child_read, 3)
            os.dup2(child_write, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
             f"--user-data-dir={self.profile}", "about:blank"],
            preexec_fn=wire, pass_fds=(3, 4, child_read, child_write),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(child_read)
        os.close(child_write)
        self.out = to_browser_write
        self.inp = from_browser_read
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride", {"width": WIDTH_PX, "height": 780, "deviceScaleFactor": 1, "mobile": True})

    def call(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + STEP_SECONDS
        while True:
            reply = self.read(deadline)
            if reply.get("id") == self.next_id:
                check("error" not in reply, f"{method}: {reply.get('error')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def read(self, deadline):
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            check(remaining > 0, "Chromium did not answer in time")
            ready, _, _ = select.select([self.inp], [], [], remaining)
            if ready:
                chunk = os.read(self.inp, 1 << 16)
                check(chunk, "Chromium closed the pipe")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def evaluate(self, expression):
        """The value of `expression` (awaited when a promise) in the page."""
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        check("exceptionDetails" not in result, f"script failed: {expression[:80]}: {result.get('exceptionDetails')}")
        return result["result"].get("value")

    def wait_for(self, expression, what):
        deadline = time.monotonic() + STEP_SECONDS
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            check(time.monotonic() < deadline, f"timed out waiting for {what}")
            time.sleep(0.1)

    def navigate(self, url):
        self.call("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete' && !!document.querySelector('h1')", f"{url} to load")

    def key(self, key, code, key_code):
        """A key pressed and released; Enter as a typed character, so it submits a form."""
        down = {"type": "rawKeyDown", "key": key, "code": code, "windowsVirtualKeyCode": key_code}
        if key == "Enter":
            down.update(type="keyDown", text="\r")
        self.call("Input.dispatchKeyEvent", down)
        self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": key_code})

    def type_text(self, text):
        self.call("Input.insertText", {"text": text})

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except Failure:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class Api:
    """The server's HTTP API, as the test's users and operator call it."""

    def __init__(self, base, operator_token):
        self.base = base
        self.operator_token = operator_token

    def send(self, method, path, body=None, token=None, expect=(200, 201, 202, 204)):
        request = urllib.request.Request(self.base + path, method=method, data=None if body is None else json.dumps(body).encode())
        request.add_header("Content-Type", "application/json")
        request.add_header("Idempotency-Key", str(uuid.uuid4()))
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=STEP_SECONDS) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode()
        check(status in expect, f"{method} {path}: {status} {text[:300]}")
        return json.loads(text) if text else {}

    def register(self, name):
        email = f"{name.lower()}-{uuid.uuid4().hex[:8]}@example.org"
        reply = self.send("POST", "/v1/accounts", {"email": email, "password": "correct horse", "displayName": name})
        return reply["userId"], reply["token"]

    def admin(self, path):
        return self.send("GET", path, token=self.operator_token)


# Every labelable control has a label (for= or wrapping) and every button a name.
UNLABELLED = """[...document.querySelectorAll('input, select, textarea, button')]
  .filter((element) => element.offsetParent !== null)
  .filter((element) => element.tagName === 'BUTTON'
      ? !(element.getAttribute('aria-label') || element.textContent.trim())
      : !(element.labels && element.labels.length > 0))
  .map((element) => element.outerHTML.slice(0, 80))"""

# Nothing makes the page itself wider than the screen (wide tables scroll in their own box).
PAGE_WIDTH = "document.documentElement.scrollWidth"


def rows(table_id):
    return f"[...document.querySelectorAll('#{table_id} tbody tr:not(.empty)')].map((row) => [...row.cells].map((cell) => cell.textContent))"


def submit(browser, form_id, values):
    fields = json.dumps(values)
    browser.evaluate(f"""(() => {{
      const form = document.getElementById('{form_id}');
      for (const [name, value] of Object.entries({fields})) form.elements.namedItem(name).value = value;
      form.requestSubmit();
    }})()""")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("token")
    parser.add_argument("screenshots")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    arguments = parser.parse_args()
    check(arguments.chromium, "chromium is not installed (apt-get install chromium)")
    os.makedirs(arguments.screenshots, exist_ok=True)
    api = Api(arguments.base, arguments.token)

    # A house with a task, and a name that would run as HTML if any view parsed it.
    ann_id, ann = api.register("Ann")
    hostile = "<img src=x onerror=\"document.title='pwned'\">"
    house = api.send("POST", "/v1/houses", {"name": hostile}, token=ann)["houseId"]
    room = api.send("POST", f"/v1/houses/{house}/rooms", {"name": "Kitchen"}, token=ann)["roomId"]
    task = api.send("POST", f"/v1/houses/{house}/rooms/{room}/tasks", {"name": "Dishes", "frequencyDays": 1, "points": 5}, token=ann)["taskId"]
    print("ok: data set up", flush=True)

    browser = Browser(arguments.chromium)
    try:
        shot = lambda name: browser.screenshot(os.path.join(arguments.screenshots, f"{name}.png"))
        browser.navigate(arguments.base + "/admin")
        check(browser.evaluate("document.title") == "Logbook operator console", "the page's title")
        check(browser.evaluate("!document.getElementById('sign-in').hidden && document.getElementById('views').hidden"), "only the sign-in form before signing in")
        check(browser.evaluate(UNLABELLED) == [], f"unlabelled controls: {browser.evaluate(UNLABELLED)}")
        shot("1-sign-in")
        print("ok: sign-in page", flush=True)

        # Keyboard only: Tab reaches the token field, typing and Enter submit a wrong token.
        browser.evaluate("document.activeElement.blur()")
        for _ in range(6):
            browser.key("Tab", "Tab", 9)
            if browser.evaluate("document.activeElement.id") == "token":
                break
        check(browser.evaluate("document.activeElement.id") == "token", "Tab reaches the token field")
        browser.type_text("not-the-token")
        browser.key("Enter", "Enter", 13)
        browser.wait_for("document.getElementById('error').textContent.includes('not_an_operator')", "the refusal of a wrong token")
        check(browser.evaluate("document.getElementById('views').hidden"), "a wrong token does not open the console")
        print("ok: a wrong token is refused with its code", flush=True)

        browser.evaluate(f"document.getElementById('token').value = {json.dumps(arguments.token)}")
        browser.key("Enter", "Enter", 13)
        browser.wait_for("!document.getElementById('views').hidden && !document.getElementById('view-live').hidden", "the console after signing in")
        check(browser.evaluate("document.activeElement.id") == "live-title", "focus moves to the view's heading")
        check(browser.evaluate("sessionStorage.length") == 1 and browser.evaluate("localStorage.length") == 0, "the token is kept in this tab only")
        check(arguments.token not in browser.evaluate("location.href"), "the token is never in the URL")
        print("ok: signed in with the operator token", flush=True)

        # The live tail shows a completion appended after it started.
        submit(browser, "live-form", {"type": "household.taskCompleted"})
        browser.wait_for("document.getElementById('live-state').textContent.startsWith('Following')", "the live tail to connect")
        for _ in range(3):
            api.send("POST", f"/v1/houses/{house}/tasks/{task}/completions", token=ann)
        browser.wait_for(f"({rows('live-table')}).length === 3", "three completions in the live tail")
        live = browser.evaluate(rows("live-table"))
        check(all(row[2] == "household.taskCompleted" and row[3].startswith(f"house-{house}") for row in live), f"live rows: {live}")
        positions = [int(row[0]) for row in live]
        check(positions == sorted(positions, reverse=True), f"newest first: {positions}")
        check(browser.evaluate(f"{PAGE_WIDTH} <= {WIDTH_PX}"), f"the page fits {WIDTH_PX} px: {browser.evaluate(PAGE_WIDTH)}")
        shot("2-live-tail")
        browser.evaluate("document.getElementById('live-stop').click()")
        browser.wait_for("document.getElementById('live-state').textContent.startsWith('Stopped')", "the live tail to stop")
        print("ok: the live tail shows events as they are appended", flush=True)

        # Event search with a filter, paged two at a time.
        browser.evaluate("location.hash = '#events'")
        browser.wait_for("!document.getElementById('view-events').hidden", "the events view")
        submit(browser, "events-form", {"type": "household.taskCompleted", "limit": "2", "category": "house"})
        browser.wait_for(f"({rows('events-table')}).length === 2 && !document.getElementById('events-more').hidden", "the first page")
        browser.evaluate("document.getElementById('events-more').click()")
        browser.wait_for(f"({rows('events-table')}).length === 3 && document.getElementById('events-more').hidden", "the last page")
        found = browser.evaluate(rows("events-table"))
        check([int(row[0]) for row in found] == sorted(positions), f"the three completions, oldest first: {found}")
        submit(browser, "events-form", {"type": "", "category": "", "limit": "50", "stream": f"house-{house}"})
        browser.wait_for(f"({rows('events-table')}).some((row) => row[2] === 'household.houseCreated')", "the house's events")
        check(browser.evaluate("document.title") == "Logbook operator console" and browser.evaluate("document.querySelectorAll('main img').length") == 0,
              "a user's text is shown as text, never run as HTML")
        # The data column is the event's JSON, so the name is there as a JSON string.
        check(any(json.dumps(hostile) in row[6] for row in browser.evaluate(rows("events-table"))), "the house's name is shown literally")
        submit(browser, "events-form", {"stream": "", "from": "yesterday"})
        browser.wait_for("document.getElementById('error').textContent.includes('invalid_')", "a bad time's refusal")
        check(browser.evaluate(f"{PAGE_WIDTH} <= {WIDTH_PX}"), "the events view fits")
        shot("3-events")
        print("ok: event search filters, pages and shows problems", flush=True)

        # A stream's history, reached from an event's stream link.
        browser.evaluate("document.getElementById('events-form').elements.namedItem('from').value = ''")
        submit(browser, "events-form", {"stream": f"house-{house}"})
        browser.wait_for(f"({rows('events-table')}).length > 0", "the house's events again")
        browser.evaluate("document.querySelector('#events-table tbody a[href^=\"#stream\"]').click()")
        browser.wait_for(f"!document.getElementById('view-stream').hidden && ({rows('stream-table')}).length >= 6", "the stream view")
        stream = browser.evaluate(rows("stream-table"))
        check(stream[0][2] == "household.houseCreated" and stream[0][3].endswith(" v0"), f"oldest first: {stream[0]}")
        submit(browser, "stream-form", {"direction": "backward"})
        browser.wait_for(f"({rows('stream-table')})[0]?.[2] === 'household.taskCompleted'", "newest first")
        shot("4-stream")
        print("ok: a stream's history both ways", flush=True)

        # Audit by actor (from the actor link) and by entity (the task).
        browser.evaluate("document.querySelector('#stream-table tbody a[href^=\"#audit\"]').click()")
        browser.wait_for(f"!document.getElementById('view-audit').hidden && ({rows('audit-table')}).length >= 7", "the actor's trail")
        trail = browser.evaluate(rows("audit-table"))
        check(all(row[4] == ann_id for row in trail), f"only what Ann did: {trail}")
        check({"household.houseCreated", "household.taskAdded", "household.taskCompleted"} <= {row[2] for row in trail}, f"Ann's trail: {trail}")
        browser.evaluate("document.querySelector('#audit-form input[value=entity]').click()")
        submit(browser, "audit-form", {"id": task})
        browser.wait_for(f"({rows('audit-table')}).length === 4", "the task's trail")
        check([row[2] for row in browser.evaluate(rows("audit-table"))] == ["household.taskAdded"] + ["household.taskCompleted"] * 3, "the task's events")
        shot("5-audit")
        print("ok: audit by actor and by entity", flush=True)

        # Projections: state and lag, and a rebuild from its button.
        browser.evaluate("location.hash = '#projections'")
        browser.wait_for(f"({rows('projections-table')}).length >= 5", "the projections")
        listed = browser.evaluate(rows("projections-table"))
        served = api.admin("/v1/admin/projections")["projections"]
        check(sorted(row[0] for row in listed) == sorted(p["name"] for p in served), f"every projection: {listed}")
        check(all(row[4].isdigit() for row in listed), "each shows its lag")
        name = listed[0][0]
        browser.evaluate(f"document.querySelector('#projections-table button[aria-label=\"Rebuild {name}\"]').click()")
        browser.wait_for(f"document.getElementById('status').textContent === 'Rebuild of {name} started.'", "the rebuild to start")
        check(browser.evaluate(UNLABELLED) == [], f"unlabelled controls: {browser.evaluate(UNLABELLED)}")
        shot("6-projections")
        print("ok: projection status and rebuild", flush=True)

        # The log's stats agree with the route's.
        browser.evaluate("location.hash = '#stats'")
        browser.wait_for(f"({rows('stats-types')}).length > 0", "the stats")
        stats = api.admin("/v1/admin/stats")
        summary = browser.evaluate("[...document.querySelectorAll('#stats-summary dd')].map((dd) => dd.textContent)")
        check(int(summary[0]) >= 7 and int(summary[0]) <= stats["events"], f"events: {summary}")
        completed = [row for row in browser.evaluate(rows("stats-types")) if row[0] == "household.taskCompleted"]
        check(completed and int(completed[0][1]) >= 3, f"completions counted: {completed}")
        check(browser.evaluate(f"{PAGE_WIDTH} <= {WIDTH_PX}"), "the stats view fits")
        shot("7-stats")
        print("ok: log stats", flush=True)

        browser.evaluate("document.getElementById('sign-out').click()")
        browser.wait_for("!document.getElementById('sign-in').hidden && sessionStorage.length === 0", "signing out")
        print("ok: signing out forgets the token", flush=True)
    finally:
        browser.close()
    print("console: all steps passed", flush=True)


if __name__ == "__main__":
    try:
        main()
    except Failure as failure:
        print(f"FAIL: {failure}", flush=True)
        sys.exit(1)
