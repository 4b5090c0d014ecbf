#!/usr/bin/env python3
"""Helpers for compare.sh's load 8 (recovery), standard library only, speaking the store
protocol (docs/PROTOCOL.md) over the host's Unix socket.

    durability.py toggles --socket S --count N
        # reads `todos`, then sends {"toggleCompleted":{}} to N distinct to-dos
        # (todos/<id>, cycling through the list if it is shorter), pipelined in batches of
        # 1,000 each followed by a ping; prints {"count":…, "seconds":…}
    durability.py count --socket S
        # prints {"count": <counter count>, "todos": <number of to-dos>, "rev": <revision>}
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from todos_scale import Connection  # noqa: E402


def toggles(args):
    conn = Connection(args.socket)
    conn.send({"type": "get", "id": 1, "scope": "todos"})
    ids = [todo["id"] for todo in conn.receive()["state"]["todos"]]
    if not ids:
        sys.exit("durability: no to-dos to toggle")
    start = time.monotonic()
    sent, batch_id = 0, 0
    while sent < args.count:
        size = min(1000, args.count - sent)
        frames = b"".join(
            Connection.frame({"type": "send", "scope": "todos/" + ids[(sent + i) % len(ids)],
                              "action": {"toggleCompleted": {}}})
            for i in range(size))
        batch_id += 1
        conn.sock.sendall(frames + Connection.frame({"type": "ping", "id": batch_id}))
        while True:
            message = conn.receive()
            if message.get("type") == "pong" and message.get("id") == batch_id:
                break
            if message.get("type") == "error":
                sys.exit("durability: toggle refused: %r" % message)
        sent += size
    print(json.dumps({"count": sent, "seconds": round(time.monotonic() - start, 2)}))


def count(args):
    conn = Connection(args.socket)
    conn.send({"type": "get", "id": 1, "scope": "counter"})
    counter = conn.receive()
    conn.send({"type": "get", "id": 2, "scope": "todos"})
    todos = conn.receive()
    print(json.dumps({"count": counter["state"]["count"], "todos": len(todos["state"]["todos"]),
                      "rev": todos["rev"]}))


def main():
    parser = argparse.ArgumentParser(description="compare.sh load 8 helpers")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("toggles")
    p.add_argument("--socket", required=True)
    p.add_argument("--count", type=int, required=True)
    p = sub.add_parser("count")
    p.add_argument("--socket", required=True)
    args = parser.parse_args()
    {"toggles": toggles, "count": count}[args.command](args)


if __name__ == "__main__":
    main()
