"""nginx on 127.0.0.1 as a stand-in object store for the tests of both trees (tests/clients under
Debian's Python, python/tests and the benches under the package's venv): standard library only.
Each request's line, status, body bytes and Range header go to the server's own access log;
mark() and requests() read what came between two points."""

import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path


LOG_FORMAT = "'\"$request\" $status $body_bytes_sent \"$http_range\"'"
# nginx's connections (listening sockets and idle keep-alive ones included): readers that keep
# their idle connections (GDAL dataset copies, aiohttp's pool, rumi's) can hold dozens at once;
# at nginx's limit it closes idle ones, and a client that sends on one of them retries after its
# backoff (issue 48: at 64, rumi `auto` 8 at once over the link read ~100 chips/s instead of ~250)
WORKER_CONNECTIONS = 1024
SHORTAGE = "worker_connections are not enough"
LOG_LINE = re.compile(r'^"(?P<method>\S+) (?P<uri>\S+) [^"]*" (?P<status>\d+) (?P<bytes>\d+) "(?P<range>[^"]*)"$')


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    """nginx serving `root` on 127.0.0.1 with HTTP range support, logging each request's
    request line, status, body bytes and Range header to its own access log."""

    def __init__(self, workdir, root):
        self.workdir = Path(workdir)
        self.root = Path(root)
        self.log = self.workdir / "access.log"
        self.proc = None
        self.port = None

    def _config(self, port):
        tmp = self.workdir / "tmp"
        tmp.mkdir(exist_ok=True)
        user = "user root root;\n" if os.geteuid() == 0 else ""
        return f"""{user}worker_processes 1;
pid {self.workdir}/nginx.pid;
error_log {self.workdir}/error.log warn;
events {{ worker_connections {WORKER_CONNECTIONS}; }}
http {{
  log_format rumi {LOG_FORMAT};
  access_log {self.log} rumi;
  client_body_temp_path {tmp}/body;
  proxy_temp_path {tmp}/proxy;
  fastcgi_temp_path {tmp}/fastcgi;
  uwsgi_temp_path {tmp}/uwsgi;
  scgi_temp_path {tmp}/scgi;
  types {{ application/octet-stream rumi header tif; }}
  default_type application/octet-stream;
  server {{
    listen 127.0.0.1:{port};
    root {self.root};
    autoindex off;
  }}
}}
"""

    def start(self):
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        last = ""
        for _ in range(5):  # the port may be taken between free_port() and nginx's bind
            port = free_port()
            conf = self.workdir / "nginx.conf"
            conf.write_text(self._config(port))
            args = [nginx, "-p", str(self.workdir), "-c", str(conf), "-e", str(self.workdir / "error.log"),
                    "-g", "daemon off;"]
            self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            deadline = time.time() + 10
            while time.time() < deadline and self.proc.poll() is None:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        self.port = port
                        self.mark()
                        return self
                except OSError:
                    time.sleep(0.05)
            if self.proc.poll() is None:
                self.proc.kill()
            last = self.proc.communicate()[0].decode(errors="replace")
            last += (self.workdir / "error.log").read_text(errors="replace") if (
                self.workdir / "error.log").exists() else ""
        raise RuntimeError(f"nginx did not start: {last}")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def shortages(self):
        """How many times nginx ran out of connections (and closed idle keep-alive ones) so far."""
        err = self.workdir / "error.log"
        return err.read_text(errors="replace").count(SHORTAGE) if err.exists() else 0

    def url(self, name):
        return f"http://127.0.0.1:{self.port}/{name}"

    def mark(self):
        """Log position, once the log stops growing (nginx writes a line when it finalizes a
        request, which may be just after the client got the data): requests() returns what came
        after it."""
        last = -1
        for _ in range(50):
            size = self.log.stat().st_size if self.log.exists() else 0
            if size == last:
                return size
            last = size
            time.sleep(0.02)
        return last

    def requests(self, since, until=None):
        """Parsed access-log lines between two mark()s (until: now)."""
        until = self.mark() if until is None else until
        out = []
        with open(self.log, "rb") as f:
            f.seek(since)
            for line in f.read(until - since).decode().splitlines():
                m = LOG_LINE.match(line.strip())
                if not m:
                    raise AssertionError(f"unparsable access-log line: {line!r}")
                d = m.groupdict()
                d["status"] = int(d["status"])
                d["bytes"] = int(d["bytes"])
                d["span"] = parse_range(d["range"])
                out.append(d)
        return out


def parse_range(header):
    """(first, last) byte of a single 'bytes=a-b' Range header, None when there is none."""
    m = re.fullmatch(r"bytes=(\d+)-(\d*)", header or "")
    if not m:
        return None
    return int(m.group(1)), (int(m.group(2)) if m.group(2) else None)
