"""The `rumi` CLI against a local S3 server (moto's standalone server on 127.0.0.1): `info`,
`validate` and `header` on s3:// URLs, `convert` and `stack` uploading to s3:// (read back and
compared with the local conversion), faults retried (a 503 burst, a dropped connection: a small
proxy in front of moto injects them), a refused credential, and failed uploads that leave no
object and no pending multipart upload.

Run by scripts/test-object-storage.sh (RUMI_PY_STRICT=1: a missing moto_server or boto3 fails);
locally `pytest crates/rumi-cli/tests/test_object_storage.py` skips with the reason instead.
"""

import http.client
import http.server
import json
import os
import random
import shutil
import socket
import socketserver
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
CLI = Path(os.environ.get("RUMI_CLI", REPO / "target" / "release" / "rumi"))
STRICT = os.environ.get("RUMI_PY_STRICT") == "1"
BUCKET = "rumi-cli"


def need(cond, reason):
    if not cond:
        if STRICT:
            pytest.fail(f"required by RUMI_PY_STRICT=1: {reason}")
        pytest.skip(reason)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_moto(tmp, extra_env=None):
    exe = shutil.which("moto_server") or str(Path(sys.executable).parent / "moto_server")
    need(os.path.exists(exe), "moto_server is not installed (pip install 'moto[server]')")
    port = free_port()
    log = open(tmp / f"moto-{port}.log", "w+")
    env = dict(os.environ, **(extra_env or {}))
    proc = subprocess.Popen([exe, "-H", "127.0.0.1", "-p", str(port)], stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"moto_server exited: {log.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("moto_server did not start")


@pytest.fixture(scope="module")
def moto(tmp_path_factory):
    need(CLI.is_file(), f"{CLI} is not built (cargo build --release -p rumi-cli)")
    try:
        import boto3  # noqa: F401  (moto[server] installs it)
    except ImportError:
        need(False, "boto3 is not installed (pip install 'moto[server]')")
    proc, endpoint = start_moto(tmp_path_factory.mktemp("moto"))
    import boto3

    s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id="test", aws_secret_access_key="test",
                      region_name="us-east-1")
    s3.create_bucket(Bucket=BUCKET)
    yield endpoint, s3
    proc.terminate()
    proc.wait(10)


# ---- a fault-injecting proxy in front of moto -------------------------------------------------

class Proxy(http.server.BaseHTTPRequestHandler):
    """Forwards every request to moto; `fault(method, path)` may answer 503, drop the
    connection, or answer 500 instead (see `faults`)."""

    protocol_version = "HTTP/1.1"
    upstream = ("127.0.0.1", 0)
    rules = []  # [mode, predicate, times left] (times None: every time)
    log = []  # (method, path, what happened)

    def log_message(self, *a):
        pass

    def _handle(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        cls = type(self)
        for rule in cls.rules:
            mode, pred, left = rule
            if (left is None or left > 0) and pred(self.command, self.path):
                if left is not None:
                    rule[2] -= 1
                cls.log.append((self.command, self.path, mode))
                if mode == "drop":
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                code = 503 if mode == "503" else 500
                err = b"<Error><Code>SlowDown</Code><Message>injected</Message></Error>"
                self.send_response(code)
                self.send_header("Content-Length", str(len(err)))
                self.end_headers()
                self.wfile.write(err)
                return
        conn = http.client.HTTPConnection(*cls.upstream, timeout=30)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "keep-alive")}
        conn.request(self.command, self.path, body=body, headers=headers)
        r = conn.getresponse()
        data = r.read()
        cls.log.append((self.command, self.path, r.status))
        self.send_response(r.status)
        for k, v in r.getheaders():
            if k.lower() not in ("transfer-encoding", "connection", "content-length", "keep-alive"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data) if self.command != "HEAD" else r.getheader("Content-Length", "0")))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        conn.close()

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _handle


@pytest.fixture
def proxy(moto):
    endpoint, _ = moto
    Proxy.upstream = ("127.0.0.1", int(endpoint.rsplit(":", 1)[1]))
    Proxy.rules, Proxy.log = [], []
    srv = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Proxy)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}", Proxy
    srv.shutdown()
    srv.server_close()


