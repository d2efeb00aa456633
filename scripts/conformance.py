#!/usr/bin/env python3
"""Replays the conformance corpus (conformance/transcripts/*.txt) against `BINARY stdio` (issue 26).

    python3 scripts/conformance.py BINARY                 # replay every transcript; exit 1 on any difference
    python3 scripts/conformance.py BINARY --only NAME     # one transcript (repeatable; NAME without .txt)
    python3 scripts/conformance.py BINARY --record        # rewrite the expected lines from the server
    python3 scripts/conformance.py BINARY --self-test     # prove that a changed reply shape fails the replay

Each transcript is replayed through a fresh `BINARY stdio …` process over pipes, one line at a time: after each
line the replayer reads exactly the reply lines the transcript expects, compares them byte for byte after the
normalisations below, validates every line the server writes against docs/protocol.schema.json
(`#/$defs/serverMessage`, and a result against `#/$defs/result.METHOD` of its request's method), and at the end
closes stdin and checks that nothing else is written and the exit status. The format, the normalisation rules and
the coverage table are in conformance/README.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import copy
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from wire import REPO_ROOT, Schema, Server, clean_env, compact  # noqa: E402

CORPUS = REPO_ROOT / "conformance" / "transcripts"
SEND = "→ "
SEND_LATIN1 = "→latin1 "  # the rest is a JSON string; its characters U+0000…U+00FF are sent as those bytes
SEND_PAD = "→pad "  # "→pad N LINE": LINE with N spaces inserted before its last character (a line over the cap)
EXPECT = "← "
EXIT = "= exit "
DIRECTIVE = "#! "

LINE_TIMEOUT = 10.0  # seconds to wait for one expected line
QUIET = 0.15  # record mode: how long a line that is not answered is given to write its events


# ---------------------------------------------------------------------------------------------------------------
# Normalisation: only values docs/protocol.md says vary (conformance/README.md quotes the sentences).

# N2: the server's own version (serverInfo.version), which changes with every release of the same protocol.
VERSION = re.compile(r'("serverInfo":\{"name":"[^"\\]*","version":)"(?:[^"\\]|\\.)*"')
# N3 (realtime transcripts only): the server's monotonic clock, and the sequence numbers frames at fps shift.
REALTIME_NUMBER = re.compile(r'(?<!\\)"(t|seq)":-?[0-9][0-9.eE+-]*')


def normalise(line: str, tmp: str, realtime: bool) -> str:
    line = line.replace(tmp, "{tmp}")  # N1: the replayer's temporary directory (the store's path in messages)
    line = VERSION.sub(r'\1"{version}"', line)
    if realtime:
        line = REALTIME_NUMBER.sub(lambda m: '"%s":"{%s}"' % (m.group(1), m.group(1)), line)
    return line


# N5: the catalogue. The scenes a server offers are its catalogue, which grows when a scene is added; a host may
# rely on the scenes it knows being there (names, details, order among themselves), never on how many there are
# (docs/protocol.md, `scene.list`). So where a reply lists the catalogue (`scenes`, `details` and
# `capabilities.icons` of `initialize` and `scene.list`, an unknown scene's message), the scenes and icons the
# recording has must all be there, in the same order and unchanged; what the server has beyond them is left out of
# the comparison. A scene removed, renamed, reordered or changed still fails, and so does every other difference.
# The lists of scenes in messages: an unknown scene's ("…; scenes: a, b, c") and an option a scene does not take
# ("… (scenes that take one: a, b)").
SCENES_IN_MESSAGE = [re.compile(r"^(.*; scenes: )(.*)()$"), re.compile(r"^(.*\(scenes that take one: )([^)]*)(\).*)$")]


def kept_in_order(expected: list[Any], actual: list[Any], key: Any) -> Optional[list[Any]]:
    """The elements of `actual` whose keys `expected` has, when those are exactly `expected`'s keys in its order
    (each once); else None."""
    wanted = [key(item) for item in expected]
    if None in wanted or len(set(map(compact, wanted))) != len(wanted):
        return None
    kept = [item for item in actual if key(item) in wanted]
    return kept if [key(item) for item in kept] == wanted else None


def catalogue_message(expected: str, actual: str) -> str:
    """`actual` with the scenes `expected`'s list of scenes does not have left out of its own (N5), when the rest of
    the two messages is the same and the recorded scenes are all in actual's list, in order; else `actual`."""
    for pattern in SCENES_IN_MESSAGE:
        left, right = pattern.match(expected), pattern.match(actual)
        if left and right and (left.group(1), left.group(3)) == (right.group(1), right.group(3)):
            kept = kept_in_order(left.group(2).split(", "), right.group(2).split(", "), lambda name: name)
            if kept is not None:
                return right.group(1) + ", ".join(kept) + right.group(3)
    return actual


