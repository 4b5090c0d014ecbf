#!/usr/bin/env python3
"""What clients can make a storehost hold, measured as the host's resident memory (issue 13).
Standard library only; speaks the store protocol (docs/PROTOCOL.md) over the host's socket.

    memory.py hostile     --host BIN [--connections 40] [--frame 16777216] [--send 15728640]
        Starts BIN on a temporary socket. Each of the connections says hello, announces a frame
        of --frame bytes and sends --send bytes of it, then stops. Prints the host's RSS before,
        at the peak while they hold their partial frames, and after they have closed, and how
        many were refused with `overloaded`; checks a fresh client is still served meanwhile.

    memory.py subscribers --host BIN [--todos 10000] [--subscribers 1024]
        Seeds the to-do list through actions, then opens the connections, each subscribed to
        `todos` (reading its snapshot and later patches). Prints the host's RSS seeded, with one
        subscriber, with all of them, after a change pushed to all, and after they have closed.

Extra host arguments follow `--`, e.g. `memory.py hostile --host BIN -- --max-buffered 1000000`.
Every figure is printed as one JSON object on the last line.
"""

import argparse
import json
import os
import selectors
import socket
import struct
import subprocess
import sys
import tempfile
import time


def frame(message):
    payload = json.dumps(message, separators=(",", ":")).encode()
    return struct.pack(">I", len(payload)) + payload


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def mib(kib):
    return round(kib / 1024, 1)


class Host:
    """The storehost under test, on a socket in a temporary directory."""

    def __init__(self, binary, extra):
        self.directory = tempfile.mkdtemp(prefix="mem-", dir="/tmp")
        self.path = os.path.join(self.directory, "host.sock")
        # In memory (a binary that keeps its state on disk by default would write it under
        # ~/.local/state); older binaries have no --ephemeral and keep it in memory anyway.
        usage = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
        storage = ["--ephemeral"] if "--ephemeral" in usage else []
        self.process = subprocess.Popen(
            [binary, "--socket", self.path, "--log-level", "warning"] + storage + extra,
            stderr=open(os.path.join(self.directory, "host.log"), "w"))
        deadline = time.monotonic() + 30
        while not os.path.exists(self.path):
            if self.process.poll() is not None or time.monotonic() > deadline:
                sys.exit("memory.py: the host did not start (see %s/host.log)" % self.directory)
            time.sleep(0.05)

    @property
    def rss(self):
        return rss_kib(self.process.pid)

    def settle(self, seconds=3.0):
        """The RSS once it stops falling (or after `seconds`): the host trims once a second."""
        deadline = time.monotonic() + seconds
        low = self.rss
        while time.monotonic() < deadline:
            time.sleep(0.25)
            low = min(low, self.rss)
        return low

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        for name in os.listdir(self.directory):
            os.unlink(os.path.join(self.directory, name))
        os.rmdir(self.directory)


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = bytearray()
        self.sock.sendall(frame({"type": "hello", "protocol": 1, "client": "memory.py"}))
        welcome = self.receive()
        if welcome.get("type") != "welcome":
            sys.exit("memory.py: no welcome: %r" % welcome)

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
                raise ConnectionError("the host closed the connection")
            self.buffer += chunk

    def receive(self):
        return json.loads(self.receive_raw())

    def request(self, message):
        self.sock.sendall(frame(message))
        return self.receive()


def still_served(host):
    client = Client(host.path)
    pong = client.request({"type": "ping", "id": 7})
    client.sock.close()
    return pong.get("type") == "pong"


def hostile(args, host):
    before = host.settle(2)
    clients = [Client(host.path) for _ in range(args.connections)]
    chunk = b"x" * (1 << 20)
    refused = 0
    peak = host.rss
    for client in clients:
        try:
            client.sock.sendall(struct.pack(">I", args.frame))
            left = args.send
            while left > 0:
                client.sock.sendall(chunk[:min(left, len(chunk))])
                left -= len(chunk)
        except OSError:
            pass  # closed by the host (over its budget): counted below
        peak = max(peak, host.rss)
    time.sleep(1)
    peak = max(peak, host.rss)
    served = still_served(host)
    for client in clients:
        client.sock.settimeout(0.5)
        try:
            data = client.sock.recv(1 << 16)
            if b'"overloaded"' in data:
                refused += 1
        except OSError:
            pass
    for client in clients:
        client.sock.close()
    after = host.settle(5)
    return {"before_mib": mib(before), "peak_mib": mib(peak), "after_mib": mib(after),
            "connections": args.connections, "frame": args.frame, "sent_each": args.send,
            "closed_overloaded": refused, "others_served": served}


def seed(host, count):
    client = Client(host.path)
    add = frame({"type": "send", "scope": "todos", "action": {"addTodoButtonTapped": {}}})
    remaining, batch = count, 0
    while remaining > 0:
        size = min(1000, remaining)
        batch += 1
        client.sock.sendall(add * size + frame({"type": "ping", "id": batch}))
        while True:
            message = client.receive()
            if message.get("type") == "pong" and message.get("id") == batch:
                break
            if message.get("type") == "error":
                sys.exit("memory.py: seeding refused: %r" % message)
        remaining -= size
    return client


def subscribers(args, host):
    writer = seed(host, args.todos)
    seeded = host.settle(2)
    snapshot_bytes = 0
    clients = []

    def subscribe():
        client = Client(host.path)
        client.sock.sendall(frame({"type": "subscribe", "id": 1, "scope": "todos"}))
        payload = client.receive_raw()
        if not payload.startswith(b'{"type":"subscribed"'):
            sys.exit("memory.py: subscribe: %r" % payload[:200])
        clients.append(client)
        return len(payload)

    snapshot_bytes = subscribe()
    one = host.settle(2)
    peak = host.rss
    for _ in range(args.subscribers - 1):
        subscribe()
        peak = max(peak, host.rss)
    every = host.settle(2)
    # One change pushed to every subscriber: they now share the new version.
    writer.sock.sendall(frame({"type": "send", "id": 1, "scope": "todos",
                               "action": {"addTodoButtonTapped": {}}}))
    while writer.receive().get("type") != "ack":
        pass
    for client in clients:
        while not client.receive_raw().startswith(b'{"type":"patch"'):
            pass
    pushed = host.settle(2)
    for client in clients:
        client.sock.close()
    closed = host.settle(5)
    return {"todos": args.todos, "snapshot_bytes": snapshot_bytes,
            "subscribers": args.subscribers, "seeded_mib": mib(seeded),
            "one_subscriber_mib": mib(one), "all_subscribers_mib": mib(every),
            "peak_mib": mib(peak), "after_push_mib": mib(pushed), "closed_mib": mib(closed),
            "per_subscriber_kib": round((every - one) / max(1, args.subscribers - 1), 1)}


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("hostile")
    p.add_argument("--host", required=True)
    p.add_argument("--connections", type=int, default=40)
    p.add_argument("--frame", type=int, default=16 << 20)
    p.add_argument("--send", type=int, default=15 << 20)
    p = sub.add_parser("subscribers")
    p.add_argument("--host", required=True)
    p.add_argument("--todos", type=int, default=10000)
    p.add_argument("--subscribers", type=int, default=1024)
    args = parser.parse_args(argv)
    host = Host(args.host, extra)
    try:
        result = {"hostile": hostile, "subscribers": subscribers}[args.command](args, host)
    finally:
        host.stop()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
