"""VmRSS of a `ludus serve` process while N clients each send PART bytes of a record body
declared as 1,000,000 bytes (`POST /api/games`), and never the rest.

Usage: python3 docs/scripts/slow_records.py target/release/ludus 300 900000
Prints the memory idle and holding them, and how many requests were refused at once (503).
"""
import socket, sys, time

from served import Served
exe, n, part = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
server = Served(exe, ["--connections-per-client", "0"])
host, port, rss = server.host, server.port, server.rss
time.sleep(1)
before = rss()
head = (f"POST /api/games HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000000\r\n\r\n{\"record\":\"").encode()
socks, refused = [], 0
for _ in range(n):
    s = socket.socket(); s.bind(("127.0.0.2", 0)); s.connect((host, int(port)))
    s.sendall(head)
    s.settimeout(0.2)
    try:
        s.sendall(b"x" * part)
        if s.recv(64).startswith(b"HTTP/1.1 503"):
            refused += 1
    except (socket.timeout, OSError):
        pass
    socks.append(s)
time.sleep(2)
held = rss()
print(f"{n} slow records: VmRSS {before} KiB idle, {held} KiB holding them "
      f"({(held - before) * 1024 // n} bytes each); {refused} refused at once")
server.stop()