def catalogue_view(expected: Any, actual: Any) -> Any:
    """`actual` (one parsed message, or a batch) with the scenes and icons `expected` does not have left out, where
    N5 allows it (a copy; unchanged when it does not apply)."""
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [catalogue_view(left, right) for left, right in zip(expected, actual)]
    if not (isinstance(expected, dict) and isinstance(actual, dict)):
        return actual
    actual = copy.deepcopy(actual)
    result, recorded = actual.get("result"), expected.get("result")
    if isinstance(result, dict) and isinstance(recorded, dict):
        if isinstance(result.get("scenes"), list) and isinstance(recorded.get("scenes"), list):
            kept = kept_in_order(recorded["scenes"], result["scenes"], lambda name: name)
            result["scenes"] = kept if kept is not None else result["scenes"]
        if isinstance(result.get("details"), list) and isinstance(recorded.get("details"), list):
            name = lambda item: item.get("name") if isinstance(item, dict) else None  # noqa: E731
            kept = kept_in_order(recorded["details"], result["details"], name)
            result["details"] = kept if kept is not None else result["details"]
        capabilities, recorded_capabilities = result.get("capabilities"), recorded.get("capabilities")
        icons = capabilities.get("icons") if isinstance(capabilities, dict) else None
        recorded_icons = recorded_capabilities.get("icons") if isinstance(recorded_capabilities, dict) else None
        if isinstance(icons, dict) and isinstance(recorded_icons, dict):
            kept = kept_in_order(list(recorded_icons), list(icons), lambda name: name)
            if kept is not None:
                capabilities["icons"] = {name: icons[name] for name in kept}
    error, recorded_error = actual.get("error"), expected.get("error")
    if isinstance(error, dict) and isinstance(recorded_error, dict):
        message, recorded_message = error.get("message"), recorded_error.get("message")
        if isinstance(message, str) and isinstance(recorded_message, str):
            error["message"] = catalogue_message(recorded_message, message)
    return actual


def within_catalogue(expected: str, actual: str) -> str:
    """The actual line as N5 compares it: re-encoded without what the catalogue gained since the recording. Only
    for lines whose compact re-encoding is their own bytes (the server's, and the recording's), so that nothing
    but the catalogue's growth is forgiven; any other line is returned as it is."""
    try:
        left, right = json.loads(expected), json.loads(actual)
    except ValueError:
        return actual
    if compact(left) != expected or compact(right) != actual:
        return actual
    return compact(catalogue_view(left, right))


def is_streamed_frame(message: Any) -> bool:
    """N4 (realtime only): a `frame` notification of a scene still animating; how many arrive depends on time."""
    return (isinstance(message, dict) and message.get("method") == "frame"
            and isinstance(message.get("params"), dict) and message["params"].get("animating") is True)


# ---------------------------------------------------------------------------------------------------------------
# Transcripts


@dataclass
class Step:
    send_line: int  # 1-based line number of the `→` line in the transcript
    data: bytes  # what is written (a newline is added)
    shown: str  # the `→` line as written in the transcript
    expected: list[tuple[int, str]] = field(default_factory=list)  # (line number, expected text)


@dataclass
class Transcript:
    path: Path
    lines: list[str]
    args: list[str]
    env: list[str]
    files: list[tuple[str, str]]
    realtime: bool
    steps: list[Step]
    exit_status: Optional[int]
    exit_line: Optional[int]

    @property
    def name(self) -> str:
        return self.path.stem


