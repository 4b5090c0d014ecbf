#!/usr/bin/env python3
"""The soak load (bench/soak.sh runs it): every kind of client at once against one storehost,
with the host's RSS and open descriptors sampled throughout. Standard library only; speaks the
store protocol (docs/PROTOCOL.md) over the host's Unix socket.

    soak.py --socket S --pid PID --seconds T --samples FILE [--frame BYTES]

Clients, each a thread, for T seconds:
  senders      4 connections, 8 `counter` increments in flight each, every one acknowledged
  todo writer  1 connection adding to-dos and deleting the oldest past 100
  large writer 1 connection setting a to-do's description to a distinct 256 KiB string, then
               back to empty, in a loop: what the host keeps of large values (its history,
               change logs for the watchers, send cache) must stay within its byte bounds
  watchers     6 connections subscribed to `counter` and `todos`, mirrors kept by patches
  churners     2 threads connecting, subscribing, reading the snapshot and leaving, in a loop
  stalled      2 connections subscribed to `todos` and `counter` that never read, replaced every 15 s
  oversized    4 threads announcing a frame of --frame bytes, sending 7/8 of it and stopping,
               then waiting to be closed (budget: `overloaded`; timeout: `bad_frame`), in a loop

Every 2 s it appends `seconds rss_kib fds acked connections` to FILE. At the end it checks that
the counter moved by exactly the actions acknowledged, that every watcher's mirror equals the
host's state, and prints one JSON object with the figures.
"""

import argparse
import json
import os
import socket
import struct
import sys
import threading
import time

STOP = threading.Event()
QUIET = threading.Event()  # set once every writer has finished: watchers then drain and stop
LOCK = threading.Lock()
FIGURES = {"acked": 0, "patches": 0, "churn_cycles": 0, "stalled_cycles": 0,
           "oversized_overloaded": 0, "oversized_timed_out": 0, "oversized_other": 0,
           "todo_actions": 0, "large_actions": 0, "errors": []}


def count(name, by=1):
    with LOCK:
        FIGURES[name] += by


def fail(message):
    with LOCK:
        FIGURES["errors"].append(message)


def frame(message):
    payload = json.dumps(message, separators=(",", ":")).encode()
    return struct.pack(">I", len(payload)) + payload


class Connection:
    def __init__(self, path, timeout=30):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = bytearray()
        self.send({"type": "hello", "protocol": 1, "client": "soak.py"})
        welcome = self.receive()
        if welcome.get("type") != "welcome":
            raise ConnectionError("no welcome: %r" % welcome)

    def send(self, message):
        self.sock.sendall(frame(message))

    def receive(self):
        while True:
            if len(self.buffer) >= 4:
                (length,) = struct.unpack_from(">I", self.buffer)
                if len(self.buffer) >= 4 + length:
                    payload = bytes(self.buffer[4:4 + length])
                    del self.buffer[:4 + length]
                    return json.loads(payload)
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("closed by the host")
            self.buffer += chunk

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def unescape(token):
    return token.replace("~1", "/").replace("~0", "~")


def apply_patch(document, ops):
    """RFC 6902 add/remove/replace, as the host sends them."""
    for op in ops:
        path = op["path"]
        if path == "":
            document = op["value"]
            continue
        parts = [unescape(p) for p in path.split("/")[1:]]
        parent = document
        for part in parts[:-1]:
            parent = parent[int(part)] if isinstance(parent, list) else parent[part]
        last = parts[-1]
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last)
            if op["op"] == "add":
                parent.insert(index, op["value"])
            elif op["op"] == "remove":
                del parent[index]
            else:
                parent[index] = op["value"]
        else:
            if op["op"] == "remove":
                del parent[last]
            else:
                parent[last] = op["value"]
    return document


def sender(path):
    conn = Connection(path)
    next_id, in_flight = 1, 0
    action = {"incrementButtonTapped": {}}
    while not STOP.is_set() or in_flight:
        while not STOP.is_set() and in_flight < 8:
            conn.send({"type": "send", "id": next_id, "scope": "counter", "action": action})
            next_id += 1
            in_flight += 1
        message = conn.receive()
        if message.get("type") == "ack":
            in_flight -= 1
            count("acked")
        elif message.get("type") == "error":
            fail("sender: %r" % message)
            in_flight -= 1
    conn.close()


def todo_writer(path):
    conn = Connection(path)
    size = None
    request = 1
    while not STOP.is_set():
        if size is None or size < 100:
            action = {"addTodoButtonTapped": {}}
        else:
            action = {"delete": {"_0": {"indexes": [{"location": 99, "length": 1}]}}}
        conn.send({"type": "send", "id": request, "scope": "todos", "action": action})
        request += 1
        while conn.receive().get("type") != "ack":
            pass
        count("todo_actions")
        conn.send({"type": "get", "id": request, "scope": "todos"})
        request += 1
        state = conn.receive()
        size = len(state["state"]["todos"])
        time.sleep(0.01)
    conn.close()


def large_writer(path, size=256 << 10):
    conn = Connection(path)
    request = 1
    filler = "y" * (size - 16)
    while not STOP.is_set():
        conn.send({"type": "get", "id": request, "scope": "todos"})
        todos = conn.receive()["state"]["todos"]
        request += 1
        if not todos:
            time.sleep(0.05)
            continue
        scope = "todos/" + todos[0]["id"]
        for text in ("%d-%s" % (request, filler), ""):
            conn.send({"type": "send", "id": request, "scope": scope,
                       "action": {"setDescription": {"_0": text}}})
            request += 1
            reply = conn.receive()
            # The to-do writer may have deleted it meanwhile: then the scope is gone.
            if reply.get("type") == "error" and reply.get("code") != "scope_unavailable":
                fail("large writer: %r" % reply)
            elif reply.get("type") == "ack":
                count("large_actions")
        time.sleep(0.02)
    conn.close()