# ---- helpers ------------------------------------------------------------------------------------

def env_for(endpoint, key="test"):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(AWS_ENDPOINT_URL=endpoint, AWS_ACCESS_KEY_ID=key, AWS_SECRET_ACCESS_KEY="test", AWS_REGION="us-east-1")
    return env


def rumi(endpoint, *args, ok=True, key="test"):
    r = subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True, env=env_for(endpoint, key),
                       timeout=300)
    if ok:
        assert r.returncode == 0, f"rumi {' '.join(map(str, args))} failed:\n{r.stderr}"
    else:
        assert r.returncode != 0, f"rumi {' '.join(map(str, args))} succeeded:\n{r.stdout}"
    return r


def geotiff(path, width, length, bands, seed, noise=True):
    """A baseline uint16 GeoTIFF (chunky, one strip, EPSG:32633, 10 m pixels) written with the
    standard library: random samples (incompressible: a file of several upload parts) or a
    smooth ramp."""
    rng = random.Random(seed)
    if noise:
        pixels = rng.randbytes(width * length * bands * 2)
    else:
        pixels = b"".join(struct.pack("<H", (x * 7 + y * 3 + b * 1000 + seed) % 65536)
                          for y in range(length) for x in range(width) for b in range(bands))
    entries = []  # (tag, type, count, value bytes)
    extra = bytearray()
    header_len = 8

    def entry(tag, typ, values):
        fmt = {3: "H", 4: "I", 12: "d"}[typ]
        entries.append((tag, typ, len(values), struct.pack(f"<{len(values)}{fmt}", *values)))

    entry(256, 4, [width])
    entry(257, 4, [length])
    entry(258, 3, [16] * bands)
    entry(259, 3, [1])
    entry(262, 3, [1])
    entry(273, 4, [0])  # strip offset, patched below
    entry(277, 3, [bands])
    entry(278, 4, [length])
    entry(279, 4, [len(pixels)])
    entry(284, 3, [1])
    if bands > 1:
        entry(338, 3, [0] * (bands - 1))  # ExtraSamples: unspecified
    entry(339, 3, [1] * bands)
    entry(33550, 12, [10.0, 10.0, 0.0])
    entry(33922, 12, [0.0, 0.0, 0.0, 500000.0, 5000000.0, 0.0])
    entry(34735, 3, [1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, 32633])
    n = len(entries)
    ifd_len = 2 + 12 * n + 4
    extra_at = header_len + ifd_len
    data_at = extra_at + sum(len(v) + (len(v) & 1) for *_, v in entries if len(v) > 4)
    ifd = bytearray(struct.pack("<H", n))
    for tag, typ, count, value in entries:
        if tag == 273:
            value = struct.pack("<I", data_at)
        if len(value) <= 4:
            ifd += struct.pack("<HHI", tag, typ, count) + value.ljust(4, b"\0")
        else:
            ifd += struct.pack("<HHII", tag, typ, count, extra_at + len(extra))
            extra += value + (b"\0" if len(value) & 1 else b"")
    ifd += struct.pack("<I", 0)
    path.write_bytes(b"II*\0" + struct.pack("<I", header_len) + bytes(ifd) + bytes(extra) + pixels)
    return path


def head_or_none(s3, key):
    try:
        return s3.head_object(Bucket=BUCKET, Key=key)
    except Exception as e:  # botocore.exceptions.ClientError 404
        assert "404" in str(e) or "Not Found" in str(e), e
        return None


def nothing_left(s3, key):
    assert head_or_none(s3, key) is None, f"{key} exists after a failed upload"
    assert head_or_none(s3, key + ".header") is None, f"{key}.header exists after a failed upload"
    pending = s3.list_multipart_uploads(Bucket=BUCKET).get("Uploads", [])
    assert not pending, f"pending multipart uploads: {pending}"


def get(s3, key):
    return s3.get_object(Bucket=BUCKET, Key=key)["Body"].read()