def parse_transcript(path: Path, text: Optional[str] = None) -> Transcript:
    lines = (text if text is not None else path.read_text(encoding="utf-8")).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    args: list[str] = []
    env: list[str] = []
    files: list[tuple[str, str]] = []
    realtime = False
    steps: list[Step] = []
    exit_status: Optional[int] = None
    exit_line: Optional[int] = None
    for number, line in enumerate(lines, start=1):
        if line.startswith(DIRECTIVE):
            key, _, value = line[len(DIRECTIVE):].partition(":")
            value = value.strip()
            if key == "args":
                args += shlex.split(value)
            elif key == "env":
                env += shlex.split(value)
            elif key == "file":
                name, _, content = value.partition(" = ")
                files.append((name.strip(), content))
            elif key == "clock":
                realtime = value == "realtime"
            else:
                raise SystemExit("%s:%d: unknown directive %r" % (path, number, key))
        elif line.startswith(SEND_LATIN1):
            shown = line
            data = json.loads(line[len(SEND_LATIN1):]).encode("latin-1")
            steps.append(Step(number, data, shown))
        elif line.startswith(SEND_PAD):
            count, _, rest = line[len(SEND_PAD):].partition(" ")
            data = rest.encode("utf-8")
            steps.append(Step(number, data[:-1] + b" " * int(count) + data[-1:], line))
        elif line.startswith(SEND) or line == SEND.rstrip():
            steps.append(Step(number, line[len(SEND):].encode("utf-8"), line))
        elif line.startswith(EXPECT):
            if not steps:
                raise SystemExit("%s:%d: a reply before any request" % (path, number))
            steps[-1].expected.append((number, line[len(EXPECT):]))
        elif line.startswith(EXIT):
            exit_status, exit_line = int(line[len(EXIT):]), number
        elif line.strip() == "" or line.startswith("#"):
            continue
        else:
            raise SystemExit("%s:%d: not a transcript line (→, ←, #, #!, = exit): %r" % (path, number, line[:80]))
    return Transcript(path, lines, args, env, files, realtime, steps, exit_status, exit_line)


def is_answered(data: bytes) -> bool:
    """Whether the server answers this line (record mode: how long to read). Parse errors are always answered; a
    notification (an object without id, `{}` included) is not, unless it is response-shaped; a batch is answered
    unless every element is a notification. A blank line is ignored."""
    if not data.strip():
        return False
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return True

    def notification(item: Any) -> bool:
        return (isinstance(item, dict) and "id" not in item
                and not (("result" in item or "error" in item) and "method" not in item))

    if isinstance(value, list):
        return len(value) == 0 or not all(notification(item) for item in value)
    return not notification(value)


def is_exit(data: bytes) -> bool:
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    return isinstance(value, dict) and value.get("method") == "exit"


def is_reply(message: Any) -> bool:
    return isinstance(message, list) or (isinstance(message, dict) and "method" not in message)


# ---------------------------------------------------------------------------------------------------------------
# Differences


def json_path(path: list[Any]) -> str:
    out = "$"
    for part in path:
        out += "[%d]" % part if isinstance(part, int) else "." + str(part)
    return out


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def first_difference(expected: Any, actual: Any, path: Optional[list[Any]] = None) -> Optional[str]:
    """The JSON path of the first difference between two values, and what differs (None when equal, member order
    included)."""
    path = path or []
    where = json_path(path)
    if type_name(expected) != type_name(actual):
        return "%s: expected %s %s, got %s %s" % (
            where, type_name(expected), compact(expected)[:60], type_name(actual), compact(actual)[:60])
    if isinstance(expected, dict):
        for key in expected:
            if key not in actual:
                return "%s: member %r is missing" % (where, key)
        for key in actual:
            if key not in expected:
                return "%s: unexpected member %r" % (where, key)
        for key in expected:
            found = first_difference(expected[key], actual[key], path + [key])
            if found:
                return found
        if list(expected) != list(actual):
            return "%s: members in another order: expected %s, got %s" % (where, list(expected), list(actual))
        return None
    if isinstance(expected, list):
        for index, (left, right) in enumerate(zip(expected, actual)):
            found = first_difference(left, right, path + [index])
            if found:
                return found
        if len(expected) != len(actual):
            return "%s: expected %d elements, got %d" % (where, len(expected), len(actual))
        return None
    if expected != actual or type(expected) is not type(actual):
        return "%s: expected %s, got %s" % (where, compact(expected)[:80], compact(actual)[:80])
    return None