def watcher(path, results):
    conn = Connection(path)
    mirrors = {}
    conn.send({"type": "subscribe", "id": 1, "scope": "counter"})
    conn.send({"type": "subscribe", "id": 2, "scope": "todos"})
    conn.sock.settimeout(1)
    while True:
        try:
            message = conn.receive()
        except socket.timeout:
            if QUIET.is_set():
                break
            continue
        if message.get("type") == "subscribed":
            mirrors[message["sub"]] = {"scope": message["scope"], "rev": message["rev"],
                                       "state": message["state"]}
            continue
        if message.get("type") != "patch":
            fail("watcher: unexpected %r" % message)
            continue
        mirror = mirrors[message["sub"]]
        if message["base"] != mirror["rev"]:
            fail("watcher: patch base %d, mirror at %d" % (message["base"], mirror["rev"]))
        mirror["state"] = apply_patch(mirror["state"], message["ops"])
        mirror["rev"] = message["rev"]
        count("patches")
    conn.close()
    results.append(mirrors)


def churner(path):
    while not STOP.is_set():
        try:
            conn = Connection(path)
            conn.send({"type": "subscribe", "id": 1, "scope": "counter"})
            conn.receive()
            conn.close()
            count("churn_cycles")
        except OSError as error:
            fail("churner: %s" % error)
            time.sleep(0.5)


def stalled(path):
    while not STOP.is_set():
        conn = Connection(path)
        conn.send({"type": "subscribe", "id": 1, "scope": "todos"})
        conn.send({"type": "subscribe", "id": 2, "scope": "counter"})
        STOP.wait(15)
        conn.close()
        count("stalled_cycles")


def oversized(path, length):
    payload = b"x" * (1 << 20)
    while not STOP.is_set():
        conn = Connection(path)
        try:
            conn.sock.sendall(struct.pack(">I", length))
            left = length * 7 // 8
            while left > 0:
                conn.sock.sendall(payload[:min(left, len(payload))])
                left -= len(payload)
        except OSError:
            pass  # closed while sending: over the budget
        conn.sock.settimeout(60)
        try:
            message = conn.receive()
            code = message.get("code")
        except (OSError, ConnectionError):
            code = "closed"
        if code == "overloaded":
            count("oversized_overloaded")
        elif code == "bad_frame":
            count("oversized_timed_out")
        else:
            count("oversized_other")
        conn.close()
        STOP.wait(0.2)


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def main():
    parser = argparse.ArgumentParser(description="soak load for storehost")
    parser.add_argument("--socket", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--samples", required=True)
    parser.add_argument("--frame", type=int, default=4 << 20)
    args = parser.parse_args()

    probe = Connection(args.socket)
    probe.send({"type": "get", "id": 1, "scope": "counter"})
    start_count = probe.receive()["state"]["count"]

    def client(target, *arguments):
        def run():
            try:
                target(*arguments)
            except Exception as error:  # a client that dies is a finding, not a crash
                fail("%s: %r" % (target.__name__, error))
        return threading.Thread(target=run)

    watched = []
    watchers = [client(watcher, args.socket, watched) for _ in range(6)]
    others = [client(sender, args.socket) for _ in range(4)]
    others += [client(todo_writer, args.socket)]
    others += [client(large_writer, args.socket)]
    others += [client(churner, args.socket) for _ in range(2)]
    others += [client(stalled, args.socket) for _ in range(2)]
    others += [client(oversized, args.socket, args.frame) for _ in range(4)]

    started = time.monotonic()
    with open(args.samples, "w") as samples:
        samples.write("seconds\trss_kib\tfds\tacked\n")

        def sample():
            samples.write("%.1f\t%d\t%d\t%d\n" % (time.monotonic() - started, rss_kib(args.pid),
                                                  fds(args.pid), FIGURES["acked"]))
            samples.flush()
        sample()
        for thread in watchers + others:
            thread.start()
        while time.monotonic() - started < args.seconds:
            time.sleep(2)
            sample()
        STOP.set()
        for thread in others:
            thread.join(120)
        QUIET.set()
        for thread in watchers:
            thread.join(120)
        # After the load: the host closes what is left and gives memory back within seconds.
        quiet = time.monotonic()
        while time.monotonic() - quiet < 8:
            time.sleep(2)
            sample()

    probe.send({"type": "get", "id": 2, "scope": "counter"})
    counter = probe.receive()
    probe.send({"type": "get", "id": 3, "scope": "todos"})
    todos = probe.receive()
    moved = counter["state"]["count"] - start_count
    if moved != FIGURES["acked"]:
        fail("lost actions: the counter moved by %d, %d were acknowledged" % (moved, FIGURES["acked"]))
    for mirrors in watched:
        for mirror in mirrors.values():
            truth = counter if mirror["scope"] == "counter" else todos
            if mirror["state"] != truth["state"]:
                fail("a watcher's mirror of %s differs from the host's state" % mirror["scope"])
    FIGURES["counter_moved"] = moved
    FIGURES["watchers_checked"] = len(watched)
    print(json.dumps(FIGURES))
    sys.exit(1 if FIGURES["errors"] else 0)


if __name__ == "__main__":
    main()