def info(endpoint, target, *extra):
    d = json.loads(rumi(endpoint, "info", target, "--json", *extra).stdout)
    return {k: v for k, v in d.items() if k not in ("file", "header_blob")}, d


# ---- tests -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A 3-band uint16 noise raster of about 11 MB (two upload parts) and its local conversion."""
    d = tmp_path_factory.mktemp("src")
    src = geotiff(d / "noise.tif", 1400, 1300, 3, seed=1)
    subprocess.run([str(CLI), "convert", str(src), str(d / "noise.rumi"), "--time", "2020-05-18", "-q"], check=True)
    return src, d / "noise.rumi"


def test_convert_uploads_file_then_header_and_reads_back(moto, big, tmp_path):
    endpoint, s3 = moto
    src, local = big
    assert local.stat().st_size > 8 << 20  # more than one part
    r = rumi(endpoint, "convert", src, f"s3://{BUCKET}/eo/noise.rumi", "--time", "2020-05-18")
    assert f"wrote s3://{BUCKET}/eo/noise.rumi:" in r.stdout and f"wrote s3://{BUCKET}/eo/noise.rumi.header" in r.stdout
    # the uploaded pair is the local conversion's, byte for byte (so every pixel is)
    assert get(s3, "eo/noise.rumi") == local.read_bytes()
    assert get(s3, "eo/noise.rumi.header") == Path(str(local) + ".header").read_bytes()
    assert not s3.list_multipart_uploads(Bucket=BUCKET).get("Uploads")
    # and it reads back through the store: every frame decoded, the blob matching
    url = f"s3://{BUCKET}/eo/noise.rumi"
    out = rumi(endpoint, "validate", url, "--header", url + ".header").stdout
    assert "rumi 0.1.0 compliant" in out and "header blob matches" in out, out
    remote, raw = info(endpoint, url)
    assert raw["header_blob"] == url + ".header"  # the sidecar was used
    parsed, _ = info(endpoint, local, "--header", str(local) + ".header")
    assert remote == dict(parsed, gdal_nodata=None)
    assert remote["file_bytes"] == local.stat().st_size


def test_info_validate_header_small_file(moto, tmp_path):
    endpoint, s3 = moto
    src = geotiff(tmp_path / "ramp.tif", 120, 90, 2, seed=5, noise=False)
    local = tmp_path / "ramp.rumi"
    rumi(endpoint, "convert", src, local, "--time", "2021-01-01", "--tile", "32", "-q")
    s3.put_object(Bucket=BUCKET, Key="ramp.rumi", Body=local.read_bytes())
    url = f"s3://{BUCKET}/ramp.rumi"
    # no sidecar: parsed
    remote, raw = info(endpoint, url)
    assert raw["header_blob"] is None and raw["file"] == url
    assert remote == dict(info(endpoint, local)[0], gdal_nodata=None)
    text = rumi(endpoint, "info", url).stdout
    assert "T=1 B=2 Y=90 X=120" in text and "EPSG:32633" in text, text
    assert "compliant" in rumi(endpoint, "validate", url).stdout
    # header: built from the object, written beside it (default) or to a local file
    out = rumi(endpoint, "header", url).stdout
    assert f"wrote {url}.header" in out, out
    assert get(s3, "ramp.rumi.header") == Path(str(local) + ".header").read_bytes()
    rumi(endpoint, "header", url, "-o", tmp_path / "b.header")
    assert (tmp_path / "b.header").read_bytes() == Path(str(local) + ".header").read_bytes()
    # the same object over plain HTTP (moto serves public objects to path-style GETs): the
    # sidecar is used
    for key in ("ramp.rumi", "ramp.rumi.header"):
        s3.put_object_acl(Bucket=BUCKET, Key=key, ACL="public-read")
    http_url = f"{endpoint}/{BUCKET}/ramp.rumi"
    over_http, raw = info(endpoint, http_url)
    assert raw["header_blob"] == http_url + ".header" and over_http == remote
    assert "compliant" in rumi(endpoint, "validate", http_url, "--header", http_url + ".header").stdout
    # a stale sidecar (another file's blob) is ignored with a warning, as for local files
    other = tmp_path / "other.rumi"
    rumi(endpoint, "convert", src, other, "--time", "2021-01-01", "--tile", "64", "-q")
    s3.put_object(Bucket=BUCKET, Key="ramp.rumi.header", Body=Path(str(other) + ".header").read_bytes())
    r = rumi(endpoint, "info", url, "--json")
    assert "ignoring the sidecar header blob" in r.stderr, r.stderr
    assert json.loads(r.stdout)["header_blob"] is None and json.loads(r.stdout)["tile"]["width"] == 32
    # an explicit blob that does not match is an error; a missing object is a clear error
    r = rumi(endpoint, "validate", url, "--header", f"{url}.header", ok=False)
    assert "does not belong" in r.stderr, r.stderr
    r = rumi(endpoint, "info", f"s3://{BUCKET}/absent.rumi", ok=False)
    assert "absent.rumi" in r.stderr and ("no such object" in r.stderr or "not found" in r.stderr.lower()), r.stderr