def describe(expected: str, actual: str) -> str:
    try:
        left, right = json.loads(expected), json.loads(actual)
    except ValueError:
        left = right = None
    else:
        found = first_difference(left, right)
        if found:
            return "first difference at " + found
    column = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b), min(len(expected), len(actual)))
    return "same JSON value, different bytes from column %d: expected …%s…, got …%s…" % (
        column + 1, expected[max(0, column - 20):column + 40], actual[max(0, column - 20):column + 40])


def excerpt(line: str, limit: int = 400) -> str:
    return line if len(line) <= limit else line[:limit] + "… (%d chars)" % len(line)


# ---------------------------------------------------------------------------------------------------------------
# Replay


@dataclass
class Outcome:
    transcript: Transcript
    failures: list[str]
    recorded: list[list[str]]  # per step, the normalised reply lines (record mode)
    exit_status: Optional[int]
    streamed_frames: int
    seconds: float


class Replay:
    def __init__(self, binary: str, transcript: Transcript, schema: Schema, record: bool) -> None:
        self.binary = binary
        self.transcript = transcript
        self.schema = schema
        self.record = record
        self.failures: list[str] = []
        self.methods: dict[str, str] = {}  # request id (as JSON) -> method, for result.METHOD validation
        self.streamed = 0
        self.tmp = ""
        self.extra: list[str] = []  # record mode: lines after the last step's (normalised)

    def fail(self, line: int, text: str) -> None:
        self.failures.append("%s:%d: %s" % (self.transcript.path.relative_to(REPO_ROOT), line, text))

    def remember_methods(self, data: bytes) -> None:
        try:
            value = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and "id" in item and isinstance(item.get("method"), str):
                self.methods[compact(item["id"])] = item["method"]

    def check_schema(self, line: str, where: int) -> Any:
        """Validates a raw server line; returns its parsed value (None when it is not JSON)."""
        try:
            message = json.loads(line)
        except ValueError as error:
            self.fail(where, "the server wrote a line that is not JSON (%s): %s" % (error, excerpt(line)))
            return None
        problems = self.schema.errors("serverMessage", message)
        for item in message if isinstance(message, list) else [message]:
            if isinstance(item, dict) and "result" in item and "id" in item:
                method = self.methods.get(compact(item["id"]))
                if method and "result." + method in self.schema.defs():
                    problems += ["result." + method + " " + p for p in self.schema.errors("result." + method, item["result"])]
        if problems:
            self.fail(where, "reply does not validate against docs/protocol.schema.json: %s\n    line: %s" % (
                "; ".join(problems[:3]), excerpt(line)))
        return message

    def take(self, server: Server, where: int, timeout: float = LINE_TIMEOUT) -> Optional[tuple[str, Any]]:
        """The next line that counts (realtime: animating frames are validated and skipped), or None."""
        while True:
            line = server.next_line(timeout)
            if line is None:
                return None
            message = self.check_schema(line, where)
            if self.transcript.realtime and is_streamed_frame(message):
                self.streamed += 1
                continue
            return line, message

    def run(self) -> Outcome:
        started = time.monotonic()
        transcript = self.transcript
        tmp = self.tmp = tempfile.mkdtemp(prefix="cardistry-conformance-")
        recorded: list[list[str]] = []
        status: Optional[int] = None
        try:
            os.mkdir(os.path.join(tmp, "home"))
            env = clean_env(os.path.join(tmp, "home"))
            for item in transcript.env:
                if item.startswith("-"):
                    env.pop(item[1:], None)
                else:
                    key, _, value = item.partition("=")
                    env[key] = value.replace("{tmp}", tmp)
            for name, content in transcript.files:
                target = os.path.join(tmp, name)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "w", encoding="utf-8") as handle:
                    handle.write(content + "\n")
            args = [arg.replace("{tmp}", tmp) for arg in transcript.args]
            server = Server(self.binary, args, env=env, cwd=tmp)
            try:
                status = self.drive(server, tmp, recorded)
            finally:
                server.kill()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return Outcome(transcript, self.failures, recorded, status, self.streamed, time.monotonic() - started)

    def drive(self, server: Server, tmp: str, recorded: list[list[str]]) -> Optional[int]:
        transcript = self.transcript
        last_line = transcript.steps[-1].send_line if transcript.steps else 1
        for step in transcript.steps:
            self.remember_methods(step.data)
            if not server.send(step.data):
                if not self.record or step.expected:
                    self.fail(step.send_line, "the server closed its input before this line")
                recorded.append([])
                continue
            if self.record:
                recorded.append(self.record_step(server, step, tmp))
                continue
            for number, expected in step.expected:
                got = self.take(server, number)
                if got is None:
                    self.fail(number, "expected a line, the server wrote none (%s)\n    request:  %s\n    expected: ← %s"
                              % ("end of output" if server.eof else "timeout %gs" % LINE_TIMEOUT,
                                 excerpt(step.shown), excerpt(expected)))
                    return self.finish(server, last_line)
                actual = normalise(got[0], tmp, transcript.realtime)
                compared = actual if actual == expected else within_catalogue(expected, actual)
                if compared != expected:
                    self.fail(number, "reply differs\n    request:  %s\n    expected: ← %s\n    actual:   ← %s\n    %s"
                              % (excerpt(step.shown), excerpt(expected), excerpt(actual), describe(expected, compared)))
        return self.finish(server, last_line)

    def finish(self, server: Server, last_line: int) -> Optional[int]:
        for line in server.rest(LINE_TIMEOUT):
            message = self.check_schema(line, last_line)
            if self.transcript.realtime and is_streamed_frame(message):
                self.streamed += 1
                continue
            if self.record:
                self.extra.append(normalise(line, self.tmp, self.transcript.realtime))
            else:
                self.fail(last_line, "an unexpected line after the last expected one: %s" % excerpt(line))
        status = server.wait()
        if not self.record:
            where = self.transcript.exit_line or last_line
            if status != self.transcript.exit_status:
                self.fail(where, "exit status %s, expected %s; stderr: %s" % (
                    status, self.transcript.exit_status, excerpt(server.stderr_text(), 600)))
        return status

    def record_step(self, server: Server, step: Step, tmp: str) -> list[str]:
        """Reads what this line makes the server write: through its response when it is answered (realtime: and
        through the settled frame when frames streamed), everything until end of output for `exit`, else whatever
        arrives within QUIET seconds."""
        lines: list[str] = []
        if is_exit(step.data):
            while (got := self.take(server, step.send_line)) is not None:
                lines.append(normalise(got[0], tmp, self.transcript.realtime))
            return lines
        answered = is_answered(step.data)
        streamed_before = self.streamed
        while True:
            got = self.take(server, step.send_line, LINE_TIMEOUT if answered else QUIET)
            if got is None:
                if answered:
                    self.fail(step.send_line, "recording: no response within %gs" % LINE_TIMEOUT)
                break
            lines.append(normalise(got[0], tmp, self.transcript.realtime))
            if answered and is_reply(got[1]):
                break
        if self.transcript.realtime and self.streamed > streamed_before:
            got = self.take(server, step.send_line)  # the frame that has settled ("animating": false)
            if got is not None:
                lines.append(normalise(got[0], tmp, True))
        return lines


