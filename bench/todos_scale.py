#!/usr/bin/env python3
"""Helpers for compare.sh's load 6 (scale), standard library only, speaking the store
protocol (docs/PROTOCOL.md) over the host's Unix socket.

    todos_scale.py seed  --socket S --count N      # adds N to-dos through actions, prints ids
    todos_scale.py watch --socket S --seconds T --scope todos --scope todos/ID
        # subscribes to each scope, counts patch frames and bytes for T seconds, prints JSON

`seed` pipelines {"addTodoButtonTapped":{}} sends without ids in batches of 1,000, each
followed by a ping whose pong confirms the batch, then reads `todos` and prints
{"count":…, "seconds":…, "ids":[…up to 64 ids…]}.
"""

import argparse
import json
import random
import socket
import struct
import sys
import time


class Connection:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = bytearray()
        self.send({"type": "hello", "protocol": 1, "client": "todos_scale.py"})
        welcome = self.receive()
        if welcome.get("type") != "welcome":
            sys.exit("todos_scale: no welcome: %r" % welcome)

    @staticmethod
    def frame(message):
        payload = json.dumps(message, separators=(",", ":")).encode()
        return struct.pack(">I", len(payload)) + payload

    def send(self, message):
        self.sock.sendall(self.frame(message))

    def receive_raw(self):
        while True:
            if len(self.buffer) >= 4:
                (length,) = struct.unpack_from(">I", self.buffer)
                if len(self.buffer) >= 4 + length:
                    payload = bytes(self.buffer[4:4 + length])
                    del self.buffer[:4 + length]
                    return payload
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                sys.exit("todos_scale: the host closed the connection")
            self.buffer += chunk

    def receive(self):
        return json.loads(self.receive_raw())


def seed(args):
    conn = Connection(args.socket)
    add = Connection.frame({"type": "send", "scope": "todos", "action": {"addTodoButtonTapped": {}}})
    start = time.monotonic()
    remaining, batch_id = args.count, 0
    while remaining > 0:
        size = min(1000, remaining)
        batch_id += 1
        conn.sock.sendall(add * size + Connection.frame({"type": "ping", "id": batch_id}))
        while True:
            message = conn.receive()
            if message.get("type") == "pong" and message.get("id") == batch_id:
                break
            if message.get("type") == "error":
                sys.exit("todos_scale: seeding refused: %r" % message)
        remaining -= size
    seconds = time.monotonic() - start
    conn.send({"type": "get", "id": 1, "scope": "todos"})
    state = conn.receive()["state"]
    ids = [todo["id"] for todo in state["todos"]]
    random.seed(7)
    print(json.dumps({"count": len(ids), "seconds": round(seconds, 2),
                      "ids": random.sample(ids, min(64, len(ids)))}))


def watch(args):
    conns = []
    for index, scope in enumerate(args.scope):
        conn = Connection(args.socket)
        conn.send({"type": "subscribe", "id": 1, "scope": scope})
        reply = conn.receive()
        if reply.get("type") != "subscribed":
            sys.exit("todos_scale: subscribe %s: %r" % (scope, reply))
        conn.sock.setblocking(False)
        conns.append(conn)
    print("ready", flush=True)
    import selectors
    sel = selectors.DefaultSelector()
    stats = {}
    for conn, scope in zip(conns, args.scope):
        sel.register(conn.sock, selectors.EVENT_READ, (conn, scope))
        stats[scope] = {"bytes": 0, "patches": 0}
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        for key, _ in sel.select(timeout=0.05):
            conn, scope = key.data
            try:
                chunk = conn.sock.recv(1 << 20)
            except BlockingIOError:
                continue
            conn.buffer += chunk
            while len(conn.buffer) >= 4:
                (length,) = struct.unpack_from(">I", conn.buffer)
                if len(conn.buffer) < 4 + length:
                    break
                if b'"patch"' in conn.buffer[4:4 + min(length, 40)] or b'"type":"patch"' in conn.buffer[4:4 + length]:
                    stats[scope]["patches"] += 1
                    stats[scope]["bytes"] += 4 + length
                del conn.buffer[:4 + length]
    print(json.dumps(stats), flush=True)


def main():
    parser = argparse.ArgumentParser(description="compare.sh load 6 helpers")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("seed")
    p.add_argument("--socket", required=True)
    p.add_argument("--count", type=int, required=True)
    p = sub.add_parser("watch")
    p.add_argument("--socket", required=True)
    p.add_argument("--seconds", type=float, required=True)
    p.add_argument("--scope", action="append", required=True)
    args = parser.parse_args()
    {"seed": seed, "watch": watch}[args.command](args)


if __name__ == "__main__":
    main()