def test_info_of_an_object_shows_its_nodata(moto, tmp_path):
    """`rumi info s3://...` reads the PAM sidecar beside the object, as local `info` reads the file's."""
    endpoint, s3 = moto
    src = geotiff(tmp_path / "nd.tif", 40, 30, 2, seed=3, noise=False)
    local = tmp_path / "nd.rumi"
    rumi(endpoint, "convert", src, local, "--time", "2021-01-01", "-q")
    s3.put_object(Bucket=BUCKET, Key="nd.rumi", Body=local.read_bytes())
    url = f"s3://{BUCKET}/nd.rumi"
    assert info(endpoint, url)[0]["gdal_nodata"] is None and "nodata" not in rumi(endpoint, "info", url).stdout
    aux = ('<PAMDataset>\n  <PAMRasterBand band="1">\n    <NoDataValue>0</NoDataValue>\n  </PAMRasterBand>\n'
           '  <PAMRasterBand band="2">\n    <NoDataValue>65535</NoDataValue>\n  </PAMRasterBand>\n</PAMDataset>\n')
    s3.put_object(Bucket=BUCKET, Key="nd.rumi.aux.xml", Body=aux.encode())
    Path(str(local) + ".aux.xml").write_text(aux)
    remote, _ = info(endpoint, url)
    assert remote["gdal_nodata"] == {"sidecar": url + ".aux.xml", "bands": {"1": "0", "2": "65535"}}
    assert remote["gdal_nodata"]["bands"] == info(endpoint, local)[0]["gdal_nodata"]["bands"]
    text = rumi(endpoint, "info", url).stdout
    assert "nodata" in text and "0, " in text and "65535" in text and url + ".aux.xml" in text, text


def test_stack_to_s3_and_https_is_read_only(moto, tmp_path):
    endpoint, s3 = moto
    a = geotiff(tmp_path / "a.tif", 64, 48, 1, seed=1, noise=False)
    b = geotiff(tmp_path / "b.tif", 64, 48, 1, seed=2, noise=False)
    rumi(endpoint, "stack", a, b, f"s3://{BUCKET}/cube.rumi", "--times", "2020-01-01,2020-02-01", "-q")
    rumi(endpoint, "stack", a, b, tmp_path / "cube.rumi", "--times", "2020-01-01,2020-02-01", "-q")
    assert get(s3, "cube.rumi") == (tmp_path / "cube.rumi").read_bytes()
    r = rumi(endpoint, "convert", a, "https://example.invalid/x.rumi", "--time", "2020-01-01", ok=False)
    assert "read-only" in r.stderr, r.stderr
    r = rumi(endpoint, "header", f"s3://{BUCKET}/cube.rumi", "-o", "https://example.invalid/c.header", ok=False)
    assert "read-only" in r.stderr, r.stderr


