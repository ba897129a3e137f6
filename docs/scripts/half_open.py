"""VmRSS of a `ludus serve` process holding N half-sent requests (slowloris) from 127.0.0.2.

Usage: python3 docs/scripts/half_open.py target/release/ludus 2000 [serve flags...]
Prints the memory idle, holding them, and 14 s later with how many the server closed.
With HEAD_BYTES=K in the environment each request also sends a header of K bytes (still
without the blank line that ends the head).
"""
import os, socket, sys, time

from served import Served
exe, n = sys.argv[1], int(sys.argv[2])
extra = sys.argv[3:]
filler = b"X-Filler: " + b"x" * int(os.environ.get("HEAD_BYTES", "0")) + b"\r\n"
server = Served(exe, extra)
host, port, rss = server.host, server.port, server.rss
time.sleep(1)
before = rss()
socks = []
for _ in range(n):
    s = socket.socket(); s.bind(("127.0.0.2", 0)); s.connect((host, int(port)))
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    if len(filler) > 12:
        try:
            s.sendall(filler)
        except OSError:
            pass  # the server answered 431 and closed
    socks.append(s)
time.sleep(2)
held = rss()
print(f"{n} half-open: VmRSS {before} KiB idle, {held} KiB holding them ({(held-before)*1024//n} bytes each)")
time.sleep(12)
closed = 0
for s in socks:
    s.settimeout(0.01)
    try:
        if s.recv(1) == b"": closed += 1
    except socket.timeout: pass
    except OSError: closed += 1
print(f"after 14 s: {closed} of {n} closed by the server, VmRSS {rss()} KiB")
server.stop()