def replay(binary: str, transcript: Transcript, schema: Schema, record: bool = False) -> Outcome:
    runner = Replay(binary, transcript, schema, record)
    outcome = runner.run()
    if record and runner.extra and outcome.recorded:
        outcome.recorded[-1] += runner.extra
    return outcome


def rewrite(transcript: Transcript, outcome: Outcome) -> str:
    """The transcript with its `←` lines and exit status replaced by what the server wrote."""
    replies = {step.send_line: lines for step, lines in zip(transcript.steps, outcome.recorded)}
    out: list[str] = []
    for number, line in enumerate(transcript.lines, start=1):
        if line.startswith(EXPECT) or line.startswith(EXIT):
            continue
        out.append(line)
        for reply in replies.get(number, []):
            out.append(EXPECT + reply)
    while out and out[-1] == "":
        out.pop()
    out.append(EXIT + str(outcome.exit_status))
    return "\n".join(out) + "\n"


def load_corpus(only: list[str]) -> list[Transcript]:
    paths = sorted(CORPUS.glob("*.txt"))
    if only:
        paths = [p for p in paths if p.stem in only]
        missing = set(only) - {p.stem for p in paths}
        if missing:
            raise SystemExit("no transcript named %s in %s" % (", ".join(sorted(missing)), CORPUS))
    return [parse_transcript(path) for path in paths]