def test_503_burst_and_dropped_connection_are_retried(moto, proxy, big):
    endpoint, s3 = moto
    via, p = proxy
    src, local = big
    # reads: the first three requests answer 503, then a connection is dropped once
    s3.put_object(Bucket=BUCKET, Key="faults/read.rumi", Body=local.read_bytes())
    p.rules = [["503", lambda m, path: True, 3], ["drop", lambda m, path: m == "GET", 1]]
    remote, _ = info(via, f"s3://{BUCKET}/faults/read.rumi")
    assert remote["frames"] == info(endpoint, local)[0]["frames"]
    assert [x[2] for x in p.log[:4]] == ["503", "503", "503", "drop"], p.log
    assert any(x[2] == 206 for x in p.log), p.log
    # writes: a 503 burst on the first part, then a dropped connection on a part upload
    p.rules = [["503", lambda m, path: m == "PUT" and "partNumber=" in path, 2],
               ["drop", lambda m, path: m == "PUT" and "partNumber=" in path, 1]]
    p.log = []
    rumi(via, "convert", src, f"s3://{BUCKET}/faults/up.rumi", "--time", "2020-05-18", "-q")
    assert [x[2] for x in p.log if x[2] in ("503", "drop")] == ["503", "503", "drop"], p.log
    assert get(s3, "faults/up.rumi") == local.read_bytes()
    assert not s3.list_multipart_uploads(Bucket=BUCKET).get("Uploads")


def test_failed_uploads_leave_nothing(moto, proxy, big, tmp_path):
    endpoint, s3 = moto
    via, p = proxy
    src, _ = big
    # every part upload fails (500) until the retries give up: the multipart upload is aborted
    p.rules = [["500", lambda m, path: m == "PUT" and "partNumber=" in path, None]]
    t0 = time.time()
    r = rumi(via, "convert", src, f"s3://{BUCKET}/fail/parts.rumi", "--time", "2020-05-18", "-q", ok=False)
    assert "cannot upload" in r.stderr and "nothing was written" in r.stderr, r.stderr
    assert time.time() - t0 < 120
    assert any(m == "DELETE" and "uploadId=" in path for m, path, _ in p.log), p.log  # the abort
    nothing_left(s3, "fail/parts.rumi")
    # the header blob's PUT fails after the file is complete: the file is removed again
    p.rules = [["500", lambda m, path: m == "PUT" and path.split("?")[0].endswith(".header"), None]]
    r = rumi(via, "convert", src, f"s3://{BUCKET}/fail/header.rumi", "--time", "2020-05-18", "-q", ok=False)
    assert "removed again" in r.stderr, r.stderr
    nothing_left(s3, "fail/header.rumi")
    # an unreachable endpoint
    r = rumi(f"http://127.0.0.1:{free_port()}", "convert", src, f"s3://{BUCKET}/fail/down.rumi", "--time",
             "2020-05-18", "-q", ok=False)
    assert "cannot upload" in r.stderr, r.stderr
    nothing_left(s3, "fail/down.rumi")
    # a source that fails mid-way (its pixels cut short): nothing is uploaded
    cut = tmp_path / "cut.tif"
    cut.write_bytes(src.read_bytes()[: src.stat().st_size // 2])
    r = rumi(endpoint, "convert", cut, f"s3://{BUCKET}/fail/cut.rumi", "--time", "2020-05-18", "-q", ok=False)
    nothing_left(s3, "fail/cut.rumi")


def test_refused_credentials_are_a_clear_error(tmp_path_factory, moto):
    # a second moto server that authenticates every request: the key "test" is not in its IAM
    proc, strict = start_moto(tmp_path_factory.mktemp("moto-auth"), {"INITIAL_NO_AUTH_ACTION_COUNT": "0"})
    try:
        r = rumi(strict, "info", f"s3://{BUCKET}/ramp.rumi", ok=False, key="AKIAREFUSED")
        assert "access refused" in r.stderr and "AWS_ACCESS_KEY_ID" in r.stderr, r.stderr
        assert "403" in r.stderr or "InvalidAccessKeyId" in r.stderr, r.stderr
    finally:
        proc.terminate()
        proc.wait(10)
