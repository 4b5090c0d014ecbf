#!/usr/bin/env python3
"""A minimal client of the store protocol, written from docs/PROTOCOL.md alone.

Standard library only. It connects to a running host, says hello, subscribes to the
`counter` scope, sends increments and checks what the protocol promises: every patch
applies to the revision the client holds, the patch for an action arrives before its ack
(read your writes), and the mirrored count moved by exactly the number of acked actions.

    python3 clients/python/store_client.py --socket /tmp/storehost-1000/storehost.sock --sends 100

Before it sends anything it checks who serves the socket (SO_PEERCRED): its own user, root,
or a user named with --host-user; another user's socket is refused, naming that user.

Exit status 0 when every check passed, 1 otherwise.
"""

import argparse
import json
import os
import pwd
import socket
import struct
import sys


class ProtocolError(Exception):
    pass


class UntrustedHost(Exception):
    pass


def name_or_uid(uid):
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def check_host(sock, path, host_users):
    """Refuses a socket served by a user other than this one, root, or those named."""
    if not hasattr(socket, "SO_PEERCRED"):
        return  # not Linux: the credentials are not available through the socket module
    credentials = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    if uid in (os.getuid(), 0) or uid in host_users:
        return
    raise UntrustedHost(
        "refusing the host at %s: it runs as %s (uid %d), not as you (uid %d) or root, so "
        "someone else may have put this socket where your host should be; if it is the host "
        "you mean, pass --host-user %s" % (path, name_or_uid(uid), uid, os.getuid(), name_or_uid(uid)))


def resolve_user(name):
    if name.isdigit():
        return int(name)
    try:
        return pwd.getpwnam(name).pw_uid
    except KeyError:
        raise SystemExit("store_client.py: --host-user: this machine has no user named %r" % name)


class Connection:
    """One framed JSON connection: 4-byte big-endian length, then UTF-8 JSON."""

    def __init__(self, path, host_users=()):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(path)
        try:
            check_host(self.sock, path, host_users)
        except UntrustedHost:
            self.sock.close()
            raise
        self.buffer = b""

    def send(self, message):
        payload = json.dumps(message, separators=(",", ":")).encode("utf-8")
        self.sock.sendall(struct.pack(">I", len(payload)) + payload)

    def _read_exactly(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ProtocolError("the host closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        (length,) = struct.unpack(">I", self._read_exactly(4))
        message = json.loads(self._read_exactly(length).decode("utf-8"))
        if not isinstance(message, dict) or "type" not in message:
            raise ProtocolError("a frame without a 'type': %r" % (message,))
        return message


def unescape(token):
    return token.replace("~1", "/").replace("~0", "~")


def apply_patch(document, ops):
    """RFC 6902 add/remove/replace, the only operations a host sends."""
    for op in ops:
        path = op["path"]
        if path == "":
            if op["op"] == "remove":
                raise ProtocolError("cannot remove the whole document")
            document = op["value"]
            continue
        tokens = [unescape(t) for t in path.split("/")[1:]]
        parent = document
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        last = tokens[-1]
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


def default_socket():
    if os.environ.get("STOREHOST_SOCKET"):
        return os.environ["STOREHOST_SOCKET"]
    if os.environ.get("XDG_RUNTIME_DIR"):
        return os.path.join(os.environ["XDG_RUNTIME_DIR"].rstrip("/"), "storehost", "storehost.sock")
    return "/tmp/storehost-%d/storehost.sock" % os.getuid()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=default_socket())
    parser.add_argument("--sends", type=int, default=100)
    parser.add_argument("--host-user", action="append", default=[],
                        help="also accept a host run by this user (repeatable)")
    args = parser.parse_args()

    conn = Connection(args.socket, [resolve_user(name) for name in args.host_user])
    conn.send({"type": "hello", "protocol": 1, "client": "store_client.py/1.0"})
    welcome = conn.receive()
    if welcome.get("type") != "welcome" or welcome.get("protocol") != 1:
        raise ProtocolError("expected welcome, got %r" % (welcome,))
    print("welcome: host=%s app=%s session=%s" % (welcome["host"], welcome["app"], welcome["session"]))

    conn.send({"type": "subscribe", "id": 1, "scope": "counter"})
    subscribed = conn.receive()
    if subscribed.get("type") != "subscribed" or subscribed.get("id") != 1:
        raise ProtocolError("expected subscribed, got %r" % (subscribed,))
    sub, rev, state = subscribed["sub"], subscribed["rev"], subscribed["state"]
    start = state["count"]
    print("subscribed: sub=%d rev=%d count=%d" % (sub, rev, start))

    acked = 0
    patches = 0
    for request in range(2, 2 + args.sends):
        conn.send({"type": "send", "id": request, "scope": "counter",
                   "action": {"incrementButtonTapped": {}}})
        while True:
            message = conn.receive()
            kind = message["type"]
            if kind == "patch" and message["sub"] == sub:
                if message["base"] != rev:
                    raise ProtocolError("patch base %d but the mirror is at %d" % (message["base"], rev))
                if not message["ops"]:
                    raise ProtocolError("a patch with no ops")
                state = apply_patch(state, message["ops"])
                rev = message["rev"]
                patches += 1
            elif kind == "ack" and message["id"] == request:
                if rev < message["rev"]:
                    # Another client may have moved the count too, but our own write must be
                    # visible in the mirror before its ack.
                    raise ProtocolError("ack rev %d arrived before the patch (mirror at %d)"
                                        % (message["rev"], rev))
                acked += 1
                break
            elif kind == "error":
                raise ProtocolError("host error: %s: %s" % (message["code"], message["message"]))
            else:
                raise ProtocolError("unexpected message %r" % (message,))

    conn.send({"type": "send", "id": 999999, "scope": "nope", "action": {}})
    error = conn.receive()
    if error.get("type") != "error" or error.get("code") != "unknown_scope" or error.get("id") != 999999:
        raise ProtocolError("expected unknown_scope error, got %r" % (error,))

    conn.send({"type": "ping", "id": 7})
    pong = conn.receive()
    if pong != {"type": "pong", "id": 7}:
        raise ProtocolError("expected pong, got %r" % (pong,))

    moved = state["count"] - start
    print("sent %d, acked %d, patches %d, count %d -> %d" % (args.sends, acked, patches, start, state["count"]))
    if moved < acked:
        raise ProtocolError("the count moved by %d but %d increments were acked" % (moved, acked))
    print("ok")


if __name__ == "__main__":
    try:
        main()
    except (ProtocolError, UntrustedHost, OSError, ValueError, KeyError) as error:
        print("store_client.py: %s" % error, file=sys.stderr)
        sys.exit(1)
