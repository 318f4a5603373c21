"""Registers 64 users in 16 houses of 4 through the API, each with a task of their own, and
writes one line per user (token, house id, task id) for the wrk scripts."""
import json, urllib.request, sys
base = sys.argv[1]
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    req.add_header("content-type", "application/json")
    if token: req.add_header("authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r:
        data = r.read()
        return json.loads(data) if data else {}
tuples = []
for h in range(16):
    members = []
    for m in range(4):
        reg = call("POST", "/v1/accounts", {"email": f"u{h}-{m}@bench.test", "password": "bench-password", "displayName": f"User {h}-{m}"})
        members.append(reg["token"])
    house = call("POST", "/v1/houses", {"name": f"House {h}"}, members[0])
    for t in members[1:]:
        call("POST", "/v1/houses/join", {"joinCode": house["joinCode"]}, t)
    room = call("POST", f"/v1/houses/{house['houseId']}/rooms", {"name": "Kitchen"}, members[0])
    for m, t in enumerate(members):
        task = call("POST", f"/v1/houses/{house['houseId']}/rooms/{room['roomId']}/tasks", {"name": f"Task {m}", "frequencyDays": 7, "points": 5}, t)
        tuples.append(f"{t} {house['houseId']} {task['taskId']}")
open(sys.argv[2] if len(sys.argv) > 2 else "tuples.txt", "w").write("\n".join(tuples) + "\n")
print(len(tuples), "tuples")
