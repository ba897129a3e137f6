"""VmRSS of a `ludus serve` process while N clients each send PART bytes of a record body
declared as 1,000,000 bytes (`POST /api/games`), and never the rest.

Usage: python3 docs/scripts/slow_records.py target/release/ludus 300 900000
Prints the memory idle and holding them, and how many requests were refused at once (503).
"""
import os, socket, subprocess, sys, tempfile, time
exe, n, part = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
db = os.path.join(tempfile.mkdtemp(), "g.sqlite3")
p = subprocess.Popen([exe, "serve", "--addr", "127.0.0.1:0", "--db", db, "--connections-per-client", "0"],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
url = p.stdout.readline().decode().strip()
host, port = url[len("http://"):-1].rsplit(":", 1)
def rss():
    for line in open(f"/proc/{p.pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
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
p.terminate(); p.wait()
