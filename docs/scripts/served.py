"""A `ludus serve` process on a fresh database, for the memory scripts beside this one
(half_open.py, ws_hold.py, slow_records.py)."""
import os, subprocess, tempfile


class Served:
    """`exe serve` on 127.0.0.1 with a free port and `extra` flags; `host`, `port`, `rss()`."""

    def __init__(self, exe, extra):
        db = os.path.join(tempfile.mkdtemp(), "g.sqlite3")
        self.process = subprocess.Popen([exe, "serve", "--addr", "127.0.0.1:0", "--db", db] + extra,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        url = self.process.stdout.readline().decode().strip()
        self.host, port = url[len("http://"):-1].rsplit(":", 1)
        self.port = int(port)

    def rss(self):
        """The server's resident memory, KiB."""
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])

    def stop(self):
        self.process.terminate()
        self.process.wait()
