#!/usr/bin/env python3
"""The web host's bridge: `cardistry stdio` behind a tiny HTTP server (Python standard library only).

    python3 examples/web-host/bridge.py [--cardistry PATH] [--port N] [--host 127.0.0.1] [--store DIR]

It starts `cardistry stdio`, serves the page in `static/`, and relays JSON-RPC both ways without looking inside:

- `POST /rpc?client=ID` — the body (JSON-RPC messages or batches, one per line) goes to the server's stdin in
  order; the answer is 202 with no body. Everything the server writes comes back on the event stream, so responses and
  notifications keep the order the server wrote them in.
- `GET /events?client=ID` — server-sent events: one `message` event per line of the server's stdout, an `exit`
  event with the status when the server ends.
- `POST /import?name=NAME&ext=tsv|json` — a deck file the user picked: imported into the server's store with
  `cardistry deck import` (the protocol takes decks from the store by name), so the page can open a scene with it.

One server serves one page. A page names itself with a random client id; EventSource reconnects of the same page
keep the server and get every line written meanwhile; a page with another id (a reload, another tab) gets a fresh
server. When the page goes away (no event stream for `--grace` seconds) the bridge stops the server and exits
(with `--keep-serving`, it waits for the next page instead). Ctrl-C and SIGTERM stop the server and exit too.
The server is stopped by closing its stdin (it exits 0 promptly), then SIGTERM, then SIGKILL, so it is never left
behind. `--port 0` picks a free port; the URL printed on the first line of stdout has the real one.
"""

import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = os.path.join(HERE, "static")
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_EXECUTABLE = os.path.join(REPO, ".build", "release", "cardistry")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
MAX_BODY = 8 * 1024 * 1024


def log(message):
    sys.stderr.write("bridge: %s\n" % message)
    sys.stderr.flush()


class Server:
    """One `cardistry stdio` child: its stdin, and a buffer of the stdout lines not yet sent to the page."""

    def __init__(self, command):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None, bufsize=0)
        self.lines = collections.deque()
        self.ready = threading.Condition()
        self.write_lock = threading.Lock()
        self.status = None  # the exit status once the process ended and its output was read
        self.reader = threading.Thread(target=self._read, name="cardistry-stdout", daemon=True)
        self.reader.start()

    def _read(self):
        stream = self.process.stdout
        for raw in iter(stream.readline, b""):
            line = raw.rstrip(b"\r\n").decode("utf-8", "replace")
            if line:
                with self.ready:
                    self.lines.append(line)
                    self.ready.notify_all()
        status = self.process.wait()
        with self.ready:
            self.status = status
            self.ready.notify_all()

    def send(self, body):
        """Writes one message line to the server. False when the server is gone."""
        with self.write_lock:
            try:
                self.process.stdin.write(body + b"\n")
                self.process.stdin.flush()
                return True
            except (BrokenPipeError, ValueError, OSError):
                return False

    def next_line(self, timeout):
        """The next stdout line, or None after `timeout` seconds; ('exit', status) once everything was read."""
        with self.ready:
            if not self.lines and self.status is None:
                self.ready.wait(timeout)
            if self.lines:
                return self.lines.popleft()
            if self.status is not None:
                return ("exit", self.status)
            return None

    def unread(self, line):
        """Puts back a line the page did not get (its stream broke while it was written)."""
        with self.ready:
            self.lines.appendleft(line)

    def stop(self):
        """End of input first (the server flushes and exits 0), then SIGTERM, then SIGKILL. Returns the status."""
        with self.write_lock:
            try:
                self.process.stdin.close()
            except OSError:
                pass
        for escalate in (None, self.process.terminate, self.process.kill):
            if escalate is not None:
                try:
                    escalate()
                except OSError:
                    pass
            try:
                status = self.process.wait(timeout=3)
                self.reader.join(timeout=2)
                return status
            except subprocess.TimeoutExpired:
                continue
        return self.process.wait()


