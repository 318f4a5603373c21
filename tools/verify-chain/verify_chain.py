#!/usr/bin/env python3
"""Checks an exported Logbook event log against a published chain head, independently of Logbook.

Written from docs/record-format.md alone ("Hash chain"), with the standard library only.

    logbook-admin records --data-dir DIR > log.jsonl
    python3 verify_chain.py --head POS:HASH log.jsonl      # or - for standard input

Each input line is {"position": N, "record": "<base64 of the stored record>", "hash": "<hex>"|null}.
The chain is recomputed from the records alone: H(0) = 32 zero bytes, H(P) = SHA-256(H(P-1) || record P).
The log up to POS is the published one exactly when H(POS) equals the published hash. Each line's
stored hash is compared with the recomputed one too, so a rewrite whose later hashes were left
alone is named where it is. Exit status: 0 when every check holds, 1 when one fails (the first
diverging position is printed), 2 for bad arguments or unreadable input.
"""

import argparse
import base64
import hashlib
import json
import struct
import sys

GENESIS = bytes(32)
HEADER_BYTES = 96
CHECKSUM_BYTES = 4


def _crc32c_table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


CRC32C_TABLE = _crc32c_table()


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc = CRC32C_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def record_problem(record, position):
    """Why `record` is not a well-formed version-1 record stored at `position`, or None."""
    if len(record) < HEADER_BYTES + CHECKSUM_BYTES:
        return "record of %d bytes is too short" % len(record)
    if record[0:2] != b"LB":
        return "bad magic"
    if record[2] != 1:
        return "unknown record format %d" % record[2]
    (stored_crc,) = struct.unpack_from("<I", record, len(record) - CHECKSUM_BYTES)
    if crc32c(record[:-CHECKSUM_BYTES]) != stored_crc:
        return "checksum mismatch"
    (total_length,) = struct.unpack_from("<I", record, 4)
    if total_length != len(record):
        return "length field disagrees with the stored size"
    (claimed,) = struct.unpack_from("<Q", record, 8)
    if claimed != position:
        return "record claims position %d" % claimed
    return None


def parse_head(text):
    position, sep, digest = text.partition(":")
    if not sep or not position.isdigit() or len(digest) != 64:
        raise ValueError(text)
    return int(position), bytes.fromhex(digest)


def verify(lines, head_position, head_hash):
    """Returns (problems, first_diverging_position, last_position, recomputed hash at the end)."""
    problems = []
    first_diverging = None
    recomputed = GENESIS
    expected_position = 1
    head_seen = head_position == 0
    if head_seen and head_hash != GENESIS:
        problems.append("head 0: the published hash is not the genesis hash")
        first_diverging = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            position = entry["position"]
            record = base64.b64decode(entry["record"], validate=True)
            stored = entry.get("hash")
            stored = bytes.fromhex(stored) if stored is not None else None
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError("line %d: %s" % (number, error))
        if position != expected_position:
            problems.append("positions: expected %d, found %d" % (expected_position, position))
            first_diverging = expected_position if first_diverging is None else first_diverging
        expected_position = position + 1
        problem = record_problem(record, position)
        if problem:
            problems.append("position %d: %s" % (position, problem))
            first_diverging = position if first_diverging is None else first_diverging
        recomputed = hashlib.sha256(recomputed + record).digest()
        if stored is None:
            problems.append("position %d: no stored hash" % position)
        elif stored != recomputed and first_diverging is None:
            problems.append("position %d: the chain recomputed from the records differs from the stored hash" % position)
            first_diverging = position
        if position == head_position:
            head_seen = True
            if recomputed != head_hash:
                problems.append("head %d: the log up to %d is not the published one (its hash there is %s)"
                                % (head_position, head_position, recomputed.hex()))
                first_diverging = position if first_diverging is None else first_diverging
            # Later records are not covered by the head: the proof is complete.
            return problems, first_diverging, position, recomputed
    if not head_seen:
        problems.append("head %d: the log ends at position %d, before the published head"
                        % (head_position, expected_position - 1))
        first_diverging = expected_position if first_diverging is None else first_diverging
    return problems, first_diverging, expected_position - 1, recomputed


def main():
    parser = argparse.ArgumentParser(description="Check an exported Logbook log against a published chain head.")
    parser.add_argument("--head", required=True, help="the published head, POS:HASH")
    parser.add_argument("file", help="the output of logbook-admin records, or - for standard input")
    arguments = parser.parse_args()
    try:
        head_position, head_hash = parse_head(arguments.head)
    except ValueError:
        print("verify_chain: --head %s: expected POS:HASH (64 hexadecimal digits)" % arguments.head, file=sys.stderr)
        return 2
    try:
        stream = sys.stdin if arguments.file == "-" else open(arguments.file, encoding="utf-8")
        with stream:
            problems, first_diverging, last, recomputed = verify(stream, head_position, head_hash)
    except (OSError, ValueError) as error:
        print("verify_chain: %s" % error, file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    if problems:
        print("first diverging position: %d" % first_diverging)
        print("the log is NOT the published one")
        return 1
    print("verified up to %d:%s" % (last, recomputed.hex()))
    print("the log matches the published head")
    return 0


if __name__ == "__main__":
    sys.exit(main())