def run_all(binary: str, transcripts: list[Transcript], schema: Schema, record: bool, jobs: int) -> list[Outcome]:
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda t: replay(binary, t, schema, record), transcripts))


# ---------------------------------------------------------------------------------------------------------------
# Self-test: a changed reply shape must fail the replay.


def mutate(message: dict[str, Any], kind: str) -> bool:
    """Changes the shape of a response's result or a notification's params in place (kind: add, remove, rename,
    retype, reorder); False when that object has no place for the mutation."""
    member = "result" if "result" in message else "params"
    body = message.get(member)
    if not isinstance(body, dict):
        return False
    if kind == "add":
        body["conformanceExtra"] = 1
        return True
    if kind in ("remove", "rename"):
        if not body:
            return False
        key = list(body)[-1 if kind == "remove" else 0]
        if kind == "remove":
            del body[key]
        else:
            message[member] = {(k + "Renamed" if k == key else k): v for k, v in body.items()}
        return True

    def walk(value: Any) -> bool:
        if isinstance(value, dict):
            for key, item in value.items():
                if kind == "retype" and isinstance(item, (int, float)) and not isinstance(item, bool):
                    value[key] = str(item)
                    return True
                if walk(item):
                    return True
        elif isinstance(value, list):
            if kind == "reorder" and len(value) >= 2 and compact(value[0]) != compact(value[-1]):
                value.reverse()
                return True
            return any(walk(item) for item in value)
        return False

    return walk(body)