class Bridge:
    """The state the HTTP handlers share: the current page (client id), its server, and the event streams."""

    def __init__(self, command, grace, keep_serving):
        self.command = command
        self.grace = grace
        self.keep_serving = keep_serving
        self.lock = threading.Lock()
        self.client = None
        self.server = None
        self.streams = 0
        self.generation = 0  # the newest event stream; an older one of the same page stops sending
        self.last_stream_end = None  # when the last event stream closed (monotonic), None while one is open
        self.stopping = threading.Event()

    def attach(self, client):
        """The server for the page `client`: the current one for the same page, else a fresh one."""
        with self.lock:
            if self.client != client or self.server is None:
                old, self.server = self.server, None
                if old is not None:
                    log("a new page (%s): restarting the server" % client)
                    old.stop()
                self.server = Server(self.command)
                self.client = client
                log("started %s (pid %d) for page %s" % (" ".join(self.command), self.server.process.pid, client))
            self.streams += 1
            self.generation += 1
            self.last_stream_end = None
            return self.server, self.generation

    def detach(self):
        with self.lock:
            self.streams -= 1
            if self.streams == 0:
                self.last_stream_end = time.monotonic()

    def server_for(self, client):
        with self.lock:
            return self.server if client == self.client else None

    def page_gone(self):
        """True when a page was here and has had no event stream for `grace` seconds."""
        with self.lock:
            return (self.server is not None and self.streams == 0 and self.last_stream_end is not None
                    and time.monotonic() - self.last_stream_end > self.grace)

    def stop_server(self):
        with self.lock:
            server, self.server, self.client = self.server, None, None
        if server is not None:
            status = server.stop()
            log("the server exited with status %s" % status)


class Handler(BaseHTTPRequestHandler):
    server_version = "cardistry-web-host"
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # quiet: the event stream would log every reconnect
        if self.server.verbose:
            log(format % args)

    def _query(self):
        parsed = urllib.parse.urlsplit(self.path)
        return parsed.path, urllib.parse.parse_qs(parsed.query)

    def _reply(self, status, body=b"", content_type="text/plain; charset=utf-8"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        path, query = self._query()
        if path == "/events":
            return self._events(query.get("client", [""])[0])
        if path == "/":
            path = "/index.html"
        if path == "/favicon.ico":
            return self._reply(204)
        name = os.path.normpath(urllib.parse.unquote(path)).lstrip("/\\")
        file_path = os.path.join(STATIC, name)
        if name.startswith("..") or not os.path.isfile(file_path):
            return self._reply(404, b"not found\n")
        with open(file_path, "rb") as handle:
            body = handle.read()
        content_type = CONTENT_TYPES.get(os.path.splitext(name)[1], "application/octet-stream")
        self._reply(200, body, content_type)

    do_HEAD = do_GET

    def do_POST(self):
        path, query = self._query()
        if path == "/import":
            return self._import(query)
        if path != "/rpc":
            return self._reply(404, b"not found\n")
        length = int(self.headers.get("Content-Length") or 0)
        if length <= 0 or length > MAX_BODY:
            return self._reply(413 if length > MAX_BODY else 400, b"a JSON-RPC message, at most 8 MiB\n")
        # One message (or batch) per line, as the protocol frames them; the page sends what it queued as lines.
        lines = [line.strip() for line in self.rfile.read(length).split(b"\n")]
        server = self.server.bridge.server_for(query.get("client", [""])[0])
        if server is None:
            return self._reply(409, b"no server for this page: open the event stream first\n")
        for line in lines:
            if line and not server.send(line):
                return self._reply(503, b"the server has exited\n")
        self._reply(202)

    def _import(self, query):
        """`POST /import?name=NAME&ext=tsv|json`: the body is a deck file the user picked in the page. The bridge
        imports it into the store its server uses (`cardistry deck import`, replacing a deck of that name), so the
        page can open a scene with it by name; the stdio protocol itself takes decks from the store only. Answers
        200 with `{"name": …, "message": …}`, or 422 with the importer's error message."""
        length = int(self.headers.get("Content-Length") or 0)
        if length <= 0 or length > MAX_BODY:
            return self._reply(413 if length > MAX_BODY else 400, b"a deck file, at most 8 MiB\n")
        name = query.get("name", [""])[0]
        ext = query.get("ext", ["tsv"])[0].lower()
        if ext not in ("tsv", "txt", "json"):
            return self._reply(400, b"ext must be tsv, txt or json\n")
        body = self.rfile.read(length)
        bridge = self.server.bridge
        with tempfile.TemporaryDirectory(prefix="cardistry-import-") as directory:
            path = os.path.join(directory, "deck." + ("json" if ext == "json" else "tsv"))
            with open(path, "wb") as handle:
                handle.write(body)
            command = [bridge.executable, "deck", "import", path, "--name", name, "--replace"]
            if bridge.store:
                command += ["--store", bridge.store]
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=60)
            except (OSError, subprocess.TimeoutExpired) as error:
                return self._reply(500, ("cannot run the importer: %s\n" % error).encode())
        if done.returncode != 0:
            message = (done.stderr.strip().splitlines() or ["the import failed"])[0]
            return self._reply(422, json.dumps({"error": message}).encode(), "application/json")
        self._reply(200, json.dumps({"name": name, "message": done.stdout.strip()}).encode(), "application/json")

    def _events(self, client):
        if not client:
            return self._reply(400, b"missing client id\n")
        bridge = self.server.bridge
        server, generation = bridge.attach(client)
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b"retry: 500\n\n")
            self.wfile.flush()
            self.close_connection = True
            while not bridge.stopping.is_set():
                line = server.next_line(timeout=5)
                if line is None:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                    continue
                if generation != bridge.generation:  # the page reconnected: the new stream takes over
                    if isinstance(line, str):
                        server.unread(line)
                    break
                if isinstance(line, tuple):
                    self.wfile.write(b"event: exit\ndata: %s\n\n" % json.dumps({"status": line[1]}).encode())
                    self.wfile.flush()
                    # The stream stays open (quietly) so the page does not reconnect into a fresh server.
                    while not bridge.stopping.wait(5):
                        self.wfile.write(b": ended\n\n")
                        self.wfile.flush()
                    break
                try:
                    self.wfile.write(b"data: " + line.encode("utf-8") + b"\n\n")
                    self.wfile.flush()
                except OSError:
                    server.unread(line)
                    raise
        except OSError:
            pass  # the page went away
        finally:
            bridge.detach()


