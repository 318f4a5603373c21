"""Schemathesis hooks for tools/fuzz/run.sh: who each request is sent as, and query fix-ups.

Tokens come from the environment (run.sh exports them after seeding):
FUZZ_BASE_URL, FUZZ_USER_TOKEN (a registered user's session), FUZZ_OPERATOR_TOKEN.
"""
import json
import os
import re
import urllib.request
import uuid

import schemathesis

BASE = os.environ["FUZZ_BASE_URL"]
USER_TOKEN = os.environ["FUZZ_USER_TOKEN"]
OPERATOR_TOKEN = os.environ["FUZZ_OPERATOR_TOKEN"]

# Routes that need the operator token instead of a user's.
OPERATOR_OPERATIONS = {"listProjections", "rebuildProjection", "addQuizQuestion", "getChainHead",
                       "listAdminEvents", "getAdminStream", "getAdminAudit", "getMetrics",
                       "getAdminEventsLive", "getAdminAsOfScoreboard", "getAdminAsOfGame"}


def fresh_session():
    """A new account's token: logging out (or out everywhere) must not end the session every other
    request uses."""
    body = {"email": f"logout-{uuid.uuid4().hex}@example.com", "password": "fuzzing password", "displayName": "Leaver"}
    request = urllib.request.Request(BASE + "/v1/accounts", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["token"]


@schemathesis.auth(refresh_interval=None)
class LogbookAuth:
    """The operator token for operator routes, a fresh session for the logouts, the seeded user otherwise."""

    def get(self, case, ctx):
        operation_id = case.operation.definition.raw.get("operationId")
        if operation_id in OPERATOR_OPERATIONS:
            return OPERATOR_TOKEN
        if operation_id in ("deleteCurrentSession", "deleteAllSessions"):
            return fresh_session()
        return USER_TOKEN

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


NUMBER = r"-?\d+(?:\.\d+)?"
BBOX = re.compile(rf"^({NUMBER}),({NUMBER}),({NUMBER}),({NUMBER})$")
UUID = re.compile(r"^\s*[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\s*$")


@schemathesis.hook
def before_call(ctx, case, kwargs):
    """Gives generated values the properties a schema cannot state, so that a schema-valid request
    is one the server must accept:

    - an Idempotency-Key names one command: the generator repeats UUIDs across operations, and a
      key reused for another command is rightly 422 idempotency_key_reused, so a UUID becomes a
      fresh one (a malformed key stays, for the 400 path);
    - a cursor is only valid as issued by the same list: a made-up one is rightly 400, so it is
      dropped (the fuzzer cannot know one);
    - a bbox's latitudes are ordered (minLat <= maxLat, stated in prose);
    - an audit names exactly one of actor and entity (stated in prose);
    - a new quiz question's answers are distinct ignoring case and its correct answer is one of
      them (cross-field rules, stated in prose).
    """
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() == "idempotency-key" and isinstance(headers[name], str) and UUID.match(headers[name]):
            headers[name] = str(uuid.uuid4())
    query = case.query or {}
    query.pop("cursor", None)
    if isinstance(query.get("bbox"), str):
        match = BBOX.match(query["bbox"])
        if match:
            west, south, east, north = match.groups()
            if float(south) > float(north):
                query["bbox"] = ",".join([west, north, east, south])
    operation_id = case.operation.definition.raw.get("operationId")
    if operation_id == "getAdminAudit" and ("actor" in query) == ("entity" in query):
        # Exactly one subject (stated in prose): of both, keep the entity; with neither, audit `system`.
        if "entity" in query:
            query.pop("actor")
        else:
            query["actor"] = "system"
        case.query = query
    body = case.body
    if operation_id == "addQuizQuestion" and isinstance(body, dict) and isinstance(body.get("answers"), list):
        answers = body["answers"]
        if answers and all(isinstance(answer, str) for answer in answers):
            # A distinct prefix per answer: "1) x" and "2) x" differ whatever x is.
            body["answers"] = [f"{index}) {answer}"[:120] for index, answer in enumerate(answers)]
            body["correctAnswer"] = body["answers"][0]
