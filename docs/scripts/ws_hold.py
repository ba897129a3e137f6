"""VmRSS of a `ludus serve` process holding N game WebSockets that each sent PART bytes of a
message announced as LENGTH bytes long (1,000,000 unless given), and never the rest.

Usage: python3 docs/scripts/ws_hold.py target/release/ludus 300 900000 [LENGTH]
"""
import base64, json, os, socket, struct, sys, time, urllib.request

from served import Served
exe, n, part = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
length = int(sys.argv[4]) if len(sys.argv) > 4 else 1_000_000
server = Served(exe, ["--connections-per-client", "0", "--websockets-per-client", "0"])
host, port, rss = server.host, server.port, server.rss
req = urllib.request.Request(f"http://{host}:{port}/api/games", data=b'{"game":"yoxii"}',
                             headers={"Content-Type": "application/json"})
gid = json.load(urllib.request.urlopen(req))["id"]
time.sleep(1)
before = rss()
socks = []
for i in range(n):
    s = socket.create_connection((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET /api/games/{gid}/ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
              f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    resp = b""
    while b"\r\n\r\n" not in resp:
        resp += s.recv(4096)
    assert b" 101 " in resp.split(b"\r\n")[0], resp[:200]
    # A text frame announcing `length` bytes, masked, of which `part` are sent.
    s.sendall(bytes([0x81, 0x80 | 127]) + struct.pack(">Q", length) + b"\0\0\0\0")
    try:
        s.sendall(b"x" * part)
    except OSError:
        pass
    socks.append(s)
time.sleep(2)
held = rss()
print(f"{n} sockets, {part} bytes of a {length}-byte message each: VmRSS {before} KiB before, "
      f"{held} KiB holding them ({(held - before) * 1024 // n} bytes each)")
server.stop()