def main(argv=None):
    parser = argparse.ArgumentParser(description="Serve the Cardistry web host page and relay JSON-RPC to `cardistry stdio`.")
    parser.add_argument("--cardistry", default=DEFAULT_EXECUTABLE,
                        help="the cardistry executable (default: <repo>/.build/release/cardistry)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8390, help="port (default 8390; 0 picks a free one)")
    parser.add_argument("--store", help="deck store directory, passed to `cardistry stdio --store`")
    parser.add_argument("--grace", type=float, default=5.0,
                        help="seconds without the page before the server is stopped (default 5)")
    parser.add_argument("--keep-serving", action="store_true",
                        help="when the page goes away, stop its server but wait for the next page")
    parser.add_argument("--verbose", action="store_true", help="log every HTTP request")
    options = parser.parse_args(argv)

    executable = os.path.abspath(options.cardistry)
    if not os.access(executable, os.X_OK):
        log("no executable at %s (build it with `swift build -c release`, or pass --cardistry PATH)" % executable)
        return 2
    command = [executable, "stdio"]
    if options.store:
        command += ["--store", options.store]

    bridge = Bridge(command, options.grace, options.keep_serving)
    bridge.executable = executable
    bridge.store = options.store
    try:
        httpd = ThreadingHTTPServer((options.host, options.port), Handler)
    except OSError as error:
        log("cannot listen on %s port %d: %s (try --port 0 for a free port)" % (options.host, options.port, error))
        return 2
    httpd.daemon_threads = True
    httpd.bridge = bridge
    httpd.verbose = options.verbose
    host, port = httpd.server_address[:2]
    shown = "[%s]" % host if ":" in host else host
    print("Cardistry web host: http://%s:%d/" % (shown, port), flush=True)
    print("(Ctrl-C stops it; it also stops when the page has been closed for %g s)" % options.grace, flush=True)

    reason = []

    def stop(signum, _frame):
        reason.append(signal.Signals(signum).name)
        bridge.stopping.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)

    serving = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    serving.start()
    try:
        while not bridge.stopping.wait(0.25):
            if bridge.page_gone():
                log("the page went away")
                bridge.stop_server()
                if not options.keep_serving:
                    reason.append("page closed")
                    break
    finally:
        bridge.stopping.set()
        bridge.stop_server()
        httpd.shutdown()
        httpd.server_close()
    print("Cardistry web host stopped (%s)." % (reason[0] if reason else "done"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
