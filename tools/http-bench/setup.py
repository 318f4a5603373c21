"""Waits until the server's read models include its whole log (a pre-filled log is built at
start), then registers users in houses of 4 through the API (16 houses, or HOUSES), each with a
task of their own, and writes one line per user (token, house id, task id, organisation id) for
the wrk script, the first houses' users first: live.py's writers are the first users (64
workers: 16 houses), the houses past them only watch (live.py's streams, 4 to a house like a
household's phones). wrk takes every user in turn.

The 4 users of a house also work together: the first registers an organisation, the others join
it and are accepted, and the first reviews each of them REVIEWS times (20) with a form of three
questions (a rating, a yes/no, a text), so that GET …/reviews reads a page of 50 reviews for the
admin and 20 for each employee, each review read from the log (ADR 0009). The admin also posts NEWS
(30) news items to the one location, so that GET …/news reads a page of 30 for every member, each
item's author, title and text opened when read (ADR 0009).

Each user also completes their task COMPLETIONS times (15), so that GET …/history reads a page of
50 of the house's 60 completions, each read from the log with the completer's name opened (ADR 0009).

    [HOUSES=50] setup.py BASE_URL TUPLES_FILE [CATCH_UP_SECONDS_MAX]
"""
import json, os, sys, time, urllib.request
base = sys.argv[1]
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    req.add_header("content-type", "application/json")
    if token: req.add_header("authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r:
        data = r.read()
        return json.loads(data) if data else {}

def wait_until_projected(seconds_max):
    """Commands wait for the read models (read-your-writes), so seeding starts once they caught up."""
    start = time.monotonic()
    for _ in range(int(seconds_max * 4) + 1):
        health = call("GET", "/health")
        if health["projectedPosition"] >= health["logPosition"]:
            print(f"read models at log position {health['logPosition']:,} after {time.monotonic() - start:.1f} s")
            return
        time.sleep(0.25)
    sys.exit(f"read models still at {health['projectedPosition']:,} of {health['logPosition']:,} after {seconds_max:.0f} s")

REVIEWS = int(os.environ.get("REVIEWS", "20"))
NEWS = int(os.environ.get("NEWS", "30"))
COMPLETIONS = int(os.environ.get("COMPLETIONS", "15"))
TEXTS = ["Always ready to help colleagues and takes the time to explain things to new people on the team.",
         "Could plan the week better; a few tasks were finished late because they started late."]

def seed_organisation(h, tokens, user_ids):
    """Organisation h: the first user its admin, the other three accepted employees, each reviewed REVIEWS times;
    NEWS news items at its location."""
    admin = tokens[0]
    organisation = call("POST", "/v1/organisations", {"name": f"Bench Works {h}", "locations": [{"name": "Head office"}]}, admin)
    org, location = organisation["organisationId"], organisation["locations"][0]["locationId"]
    for number, (token, user) in enumerate(zip(tokens[1:], user_ids[1:]), start=1):
        call("POST", f"/v1/organisations/{org}/join-requests", {"locationId": location, "employeeNumber": f"E{h}-{number}", "name": f"User {h}-{number}"}, token)
        call("POST", f"/v1/organisations/{org}/join-requests/{user}/accept", {}, admin)
    form = call("POST", f"/v1/organisations/{org}/forms", {"name": "Yearly review", "questions": [
        {"text": "How would you rate the employee's overall performance this period?", "kind": "rating"},
        {"text": "Does the employee follow the safety rules?", "kind": "yesNo"},
        {"text": "Which goals do you agree on for the next period?", "kind": "text"}]}, admin)
    rating, yes_no, text = (q["questionId"] for q in form["questions"])
    for r in range(REVIEWS):
        for user in user_ids[1:]:
            call("POST", f"/v1/organisations/{org}/reviews", {"employeeId": user, "formId": form["formId"], "answers": [
                {"questionId": rating, "rating": 1 + r % 5}, {"questionId": yes_no, "yes": r % 3 != 0},
                {"questionId": text, "text": TEXTS[r % 2]}], "remark": "Thank you for this period."}, admin)
    for n in range(NEWS):
        call("POST", f"/v1/organisations/{org}/news", {"locationId": location, "title": f"Canteen news, week {n + 1}",
             "text": " ".join([TEXTS[n % 2], TEXTS[(n + 1) % 2], "The canteen opens at eight from Monday on."])}, admin)
    return org

wait_until_projected(float(sys.argv[3]) if len(sys.argv) > 3 else 3600)
tuples = []
houses = int(os.environ.get("HOUSES", "16"))
for h in range(houses):
    members, users, tasks = [], [], []
    for m in range(4):
        reg = call("POST", "/v1/accounts", {"email": f"u{h}-{m}@bench.test", "password": "bench-password", "displayName": f"User {h}-{m}"})
        members.append(reg["token"])
        users.append(reg["userId"])
    house = call("POST", "/v1/houses", {"name": f"House {h}"}, members[0])
    for t in members[1:]:
        call("POST", "/v1/houses/join", {"joinCode": house["joinCode"]}, t)
    room = call("POST", f"/v1/houses/{house['houseId']}/rooms", {"name": "Kitchen"}, members[0])
    for m, t in enumerate(members):
        task = call("POST", f"/v1/houses/{house['houseId']}/rooms/{room['roomId']}/tasks", {"name": f"Task {m}", "frequencyDays": 7, "points": 5}, t)
        tasks.append(task["taskId"])
    organisation = seed_organisation(h, members, users)
    for _ in range(COMPLETIONS):
        for t, task in zip(members, tasks):
            call("POST", f"/v1/houses/{house['houseId']}/tasks/{task}/completions", None, t)
    for t, task in zip(members, tasks):
        tuples.append(f"{t} {house['houseId']} {task} {organisation}")
open(sys.argv[2] if len(sys.argv) > 2 else "tuples.txt", "w").write("\n".join(tuples) + "\n")
print(len(tuples), f"users seeded in {houses} houses")
