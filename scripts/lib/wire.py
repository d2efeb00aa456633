"""Shared by scripts/conformance.py and scripts/schema-fuzz.py: a `cardistry stdio` child process over pipes, and
the protocol's JSON Schema (docs/protocol.schema.json) as validators.

Standard library plus `jsonschema` only.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from pathlib import Path
from typing import Any, Optional

import jsonschema

REPO_ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = REPO_ROOT / "docs" / "protocol.schema.json"


def compact(value: Any) -> str:
    """One compact JSON line, as a host writes it (UTF-8 kept as is)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Schema:
    """docs/protocol.schema.json: `#/$defs/serverMessage` for every line the server writes, `#/$defs/result.M` for
    the result of method M, `#/$defs/params.M` for a request's params, `#/$defs/request` for a request."""

    def __init__(self, path: Path = SCHEMA_PATH) -> None:
        self.document = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(self.document)
        self._validators: dict[str, jsonschema.Draft202012Validator] = {}

    def validator(self, definition: str) -> jsonschema.Draft202012Validator:
        if definition not in self._validators:
            schema = {"$ref": "#/$defs/" + definition}
            root = dict(self.document)
            root.pop("anyOf", None)
            root.update(schema)
            self._validators[definition] = jsonschema.Draft202012Validator(root)
        return self._validators[definition]

    def defs(self) -> dict[str, Any]:
        return self.document["$defs"]

    def errors(self, definition: str, value: Any) -> list[str]:
        """The schema's complaints about `value` as `definition` (empty when it validates)."""
        problems = []
        for error in self.validator(definition).iter_errors(value):
            where = "/".join(str(part) for part in error.absolute_path)
            problems.append("%s: %s" % (where or "(root)", error.message[:300]))
        return problems

    def fragment_validator(self, fragment: dict[str, Any]) -> jsonschema.Draft202012Validator:
        """A validator for a free-standing schema fragment (an action's `schema` from scene.open)."""
        return jsonschema.Draft202012Validator(fragment)


class Server:
    """`BINARY stdio ARGS…` with stdin/stdout as pipes; lines are read by a thread into a queue."""

    def __init__(self, binary: str, args: list[str], env: Optional[dict[str, str]] = None,
                 cwd: Optional[str] = None) -> None:
        self.process = subprocess.Popen(
            [binary, "stdio", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
        )
        self.lines: "queue.Queue[Optional[bytes]]" = queue.Queue()
        self.stderr_chunks: list[bytes] = []
        self.eof = False
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for chunk in self.process.stderr:
            self.stderr_chunks.append(chunk)

    def send(self, data: bytes) -> bool:
        """Writes one line (a newline is added); False when the server has closed its input."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(data + b"\n")
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def send_text(self, text: str) -> bool:
        return self.send(text.encode("utf-8"))

    def next_line(self, timeout: float) -> Optional[str]:
        """The next line the server wrote (without its newline), or None at end of output or after `timeout`."""
        if self.eof:
            return None
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            self.eof = True
            return None
        return line.rstrip(b"\n").decode("utf-8", errors="replace")

    def close_input(self) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    def rest(self, timeout: float) -> list[str]:
        """Closes stdin and returns every line until end of output (or `timeout` seconds without a line)."""
        self.close_input()
        lines = []
        while True:
            line = self.next_line(timeout)
            if line is None:
                return lines
            lines.append(line)

    def wait(self, timeout: float = 20) -> Optional[int]:
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stderr_text(self) -> str:
        return b"".join(self.stderr_chunks).decode("utf-8", errors="replace")


def clean_env(home: Optional[str]) -> dict[str, str]:
    """A minimal environment: no CARDISTRY_HOME or XDG_DATA_HOME from the caller, HOME pointing at `home` (the
    default store is then inside it, never the user's), and a UTF-8 locale."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8"}
    if home is not None:
        env["HOME"] = home
    return env
