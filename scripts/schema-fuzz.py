#!/usr/bin/env python3
"""Schema fuzz in both directions (issue 26): docs/protocol.schema.json against `BINARY stdio`.

    python3 scripts/schema-fuzz.py BINARY [--seed N] [--cases N] [--verbose]

For every request method in the schema (`#/$defs/params.METHOD`) and every action a scene declares in
`scene.open`'s `actions[].schema`, a seeded generator (random.Random(seed), no clock) makes params that are valid by
the schema and sends them to a server in the right state (initialised, the right scene open, a store); then it
mutates them into near-misses (a required member dropped, a member of the wrong type, a bound crossed by one, an
extra member, a value outside an enum, a pattern broken such as card id "00401"). The rules:

  valid by the schema  ⇒ the server accepts it, or refuses it with a code the document gives for the state
                         (−32010 unknown scene, −32011 unknown card, −32012 a refusal in this state, −32013 a store
                         error) or with −32602 for a rule the document states and a schema cannot (`ALLOWED`,
                         below: a position past the deck's end, a clock.advance before the clock, …);
  invalid by the schema ⇒ the server refuses it with −32602 or −32600.

Then the wire's corners (WIRE_CORNERS: lines no schema describes, such as a non-finite id or a response object),
each answered with the code and id the document gives, and seeded mutations of them: every reply strict JSON.

A case that breaks a rule is a disagreement. Those already known (the server is wrong and will be fixed, or the
document must decide) are listed in KNOWN_DISAGREEMENTS, reported but not failing; remove an entry when it is fixed
(the script then says it no longer happens). Exit status 1 on any other disagreement.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from wire import Schema, Server, clean_env, compact  # noqa: E402

KEY_NAMES = ["left", "right", "up", "down", "tab", "backtab", "enter", "space", "escape", "backspace", "home", "end",
             "pageup", "pagedown"]
MAX_TIME = 1_000_000_000
TIMEOUT = 20.0

# ---------------------------------------------------------------------------------------------------------------
# Known disagreements: (name, what is wrong, predicate on (method, params, reply)). Remove an entry once fixed.

Predicate = Callable[[str, dict[str, Any], dict[str, Any]], bool]


def _error(reply: dict[str, Any]) -> tuple[Optional[int], str]:
    error = reply.get("error") or {}
    return error.get("code"), error.get("message", "")


def _action_to_past_end(method: str, params: dict[str, Any], reply: dict[str, Any]) -> bool:
    code, message = _error(reply)
    return (method == "scene.action" and params.get("name") == "move" and code == -32602
            and "'to' must be" in message)


def _action_time_range(method: str, params: dict[str, Any], reply: dict[str, Any]) -> bool:
    code, message = _error(reply)
    return method == "scene.action" and code == -32602 and "'t' must be in 0…1000000000" in message


def _state_error_before_bad_field(method: str, params: dict[str, Any], reply: dict[str, Any]) -> bool:
    code, _ = _error(reply)
    # Only a near-miss can get here with these codes: for a schema-valid request `allowed` accepts them.
    return code in (-32010, -32011, -32012, -32013)


KNOWN_DISAGREEMENTS: list[tuple[str, str, Predicate]] = [
    # None known. (The move action's missing maximum, the actions' `t` range and state errors answered before a bad
    # field were fixed in the server; their predicates stay above to recognise a regression's cause quickly.)
]

# ---------------------------------------------------------------------------------------------------------------
# Documented refusals of schema-valid requests (docs/protocol.md states each; a schema cannot express them).


@dataclass
class State:
    scene: Optional[str] = None
    cards: list[str] = field(default_factory=list)
    clock: float = 0.0
    saved: set[str] = field(default_factory=set)
    actions: dict[str, Any] = field(default_factory=dict)  # the open scene's action schemas, by name
    details: dict[str, Any] = field(default_factory=dict)  # scene.list's details, by scene name
    nodes: list[str] = field(default_factory=list)  # the open scene's accessibility node ids, as scene.open gave them


def allowed(method: str, params: dict[str, Any], code: int, message: str, state: State) -> Optional[str]:
    """Why the document allows this refusal of a schema-valid request, or None."""
    if code == -32010 and method == "scene.open":
        return "unknown scene"
    if code == -32011:
        return "unknown card"
    if code == -32012:
        return "refused in this state"
    if code == -32013 and method in ("deck.save", "deck.load", "scene.open", "deck.list"):
        return "store error (name rule, missing deck)"
    if code != -32602:
        return None
    if method == "scene.define" and message.startswith("invalid params: 'description"):
        # The protocol's schema says only that a description is an object; docs/scene.schema.json and the loader's
        # type checker say what one must hold, and the refusal names the fault's pointer under `description`.
        return "a scene description the loader refuses (docs/scenes.md)"
    if method == "deck.move" and isinstance(params.get("to"), int) and params["to"] >= len(state.cards):
        return "a position outside the deck"
    if method == "clock.advance":
        if "to" in params and params["to"] < state.clock:
            return "to earlier than the clock"
        if "by" in params and state.clock + params["by"] > MAX_TIME:
            return "the time by leads to is past 1e9"
    if method == "deck.diff":
        for side in ("old", "new"):
            ids = [str(i) for i in params.get(side, [])]
            if len(set(ids)) != len(ids):
                return "a repeated id"
    if method == "scene.open" and "is not taken by the scene" in message:
        details = state.details.get(params.get("scene"), {})
        options = params.get("options") if isinstance(params.get("options"), dict) else {}
        if ("'options.cardCount'" in message and "cardCount" in options and details.get("takesCardCount") is False
                or "'deck'" in message and "deck" in params and details.get("takesDeck") is False
                or "'deckFile'" in message and "deckFile" in params and details.get("takesDeck") is False):
            return "cardCount, deck or deckFile for a scene that does not take one (scene.list's details say which)"
    if method == "scene.open" and "deck" in params and "deckFile" in params and "cannot be given together" in message:
        return "deckFile is instead of deck, not beside it"
    if method == "scene.action" and state.actions:
        schema = state.actions.get(params.get("name"))
        if schema is None:
            return "an unknown action (the scene's actions are in scene.open)"
        import jsonschema
        if not jsonschema.Draft202012Validator(schema).is_valid(params):
            return "the action's own schema (scene.open's actions[].schema) refuses it"
    if method == "initialize" and "protocolVersion" in message and not re.match(r"^1(\.|$)", params.get(
            "protocolVersion", "")):
        return "another major version"
    # Cells sessions (docs/protocol.md, "Cells frames"): frames "cells" and cells go together, and col/row,
    # cols/rows belong to cells sessions; the fuzz's sessions are of nodes.
    if method == "initialize" and "'cells'" in message:
        return "frames \"cells\" and cells go together"
    if method in ("input.pointer", "input.wheel", "viewport.resize") and "is taken only in a cells session" in message:
        return "col/row and cols/rows belong to cells sessions"
    if method == "scene.open" and "'deckFile' cannot read" in message:
        return "a deck file that cannot be read"
    # Accessibility (docs/protocol.md, "Accessibility"): the node must be in the tree as it is now, the action one it
    # offers, and customAction goes with action "customAction" only; the fuzz keeps scene.open's node ids, not the
    # updates since.
    if method == "a11y.action" and any(fragment in message for fragment in (
            "names no node", "is not offered by node", "custom actions", "is required with action",
            "is taken only with action", "cannot take the focus")):
        return "a node, an action or a custom action the tree does not offer now"
    return None


# ---------------------------------------------------------------------------------------------------------------
# Generating values from a schema.


class Generator:
    def __init__(self, schema: Schema, rng: random.Random) -> None:
        self.schema = schema
        self.rng = rng
        self.hints: dict[str, Callable[[], Any]] = {}  # by "method:path" or "path" (".card", ".options.cardCount")
        self.method = ""

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = self.schema.defs()[node["$ref"].split("/")[-1]]
        return node

    def number(self, node: dict[str, Any], integer: bool) -> Any:
        rng = self.rng
        low = node.get("minimum", node.get("exclusiveMinimum", -1000))
        high = node.get("maximum", node.get("exclusiveMaximum", max(low, 0) + 1000))
        choices = [low, high, (low + high) / 2, rng.uniform(low, min(high, low + 50)), rng.uniform(low, high)]
        if "maximum" not in node and "exclusiveMaximum" not in node:
            choices += [100001, 1e7, 2 ** 53]  # unbounded by the schema: the server must take large values too
        if "minimum" not in node and "exclusiveMinimum" not in node:
            choices += [-1, -1e7]
        for _ in range(20):
            value = rng.choice(choices)
            value = int(round(value)) if integer else (round(value, rng.choice([0, 1, 3])) if rng.random() < 0.7
                                                       else value)
            if "exclusiveMinimum" in node and value <= node["exclusiveMinimum"]:
                continue
            if "exclusiveMaximum" in node and value >= node["exclusiveMaximum"]:
                continue
            if ("minimum" not in node or value >= node["minimum"]) and ("maximum" not in node or value <= node["maximum"]):
                return value
        return int(high) if integer else high

    def string(self, node: dict[str, Any]) -> str:
        rng = self.rng
        pattern = node.get("pattern")
        if pattern == "^(0|[1-9][0-9]*)$":
            return rng.choice(["0", str(rng.randint(1, 999)), str(rng.randint(1, 2 ** 64 - 1))])
        if pattern == "^[0-9]+(\\.[0-9]+)?$":
            return rng.choice(["1", "1.0", "1.%d" % rng.randint(0, 99), "%d.%d" % (rng.randint(0, 9), rng.randint(0, 9))])
        if node.get("maxLength") == 1:  # input.key's one printable character
            return rng.choice(list("aZ9 é中😀[/") + ["\u00a0"])
        if pattern:
            raise ValueError("no generator for pattern %s" % pattern)
        alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_. é"
        length = rng.randint(max(1, node.get("minLength", 0)), 12)
        return "".join(rng.choice(alphabet) for _ in range(length))

    def value(self, node: dict[str, Any], path: str = "") -> Any:
        rng = self.rng
        for key in (self.method + ":" + path, path):
            if key in self.hints and rng.random() < 0.85:
                return self.hints[key]()
        node = self.resolve(node)
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return rng.choice(node["enum"])
        for key in ("anyOf", "oneOf"):
            if key in node and "type" not in node:
                branch = rng.choice(node[key])
                merged = {k: v for k, v in node.items() if k != key}
                merged.update(self.resolve(branch))
                return self.value(merged, path)
        kind = node.get("type", "object")
        if isinstance(kind, list):
            kind = rng.choice(kind)
        if kind == "object":
            out: dict[str, Any] = {}
            required = set(node.get("required", []))
            if "oneOf" in node:  # exactly one of (clock.advance's to/by, scroll's to/by)
                required |= set(rng.choice(node["oneOf"])["required"])
                excluded = {name for branch in node["oneOf"] for name in branch["required"]} - required
            else:
                excluded = set()
            for name, sub in node.get("properties", {}).items():
                if name in excluded:
                    continue
                if name in required or rng.random() < 0.5:
                    out[name] = self.value(sub, path + "." + name)
            return out
        if kind == "array":
            return [self.value(node.get("items", {}), path + "[]") for _ in range(rng.randint(0, 4))]
        if kind in ("integer", "number"):
            return self.number(node, kind == "integer")
        if kind == "string":
            return self.string(node)
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "null":
            return None
        raise ValueError("no generator for %s" % node)


# ---------------------------------------------------------------------------------------------------------------
# Near-misses: one change that takes a valid value out of its schema (most of the time).


def slots(gen: Generator, node: dict[str, Any], value: Any, path: list[str]) -> list[tuple[list[str], dict[str, Any]]]:
    """Every member of `value` (nested objects included) with its subschema."""
    node = gen.resolve(node)
    out: list[tuple[list[str], dict[str, Any]]] = []
    if isinstance(value, dict):
        for name, sub in node.get("properties", {}).items():
            if name in value:
                sub = gen.resolve(sub)
                out.append((path + [name], sub))
                if sub.get("type") == "object":
                    out += slots(gen, sub, value[name], path + [name])
    return out


def set_at(value: dict[str, Any], path: list[str], new: Any, delete: bool = False) -> None:
    for name in path[:-1]:
        value = value[name]
    if delete:
        del value[path[-1]]
    else:
        value[path[-1]] = new


def near_misses(gen: Generator, node: dict[str, Any], valid: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    rng = gen.rng
    out: list[tuple[str, dict[str, Any]]] = []
    root = gen.resolve(node)
    if "oneOf" in root and "properties" not in root:  # clock.advance: mutate within the chosen branch
        root = next((b for b in root["oneOf"] if set(b.get("required", [])) <= set(valid)), root["oneOf"][0])
    for name in root.get("required", []):
        if name in valid:
            changed = copy.deepcopy(valid)
            del changed[name]
            out.append(("drop required '%s'" % name, changed))
    changed = copy.deepcopy(valid)
    changed["zzExtra"] = rng.choice([1, "x", True])
    out.append(("extra member", changed))
    for path, sub in slots(gen, root, valid, []):
        where = ".".join(path)
        kinds = sub.get("type")
        if "anyOf" in sub:
            kinds = [gen.resolve(b).get("type") for b in sub["anyOf"]]
        kinds = kinds if isinstance(kinds, list) else [kinds]
        wrong = [v for t, v in (("string", "7"), ("number", 7.5), ("integer", 7), ("boolean", True),
                                ("null", None), ("array", [1]), ("object", {"a": 1}))
                 if t not in kinds and not (t == "integer" and "number" in kinds)
                 and not (t == "number" and kinds == [None])]
        if "const" in sub or "enum" in sub:
            wrong = [v for v in wrong if not isinstance(v, str)] + ["notInTheEnum"]
        if wrong and kinds != [None] or "enum" in sub:
            changed = copy.deepcopy(valid)
            set_at(changed, path, rng.choice(wrong))
            out.append(("wrong type or enum at '%s'" % where, changed))
        for bound, delta in (("minimum", -1), ("maximum", 1), ("exclusiveMinimum", 0), ("exclusiveMaximum", 0)):
            if bound in sub:
                changed = copy.deepcopy(valid)
                set_at(changed, path, sub[bound] + delta)
                out.append(("%s crossed at '%s'" % (bound, where), changed))
        if sub.get("minLength"):
            changed = copy.deepcopy(valid)
            set_at(changed, path, "")
            out.append(("minLength at '%s'" % where, changed))
        patterned = sub.get("pattern") or any(gen.resolve(b).get("pattern") for b in sub.get("anyOf", []))
        if patterned:
            changed = copy.deepcopy(valid)
            set_at(changed, path, rng.choice(["00401", "-1", "1.5", " 1", "1e3", "v1", "x", "ab", "\u0007", "🇫🇷"]))
            out.append(("pattern broken at '%s'" % where, changed))
        if sub.get("type") == "array" and "items" in sub:
            item = gen.resolve(sub["items"])
            changed = copy.deepcopy(valid)
            set_at(changed, path, [rng.choice(["00401", -1, 1.5, "x", None])] if "enum" not in item
                   else ["notInTheEnum"])
            out.append(("bad item at '%s'" % where, changed))
    return out


# ---------------------------------------------------------------------------------------------------------------
# The session.


@dataclass
class Case:
    method: str
    params: dict[str, Any]
    schema_valid: bool
    what: str


@dataclass
class Finding:
    rule: str
    case: Case
    line: str
    reply: str
    schema_errors: list[str]


class Session:
    def __init__(self, binary: str, store: str, verbose: bool) -> None:
        self.binary = binary
        self.store = store
        self.verbose = verbose
        self.server: Optional[Server] = None
        self.state = State()
        # The server's catalogue (from `initialize`), so every scene it has is fuzzed, a new one included.
        self.scenes: list[str] = []
        self.next_id = 100
        self.requests = 0
        self.env = clean_env(os.path.join(store, "home"))

    def start(self, initialize: bool = True) -> None:
        self.stop()
        self.server = Server(self.binary, ["--store", os.path.join(self.store, "store")], env=self.env)
        self.state = State()
        if initialize:
            # With accessibility, so that a11y.action is a method to fuzz (a session without it has none).
            reply = self.call(
                "initialize", {"protocolVersion": "1.0", "viewport": {"width": 390, "height": 844}, "accessibility": True})
            assert "result" in reply, reply
            self.scenes = reply["result"]["scenes"]
            assert len(self.scenes) >= 5, reply
            listed = self.call("scene.list", None)
            self.state.details = {details["name"]: details for details in listed["result"]["details"]}

    def stop(self) -> None:
        if self.server:
            self.server.kill()
            self.server = None

    def send_line(self, line: str) -> dict[str, Any]:
        assert self.server is not None
        self.requests += 1
        if not self.server.send_text(line):
            raise RuntimeError("the server closed its input; stderr: %s" % self.server.stderr_text()[-500:])
        request_id = json.loads(line).get("id")
        while True:
            got = self.server.next_line(TIMEOUT)
            if got is None:
                raise RuntimeError("no response to %s; stderr: %s" % (line[:200], self.server.stderr_text()[-500:]))
            message = json.loads(got)
            if isinstance(message, dict) and "method" not in message and message.get("id") == request_id:
                return message

    def call(self, method: str, params: Optional[dict[str, Any]]) -> dict[str, Any]:
        self.next_id += 1
        request: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        reply = self.send_line(compact(request))
        self.track(method, params or {}, reply)
        return reply

    def track(self, method: str, params: dict[str, Any], reply: dict[str, Any]) -> None:
        result = reply.get("result")
        if not isinstance(result, dict):
            return
        if method == "scene.open":
            self.state.scene = result["scene"]
            self.state.actions = {action["name"]: action["schema"] for action in result["actions"]}
            tree = result.get("accessibility")
            self.state.nodes = [node["id"] for node in tree["nodes"]] if isinstance(tree, dict) else []
            self.refresh_cards()
        elif method == "scene.close":
            self.state.scene, self.state.cards, self.state.actions, self.state.nodes = None, [], {}, []
        elif method in ("deck.load", "scene.action") and self.state.scene:
            self.refresh_cards()
        elif method == "deck.save":
            self.state.saved.add(result["name"])
        frame = result.get("frame")
        if isinstance(result.get("t"), (int, float)):
            self.state.clock = max(self.state.clock, result["t"])
        if isinstance(frame, dict):
            self.state.clock = max(self.state.clock, frame["t"])

    def refresh_cards(self) -> None:
        reply = self.call("deck.get", {"limit": 10000})
        self.state.cards = [card["id"] for card in reply["result"]["cards"]] if "result" in reply else []

    def open(self, scene: str, **params: Any) -> dict[str, Any]:
        reply = self.call("scene.open", {"scene": scene, **params})
        assert "result" in reply, reply
        return reply["result"]


# ---------------------------------------------------------------------------------------------------------------


class Fuzz:
    def __init__(self, binary: str, seed: int, cases: int, verbose: bool) -> None:
        self.schema = Schema()
        self.rng = random.Random(seed)
        self.gen = Generator(self.schema, self.rng)
        self.cases = cases
        self.verbose = verbose
        self.store = tempfile.mkdtemp(prefix="cardistry-schema-fuzz-")
        os.mkdir(os.path.join(self.store, "home"))
        self.session = Session(binary, self.store, verbose)
        self.findings: list[Finding] = []
        self.known: dict[str, list[Finding]] = {name: [] for name, _, _ in KNOWN_DISAGREEMENTS}
        self.counts = {"valid": 0, "near-miss": 0, "accepted": 0, "refused": 0}

    # Hints: values that reach the server's deeper checks (card ids of the open deck, known scene names).
    def install_hints(self) -> None:
        rng, session = self.rng, self.session  # session.state is replaced when a server starts

        def card() -> Any:
            if session.state.cards and rng.random() < 0.85:
                chosen = rng.choice(session.state.cards)
                return int(chosen) if rng.random() < 0.2 else chosen
            return rng.choice([str(rng.randint(0, 99999)), rng.randint(0, 99999), str(2 ** 64 - 1)])

        def ids() -> list[Any]:
            pool = session.state.cards or ["1", "2", "3"]
            return rng.sample(pool, rng.randint(0, min(len(pool), 6)))

        def store_name() -> str:
            return rng.choice(["deck", "mine", "a.b-c_d", "x" * 64] + sorted(session.state.saved))

        self.gen.hints = {
            ".card": card, ".line": card, ".old": ids, ".new": ids,
            ".scene": lambda: rng.choice(session.scenes),
            ".key": lambda: rng.choice(KEY_NAMES + list("az09[]/ ")),
            ".name": store_name,
            ".protocolVersion": lambda: rng.choice(["1", "1.0", "1.7", "1.12"]),
            ".options.cardCount": lambda: rng.randint(0, 40),
            ".deck": store_name,
            ".offset": lambda: rng.randint(0, 15),
            # Mostly in range; now and then one past the end (documented −32602 for deck.move) or a time outside
            # 0…1e9 (refused by every schema that bounds it; an action schema must bound it too).
            ".to": lambda: rng.randint(0, max(0, len(session.state.cards) - 1)) if rng.random() < 0.85 else len(session.state.cards),
            ".t": lambda: (round(session.state.clock + rng.choice([0, 0.1, 1, 5]), 3) if rng.random() < 0.85
                           else rng.choice([-1, MAX_TIME + 1, 1.7e12])),
            "scene.action:.name": lambda: rng.choice(sorted(session.state.actions) or ["none"]),
            "a11y.action:.node": lambda: rng.choice(session.state.nodes or ["none"]),
            "a11y.action:.customAction": lambda: rng.randint(0, 4),
        }

    def check(self, case: Case) -> None:
        session = self.session
        state_before = copy.deepcopy(session.state)
        reply = session.call(case.method, case.params)
        self.counts["valid" if case.schema_valid else "near-miss"] += 1
        line = compact({"jsonrpc": "2.0", "id": session.next_id, "method": case.method, "params": case.params})
        code, message = _error(reply)
        self.counts["refused" if code else "accepted"] += 1
        rule = None
        if case.schema_valid:
            if code is not None and allowed(case.method, case.params, code, message, state_before) is None:
                rule = "valid by the schema, refused by the server"
        else:
            if code not in (-32602, -32600):
                rule = "invalid by the schema, %s by the server" % ("accepted" if code is None else "refused with %d"
                                                                     % code)
        if rule is None:
            return
        finding = Finding(rule, case, line, compact(reply), self.case_errors(case))
        for name, _, predicate in KNOWN_DISAGREEMENTS:
            if predicate(case.method, case.params, reply):
                self.known[name].append(finding)
                return
        self.findings.append(finding)
        if self.verbose:
            print("DISAGREE %s\n  → %s\n  ← %s" % (rule, line, finding.reply))

    def case_errors(self, case: Case) -> list[str]:
        return getattr(case, "errors", [])

    def ensure(self, method: str) -> None:
        """Puts the server in a state where `method` can do its work."""
        session = self.session
        needs_scene = method not in ("scene.list", "scene.open", "deck.diff", "deck.list", "deck.save", "deck.load",
                                     "initialize", "shutdown", "exit")
        if method in ("deck.save", "deck.load", "deck.move", "deck.sort", "deck.get"):
            if session.state.scene not in ("deck", "wallet", "flashcards", "hero"):
                session.open(self.rng.choice(["deck", "wallet", "flashcards", "hero"]))
        elif needs_scene and session.state.scene is None:
            session.open(self.rng.choice(session.scenes))
        if method == "deck.load" and not session.state.saved:
            session.call("deck.save", {})
        if session.state.clock > MAX_TIME / 2:
            session.start()  # a fresh clock, so later times stay in range
            self.ensure(method)

    def request_methods(self) -> list[str]:
        return sorted(name[len("params."):] for name in self.schema.defs() if name.startswith("params."))

    def run_method(self, method: str) -> None:
        session = self.session
        node = {"$ref": "#/$defs/params." + method}
        validator = self.schema.validator("params." + method)
        lifecycle = method in ("initialize", "shutdown", "exit")
        count = self.cases if not lifecycle else max(4, self.cases // 6)
        self.gen.method = method
        for _ in range(count):
            if lifecycle:
                session.start(initialize=method != "initialize")
            else:
                self.ensure(method)
            valid = self.gen.value(node)
            if not validator.is_valid(valid):
                continue
            self.check(Case(method, valid, True, "valid"))
            if method == "exit" or (method == "shutdown"):
                continue
            for what, changed in near_misses(self.gen, node, valid):
                if lifecycle:
                    session.start(initialize=False)
                else:
                    self.ensure(method)
                ok = validator.is_valid(changed)
                case = Case(method, changed, ok, what)
                case.errors = [e.message for e in validator.iter_errors(changed)][:2]  # type: ignore[attr-defined]
                self.check(case)
        session.start()

    def run_actions(self) -> None:
        session = self.session
        for scene in session.scenes:
            session.start()
            opened = session.open(scene)
            actions = opened["actions"]
            self.gen.method = "action"
            for action in actions:
                fragment = action["schema"]
                validator = self.schema.fragment_validator(fragment)
                for _ in range(self.cases):
                    if session.state.scene != scene or session.state.clock > MAX_TIME / 2:
                        session.start()
                        session.open(scene)
                    valid = self.gen.value(fragment)
                    if not validator.is_valid(valid):
                        continue
                    self.check(Case("scene.action", valid, True, "valid (%s.%s)" % (scene, action["name"])))
                    for what, changed in near_misses(self.gen, fragment, valid):
                        if what.startswith("wrong type or enum at 'name'") or what == "drop required 'name'":
                            continue  # another action's name, or none: not this action's schema any more
                        ok = validator.is_valid(changed)
                        case = Case("scene.action", changed, ok, "%s (%s.%s)" % (what, scene, action["name"]))
                        case.errors = [e.message for e in validator.iter_errors(changed)][:2]  # type: ignore
                        self.check(case)
                    if self.rng.random() < 0.1:
                        session.open(scene)  # start the scene over now and then (flashcards swiped away)

    def run(self) -> int:
        started = time.monotonic()
        try:
            self.session.start()
            self.install_hints()
            for method in self.request_methods():
                self.run_method(method)
            self.run_actions()
        finally:
            self.session.stop()
            shutil.rmtree(self.store, ignore_errors=True)
        return self.report(time.monotonic() - started)

    def report(self, seconds: float) -> int:
        total = self.counts["valid"] + self.counts["near-miss"]
        print("schema fuzz: %d cases (%d valid by the schema, %d near-misses; %d accepted, %d refused) in %.1f s, "
              "%d requests" % (total, self.counts["valid"], self.counts["near-miss"], self.counts["accepted"],
                               self.counts["refused"], seconds, self.session.requests))
        for name, description, _ in KNOWN_DISAGREEMENTS:
            found = self.known[name]
            if found:
                print("known disagreement %s (%d cases): %s\n  e.g. → %s\n       ← %s" % (
                    name, len(found), description, found[0].line, found[0].reply))
            else:
                print("known disagreement %s: no longer happens; remove it from KNOWN_DISAGREEMENTS" % name)
        groups: dict[str, list[Finding]] = {}
        for finding in self.findings:
            _, message = _error(json.loads(finding.reply))
            key = "%s | %s | %s | %s" % (finding.rule, finding.case.method, finding.case.what.split(" (")[0],
                                         re.sub(r"[0-9.]+", "N", message)[:120])
            groups.setdefault(key, []).append(finding)
        for key, found in sorted(groups.items()):
            first = found[0]
            print("DISAGREEMENT (%d cases) %s\n  → %s\n  ← %s%s" % (
                len(found), key, first.line, first.reply,
                "\n  schema: %s" % "; ".join(first.schema_errors) if first.schema_errors else ""))
        if self.findings:
            print("schema fuzz: %d disagreements in %d groups" % (len(self.findings), len(groups)))
            return 1
        print("schema fuzz: no disagreement outside KNOWN_DISAGREEMENTS")
        return 0


# The wire's corners (issue 45): lines a schema cannot describe, each with the error code and id docs/protocol.md
# gives ("Which error wins", "Messages"). Every reply must be strict JSON: no NaN, no Infinity, no number a reader
# takes as infinity (an echoed `1e999`).
WIRE_CORNERS: list[tuple[str, int, Any]] = [
    ('{"jsonrpc":"2.0","id":1e999,', -32700, None),
    ('{"jsonrpc":"2.0","id":1e999,"method":"scene.list"}', -32600, None),
    ('{"jsonrpc":"2.0","id":' + "9" * 400 + ',"method":"scene.list"}', -32600, None),
    ('{"jsonrpc":"2.0","id":' + "9" * 400 + ',', -32700, None),
    ('{"jsonrpc":"2.0","a":NaN,"id":5,', -32700, None),
    ('{"jsonrpc":"2.0","id":6,"method":"scene.list",', -32700, 6),
    ('{"result":1}', -32600, None),
    ('{"jsonrpc":"1.0","error":null}', -32600, None),
    ('{"jsonrpc":"2.0","id":7,"method":"viewport.resize","params":{"width":390,"height":390,"cols":7,"zzz":1}}',
     -32602, 7),
    ('{"jsonrpc":"2.0","id":8,"method":"input.pointer","params":{"phase":"down","x":1,"y":1,"t":-1}}', -32602, 8),
    ('{"jsonrpc":"2.0","id":9,"method":"deck.save","params":{"name":5}}', -32602, 9),
    ('{"jsonrpc":"2.0","id":10,"method":"exit","params":{"x":1}}', -32602, 10),
]


def strict_json(line: str) -> Any:
    """`line` parsed as strict JSON; ValueError for NaN, Infinity or a number that overflows a double."""
    def constant(name: str) -> Any:
        raise ValueError("non-finite constant " + name)

    def number(text: str) -> float:
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise ValueError("non-finite number " + text[:40])
        return value

    return json.loads(line, parse_constant=constant, parse_float=number, parse_int=lambda t: int(number(t)))


def wire_corners(binary: str, seed: int, mutations: int) -> int:
    """Sends WIRE_CORNERS (each answered with its code and id) and `mutations` seeded mutations of them (each
    answered with strict JSON, the server still serving); returns the number of failures, each printed."""
    home = tempfile.mkdtemp(prefix="cardistry-wire-corners-")
    server = Server(binary, [], env=clean_env(home))
    failures = 0
    try:
        server.send_text('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"1.0",'
                         '"viewport":{"width":390,"height":844}}}')
        server.next_line(TIMEOUT)
        lines = [(line, code, id) for line, code, id in WIRE_CORNERS]
        rng = random.Random(seed)
        for _ in range(mutations):
            text = bytearray(rng.choice(WIRE_CORNERS)[0].encode("utf-8"))
            for _ in range(rng.randrange(1, 4)):
                position = rng.randrange(len(text))
                choice = rng.randrange(3)
                if choice == 0:
                    text[position] = rng.choice(b'0123456789e.-+,:{}[]"NaInfity ')
                elif choice == 1:
                    text.insert(position, rng.choice(b'0123456789e.-+,:{}[]"'))
                else:
                    del text[position:]
                if not text:
                    text = bytearray(b"{}")
            lines.append((text.decode("utf-8", "replace").replace("\n", " "), None, None))
        for index, (line, code, expected_id) in enumerate(lines):
            server.send_text(line)
            # A probe after each line: the replies to the line (if any) come before the probe's answer.
            server.send_text('{"jsonrpc":"2.0","id":"probe-%d","method":"scene.list"}' % index)
            while True:
                got = server.next_line(TIMEOUT)
                if got is None:
                    print("WIRE CORNER: no answer after %s" % line[:120])
                    return failures + 1
                try:
                    message = strict_json(got)
                except ValueError as error:
                    failures += 1
                    print("WIRE CORNER: not strict JSON (%s)\n  → %s\n  ← %s" % (error, line[:120], got[:200]))
                    continue
                if isinstance(message, dict) and message.get("id") == "probe-%d" % index:
                    break
                if code is not None:
                    got_code = (message.get("error") or {}).get("code") if isinstance(message, dict) else None
                    if got_code != code or message.get("id") != expected_id:
                        failures += 1
                        print("WIRE CORNER: expected code %s and id %r\n  → %s\n  ← %s" % (
                            code, expected_id, line[:120], got[:200]))
    finally:
        server.kill()
        shutil.rmtree(home, ignore_errors=True)
    print("wire corners: %d lines (%d corners, %d mutations), %d failures" % (
        len(lines), len(WIRE_CORNERS), mutations, failures))
    return failures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--cases", type=int, default=40, help="valid cases per method and per action (default 40)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--corner-mutations", type=int, default=2000,
                        help="seeded mutations of the wire's corner lines (default 2000)")
    options = parser.parse_args(argv)
    binary = options.binary if os.sep in options.binary else (shutil.which(options.binary) or options.binary)
    status = Fuzz(binary, options.seed, options.cases, options.verbose).run()
    if wire_corners(binary, options.seed, options.corner_mutations):
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