def mutation_sites(corpus: list[Transcript]) -> list[tuple[str, Transcript, int, dict[str, Any]]]:
    """Every reply line that can be mutated: (what it is, transcript, line number, parsed line), for lines whose
    compact re-encoding is byte-identical (so the mutation is the only change)."""
    sites = []
    for transcript in corpus:
        if transcript.realtime:
            continue
        methods: dict[str, str] = {}
        for step in transcript.steps:
            try:
                sent = json.loads(step.data.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                sent = None
            if isinstance(sent, dict) and "id" in sent and isinstance(sent.get("method"), str):
                methods[compact(sent["id"])] = sent["method"]
            for number, expected in step.expected:
                try:
                    message = json.loads(expected)
                except ValueError:
                    continue
                if not isinstance(message, dict) or compact(message) != expected:
                    continue
                if "result" in message:
                    what = "result of " + methods.get(compact(message.get("id")), "?")
                elif "method" in message:
                    what = "notification " + message["method"]
                else:
                    continue
                sites.append((what, transcript, number, message))
    return sites


FAKE_SERVER = '''#!/usr/bin/env python3
# A server whose reply shape changed: runs the real one and renames scene.close's result member on the fly.
import subprocess, sys
child = subprocess.Popen([%r] + sys.argv[1:], stdout=subprocess.PIPE)
for line in child.stdout:
    sys.stdout.buffer.write(line.replace(b'"result":{"closed":', b'"result":{"closedScene":'))
    sys.stdout.buffer.flush()
sys.exit(child.wait())
'''


FAKE_CATALOGUE = '''#!/usr/bin/env python3
# A server whose catalogue changed (%(kind)s): runs the real one and changes every list of its scenes on the fly.
import json, subprocess, sys
KIND = %(kind)r
ADDED = {"name": "added", "title": "Added", "summary": "a scene added after the recording", "takesDeck": False,
         "takesCardCount": False}
def change(names, key=lambda item: item, make=lambda name: name):
    names = list(names)
    if KIND == "add":
        names.insert(2, make("added"))
    elif KIND == "remove":
        names = [item for item in names if key(item) != "hero"]
    else:
        names[0], names[1] = names[1], names[0]
    return names
def encode(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
child = subprocess.Popen([%(binary)r] + sys.argv[1:], stdout=subprocess.PIPE)
for raw in child.stdout:
    line = raw.decode("utf-8").rstrip("\\n")
    try:
        message = json.loads(line)
    except ValueError:
        message = None
    if isinstance(message, dict) and encode(message) == line:
        result, error = message.get("result"), message.get("error")
        if isinstance(result, dict) and isinstance(result.get("scenes"), list):
            result["scenes"] = change(result["scenes"])
            if isinstance(result.get("details"), list):
                result["details"] = change(result["details"], lambda item: item["name"], lambda name: ADDED)
            icons = (result.get("capabilities") or {}).get("icons")
            if KIND == "add" and isinstance(icons, dict):
                icons["added.symbol"] = "+"
                result["capabilities"]["icons"] = dict(sorted(icons.items()))
        if isinstance(error, dict) and "; scenes: " in str(error.get("message")):
            head, _, names = error["message"].rpartition("; scenes: ")
            error["message"] = head + "; scenes: " + ", ".join(change(names.split(", ")))
        if isinstance(error, dict) and "(scenes that take one: deck)" in str(error.get("message")):
            # A scene added that takes a card count too; the list of one cannot lose or swap a scene.
            if KIND == "add":
                error["message"] = error["message"].replace("take one: deck)", "take one: deck, added)")
        line = encode(message)
    sys.stdout.buffer.write((line + "\\n").encode("utf-8"))
    sys.stdout.buffer.flush()
sys.exit(child.wait())
'''


def catalogue_self_test(binary: str, corpus: list[Transcript], schema: Schema, directory: str) -> bool:
    """N5 has no more room than it says: a server with a scene added (in the middle of the list, with an icon of
    its own) replays the transcripts that list the catalogue, while one with a scene removed, or two scenes in
    another order, fails them."""
    named = {t.name: t for t in corpus}
    targets = [named[name] for name in ("lifecycle", "errors-params", "deck-generated") if name in named]
    ok = bool(targets)
    for kind, should_pass in (("add", True), ("remove", False), ("reorder", False)):
        fake = os.path.join(directory, "catalogue-" + kind)
        with open(fake, "w", encoding="utf-8") as handle:
            handle.write(FAKE_CATALOGUE % {"kind": kind, "binary": os.path.abspath(binary)})
        os.chmod(fake, 0o755)
        for transcript in targets:
            outcome = replay(fake, transcript, schema)
            differs = [f for f in outcome.failures if "reply differs" in f]
            passed = not outcome.failures if should_pass else bool(differs) and len(differs) == len(outcome.failures)
            ok &= passed
            print("  %-4s a server with a scene %s %s %s" % (
                "ok" if passed else "FAIL", {"add": "added:", "remove": "removed:", "reorder": "moved:"}[kind],
                transcript.name, ("passes" if should_pass else "fails, reply by reply") if passed
                else "NOT as expected: %s" % outcome.failures[:2]))
    return ok


def self_test(binary: str, schema: Schema, jobs: int) -> int:
    print("self-test: a replay of the corpus as recorded passes; each changed reply shape fails it")
    corpus = load_corpus([])
    kinds = ["add", "remove", "rename", "retype", "reorder"]
    sites = mutation_sites(corpus)
    cases: list[tuple[str, str, Transcript, int]] = []  # (kind, what, mutated transcript, mutated line number)
    chosen_plain: dict[str, Transcript] = {}
    for index, kind in enumerate(kinds):
        seen: set[str] = set()
        # Up to six sites per kind, each a different method's result or notification (rotated per kind).
        for what, transcript, number, message in sites[index * 7:] + sites[:index * 7]:
            if len(seen) == 6 or what in seen:
                continue
            mutated = copy.deepcopy(message)
            if not mutate(mutated, kind):
                continue
            seen.add(what)
            lines = list(transcript.lines)
            lines[number - 1] = EXPECT + compact(mutated)
            cases.append((kind, what, parse_transcript(transcript.path, "\n".join(lines) + "\n"), number))
            chosen_plain[transcript.name] = transcript
    plain = run_all(binary, list(chosen_plain.values()), schema, False, jobs)
    ok = True
    for outcome in plain:
        passed = not outcome.failures
        ok &= passed
        print("  %-4s unmutated %-28s %s" % ("ok" if passed else "FAIL", outcome.transcript.name,
                                              "passes" if passed else "fails: " + outcome.failures[0]))
    mutated = run_all(binary, [case[2] for case in cases], schema, False, jobs)
    for (kind, what, transcript, number), outcome in zip(cases, mutated):
        at_line = any(":%d: reply differs" % number in failure for failure in outcome.failures)
        ok &= at_line
        print("  %-4s %-7s %-30s %s:%d %s" % ("ok" if at_line else "FAIL", kind, what, transcript.name, number,
                                              "fails there" if at_line else "NOT reported: %s" % outcome.failures[:1]))
    with tempfile.TemporaryDirectory(prefix="cardistry-fake-server-") as directory:
        fake = os.path.join(directory, "renamed-member")
        with open(fake, "w", encoding="utf-8") as handle:
            handle.write(FAKE_SERVER % os.path.abspath(binary))
        os.chmod(fake, 0o755)
        targets = [t for t in corpus if any('"result":{"closed":' in e for s in t.steps for _, e in s.expected)]
        outcome = replay(fake, targets[0], schema)
        caught = any("reply differs" in f for f in outcome.failures) and any("schema" in f for f in outcome.failures)
        ok &= caught
        print("  %-4s a server that renames scene.close's 'closed' (%s): %s" % (
            "ok" if caught else "FAIL", targets[0].name,
            "fails (differs, and the schema refuses it)" if caught else "NOT caught: %s" % outcome.failures))
        ok &= catalogue_self_test(binary, corpus, schema, directory)
    print("self-test: %d mutations, %s" % (len(cases), "every one fails the replay" if ok else "FAILED"))
    return 0 if ok else 1


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", help="the cardistry executable (e.g. .build/release/cardistry)")
    parser.add_argument("--record", action="store_true", help="rewrite the expected lines from the server")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="replay only this transcript")
    parser.add_argument("--self-test", action="store_true", help="show that changed reply shapes fail")
    parser.add_argument("--jobs", type=int, default=2, help="transcripts replayed at once (default 2)")
    options = parser.parse_args(argv)
    # Absolute: each server runs in its transcript's temporary directory, where a relative path means nothing.
    binary = os.path.abspath(options.binary) if os.sep in options.binary else (
        shutil.which(options.binary) or options.binary)
    schema = Schema()
    started = time.monotonic()
    if options.self_test:
        status = self_test(binary, schema, options.jobs)
        print("self-test took %.1f s" % (time.monotonic() - started))
        return status
    transcripts = load_corpus(options.only)
    outcomes = run_all(binary, transcripts, schema, options.record, options.jobs)
    failed = 0
    for outcome in outcomes:
        name = outcome.transcript.path.relative_to(REPO_ROOT)
        if options.record:
            text = rewrite(outcome.transcript, outcome)
            changed = text != outcome.transcript.path.read_text(encoding="utf-8")
            if outcome.failures:
                failed += 1
                print("RECORD FAILED %s\n  %s" % (name, "\n  ".join(outcome.failures)))
            else:
                outcome.transcript.path.write_text(text, encoding="utf-8")
                print("recorded %s%s" % (name, " (changed)" if changed else ""))
            continue
        if outcome.failures:
            failed += 1
            print("FAIL %s (%.2f s)" % (name, outcome.seconds))
            for failure in outcome.failures[:10]:
                print("  " + failure)
            if len(outcome.failures) > 10:
                print("  … and %d more" % (len(outcome.failures) - 10))
        else:
            lines = sum(len(step.expected) for step in outcome.transcript.steps)
            extra = ", %d streamed frames" % outcome.streamed_frames if outcome.transcript.realtime else ""
            print("ok   %s: %d requests, %d replies%s (%.2f s)" % (
                name, len(outcome.transcript.steps), lines, extra, outcome.seconds))
    elapsed = time.monotonic() - started
    verb = "recorded" if options.record else "replayed"
    print("%s %d transcripts in %.1f s: %s" % (verb, len(outcomes), elapsed,
                                              "%d failed" % failed if failed else "all passed"))
    if options.record:
        print("review the change with `git diff conformance/` before committing it")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
