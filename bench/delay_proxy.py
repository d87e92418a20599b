"""A small TCP proxy on 127.0.0.1 that holds every client->server chunk for `delay` seconds
(one HTTP request is one chunk here: a round trip of injected latency per request) and counts
the requests (chunks that start with an HTTP method). Bounded: it serves until stop()."""

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

METHODS = (b"GET ", b"HEAD ", b"POST ", b"PUT ")


class DelayProxy:
    def __init__(self, target_port, delay=0.02):
        self.target, self.delay = target_port, delay
        self.requests = 0
        self._lock = threading.Lock()
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self._stop:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            s = socket.create_connection(("127.0.0.1", self.target))
            for x in (c, s):  # no Nagle: a response's last small segment must not wait for the client's delayed ACK
                x.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self._pipe, args=(c, s, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(s, c, False), daemon=True).start()

    def _pipe(self, a, b, upstream):
        try:
            while True:
                d = a.recv(65536)
                if not d:
                    break
                if upstream:
                    if d.startswith(METHODS):
                        with self._lock:
                            self.requests += d.count(b" HTTP/1.")
                    time.sleep(self.delay)
                b.sendall(d)
        except OSError:
            pass
        finally:
            for x in (a, b):
                try:
                    x.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def stop(self):
        self._stop = True
        self.sock.close()


class ProxyProcess:
    """DelayProxy in a child process: in the benchmark's own, a GDAL call that keeps the GIL while
    it waits on the network (rasterio 1.5 opening a /vsicurl/ file) would starve the proxy's
    threads and never get its answer. Its CPU is not the benchmark process's (RUSAGE_SELF)."""

    def __init__(self, target_port, delay):
        code = ("import sys; from delay_proxy import DelayProxy; p = DelayProxy(int(sys.argv[1]), float(sys.argv[2]));"
                "print(p.port, flush=True)\nfor _ in sys.stdin: print(p.requests, flush=True)")
        env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent))
        self.proc = subprocess.Popen([sys.executable, "-c", code, str(target_port), str(delay)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)
        self.port = int(self.proc.stdout.readline())

    @property
    def requests(self):
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        return int(self.proc.stdout.readline())

    def stop(self):
        self.proc.kill()
        self.proc.wait()
