#!/usr/bin/env python3
"""Seeds a fresh Logbook server for fuzzing and writes the schemathesis config for it.

Usage: seed.py BASE_URL OUT_DIR

Registers two users in one postcode (both with usernames, so they can play each other), a house
with a room, a task and a completion, a report with a reply and a follow, and a quiz game
between them. Then writes OUT_DIR/schemathesis.toml: tools/fuzz/schemathesis.toml followed by
dictionaries of the seeded ids, bound to the path parameters, so that most generated requests
reach the routes' validation instead of stopping at 404. Prints the tokens as shell
assignments (FUZZ_USER_TOKEN=...) for run.sh to export.
"""
import json
import os
import struct
import sys
import urllib.error
import urllib.request
import uuid
import zlib

BASE, OUT = sys.argv[1], sys.argv[2]
PASSWORD = "fuzzing password"


def call(method, path, body=None, token=None, expect=(200, 201, 204)):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    if status not in expect:
        sys.exit(f"seed: {method} {path} answered {status}: {text}")
    return json.loads(text) if text else {}


def register(name):
    suffix = uuid.uuid4().hex[:8]
    body = {"email": f"{name}-{suffix}@example.com", "password": PASSWORD, "displayName": name.title(),
            "username": f"{name}_{suffix}", "postcode": "1234AB"}
    created = call("POST", "/v1/accounts", body)
    return created["token"], body["username"]


alice, alice_name = register("alice")
bob, bob_name = register("bob")

house = call("POST", "/v1/houses", {"name": "Fuzz House"}, alice)["houseId"]
room = call("POST", f"/v1/houses/{house}/rooms", {"name": "Kitchen"}, alice)["roomId"]
task = call("POST", f"/v1/houses/{house}/rooms/{room}/tasks", {"name": "Dishes", "frequencyDays": 1, "points": 5}, alice)["taskId"]
call("POST", f"/v1/houses/{house}/tasks/{task}/completions", None, alice)

report = call("POST", "/v1/neighbourhood/reports", {
    "title": "Lost cat", "description": "Grey, answers to Moss.", "category": "attention",
    "location": {"latitude": 52.37, "longitude": 4.89}}, alice)["reportId"]
call("POST", f"/v1/neighbourhood/reports/{report}/replies", {"message": "Seen it by the canal."}, bob)
call("PUT", f"/v1/neighbourhood/reports/{report}/follow", None, bob)

game = call("POST", "/v1/quiz/games", {"opponentUsername": bob_name}, alice)["gameId"]


def png(red, green, blue):
    """A 2x2 PNG of one colour: signature, IHDR, IDAT (zlib of the rows), IEND."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes([red, green, blue]) * 2 for _ in range(2))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def upload(image, token):
    request = urllib.request.Request(BASE + "/v1/blobs", data=image, method="POST")
    request.add_header("Content-Type", "image/png")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read().decode())["blobId"]


group = call("POST", "/v1/groups", {"name": "Fuzz Trip"}, alice)["groupId"]
call("POST", f"/v1/groups/{group}/members", {"email": "someone@example.com"}, alice)
blob = upload(png(200, 40, 40), alice)
photo = call("POST", f"/v1/groups/{group}/photos", {"blobId": blob, "description": "The beach"}, alice)["photoId"]
call("POST", f"/v1/groups/{group}/messages", {"text": "Hello"}, alice)

# Seeded ids most of the time; now and then a generated one, for the 404 paths.
ids = {"houseId": [house], "roomId": [room], "taskId": [task], "reportId": [report], "gameId": [game],
       "username": [alice_name, bob_name], "groupId": [group], "photoId": [photo], "blobId": [blob],
       "streamId": [f"house-{house}", f"group-{group}"]}
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "schemathesis.toml")) as static, open(os.path.join(OUT, "schemathesis.toml"), "w") as config:
    config.write(static.read())
    config.write("\n# Written by seed.py: the ids of the seeded data.\n")
    for name, values in ids.items():
        config.write(f"\n[dictionaries.{name}]\nvalues = {json.dumps(values)}\n")
    config.write("\n[parameters]\n")
    for name in ids:
        config.write(f'"path.{name}" = {{ dictionary = "{name}", probability = 0.9 }}\n')

print(f"FUZZ_USER_TOKEN={alice}")
print(f"FUZZ_OPPONENT_TOKEN={bob}")
