#!/usr/bin/env python3
"""Redis PUBLISH fan-out latency, the reference for compare.sh's load 5.

Standard library only; speaks RESP over Redis's Unix socket. One publisher process sends
PUBLISH at a fixed rate (default 1,000/s), each message carrying time.monotonic_ns() at
send; one subscriber process holds K SUBSCRIBE connections (like `storeclient bench
--watchers K`, whose watchers all live in one process) and stamps each message as it is
read. CLOCK_MONOTONIC is system-wide on Linux, so receive - send is comparable across the
two processes. Prints one JSON object: messages, deliveries, p50/p99/max in microseconds.

    python3 bench/redis_fanout.py --socket /tmp/redis.sock --subscribers 100 --duration 5
"""

import argparse
import json
import os
import selectors
import socket
import sys
import time

CHANNEL = b"bench-fanout"


def resp(*parts):
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        out.append(b"$%d\r\n%s\r\n" % (len(part), part))
    return b"".join(out)


def connect(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    return sock


def subscriber(path, count, ready_w, result_w):
    socks = []
    for _ in range(count):
        sock = connect(path)
        sock.sendall(resp(b"SUBSCRIBE", CHANNEL))
        socks.append(sock)
    # Wait for every subscription confirmation.
    for sock in socks:
        data = b""
        while data.count(b"\r\n") < 6:
            data += sock.recv(4096)
        sock.setblocking(False)
    os.write(ready_w, b"r")
    sel = selectors.DefaultSelector()
    buffers = {}
    for sock in socks:
        sel.register(sock, selectors.EVENT_READ)
        buffers[sock] = b""
    latencies = []
    stopped = 0
    marker = b"\r\n$" + b"%d" % len(CHANNEL) + b"\r\n" + CHANNEL + b"\r\n$"
    while stopped < count:
        for key, _ in sel.select():
            sock = key.fileobj
            chunk = sock.recv(262144)
            now = time.monotonic_ns()
            if not chunk:
                stopped += 1
                sel.unregister(sock)
                continue
            data = buffers[sock] + chunk
            # Each message: *3\r\n$7\r\nmessage\r\n$N\r\nCHANNEL\r\n$L\r\n<payload>\r\n
            pos = 0
            while True:
                i = data.find(marker, pos)
                if i < 0:
                    break
                j = data.find(b"\r\n", i + len(marker))
                if j < 0:
                    break
                length = int(data[i + len(marker):j])
                end = j + 2 + length + 2
                if end > len(data):
                    break
                payload = data[j + 2:j + 2 + length]
                if payload == b"stop":
                    stopped += 1
                    sel.unregister(sock)
                else:
                    latencies.append(now - int(payload))
                pos = end
            buffers[sock] = data[pos:]
    latencies.sort()
    os.write(result_w, json.dumps(latencies).encode())
    os.close(result_w)
    os._exit(0)


def percentile(values, p):
    if not values:
        return None
    index = min(len(values) - 1, max(0, int(round(p / 100.0 * len(values) + 0.5)) - 1))
    return values[index]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", required=True)
    parser.add_argument("--subscribers", type=int, default=1)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--subscriber-bin", help="a compiled bench/redis_fanout_sub.swift to "
                        "read the K connections instead of this script's Python reader")
    args = parser.parse_args()

    child = None
    if args.subscriber_bin:
        import subprocess
        child = subprocess.Popen([args.subscriber_bin, args.socket, str(args.subscribers),
                                  CHANNEL.decode()], stdout=subprocess.PIPE)
        if child.stdout.readline().strip() != b"ready":
            sys.exit("redis_fanout: the subscriber program failed")
    else:
        ready_r, ready_w = os.pipe()
        result_r, result_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(ready_r)
            os.close(result_r)
            subscriber(args.socket, args.subscribers, ready_w, result_w)
        os.close(ready_w)
        os.close(result_w)
        if os.read(ready_r, 1) != b"r":
            sys.exit("redis_fanout: the subscriber process failed")

    pub = connect(args.socket)
    period = 1e9 / args.rate
    start = time.monotonic_ns()
    end = start + int(args.duration * 1e9)
    sent = 0
    while True:
        target = start + int(sent * period)
        now = time.monotonic_ns()
        if target > now:
            delay = (target - now) / 1e9
            if delay > 0.0002:
                time.sleep(delay - 0.0001)
            while time.monotonic_ns() < target:
                pass
        now = time.monotonic_ns()
        if now >= end:
            break
        pub.sendall(resp(b"PUBLISH", CHANNEL, b"%d" % time.monotonic_ns()))
        reply = pub.recv(64)  # ":K\r\n" (one reply per request, one in flight)
        if not reply.startswith(b":"):
            sys.exit("redis_fanout: unexpected reply %r" % reply)
        sent += 1
    seconds = (time.monotonic_ns() - start) / 1e9
    pub.sendall(resp(b"PUBLISH", CHANNEL, b"stop"))
    pub.recv(64)
    us = lambda v: None if v is None else round(v / 1000.0, 1)
    if child is not None:
        result = json.loads(child.stdout.read())
        child.wait()
        result.update({"subscribers": args.subscribers, "messages": sent,
                       "rate": round(sent / seconds, 1), "reader": "swift"})
        print(json.dumps(result))
        return
    chunks = []
    while True:
        chunk = os.read(result_r, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    os.waitpid(pid, 0)
    latencies = json.loads(b"".join(chunks))
    print(json.dumps({
        "subscribers": args.subscribers,
        "messages": sent,
        "rate": round(sent / seconds, 1),
        "deliveries": len(latencies),
        "p50_us": us(percentile(latencies, 50)),
        "p99_us": us(percentile(latencies, 99)),
        "max_us": us(latencies[-1] if latencies else None),
        "reader": "python",
    }))


if __name__ == "__main__":
    main()
