#!/usr/bin/env python3
"""Checks every scene's accessibility tree over stdio against docs/protocol.schema.json (issue 51).

    python3 scripts/a11y-schema-check.py BINARY              # every scene: exit 1 on any finding
    python3 scripts/a11y-schema-check.py BINARY --self-test  # prove that a broken tree is found

For every scene the server lists, and the data scenes in scenes/*.json (defined by `scene.define`), a fresh
`BINARY stdio` with `initialize {accessibility: true}` opens the scene and checks, against the schema
(`#/$defs/serverMessage` for every line, `#/$defs/result.METHOD` for each result):

- at rest: `scene.open`'s `accessibility` tree, and that it holds together (the root, every child and the focus
  name nodes of the tree);
- after each accessibility action the tree offers (every action of every node, each custom action by id), each in a
  scene opened afresh: the reply and every `a11y.update`, and that the update applied to the tree at rest gives a
  tree that holds together;
- after each action the scene declares (`scene.open`'s `actions`, with arguments made from each action's `schema`:
  a card of the tree, a number in range, a string of its enumeration), each in a scene opened afresh: the same.

Conformance transcripts check two scenes' trees line by line; this checks the shape of every scene's.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from wire import REPO_ROOT, Schema, Server, clean_env  # noqa: E402

TIMEOUT = 10.0
VIEWPORT = {"width": 390, "height": 844}


class Session:
    """One `stdio` process with accessibility on: requests, their results, and the lines between, each checked."""

    def __init__(self, binary: str, schema: Schema, home: str, findings: list[str], where: str) -> None:
        self.server = Server(binary, [], env=clean_env(home), cwd=home)
        self.schema = schema
        self.findings = findings
        self.where = where
        self.next_id = 1
        self.updates: list[dict[str, Any]] = []

    def request(self, method: str, params: dict[str, Any]) -> Optional[Any]:
        """Sends a request and returns its reply's `result` (None after an error reply or no reply)."""
        ident = self.next_id
        self.next_id += 1
        self.server.send_text(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}))
        while True:
            line = self.server.next_line(TIMEOUT)
            if line is None:
                self.findings.append("%s: no reply to %s" % (self.where, method))
                return None
            message = json.loads(line)
            problems = self.schema.errors("serverMessage", message)
            if "result" in message and "result." + method in self.schema.defs():
                problems += self.schema.errors("result." + method, message["result"])
            for problem in problems:
                self.findings.append("%s: %s: %s" % (self.where, method, problem))
            if message.get("method") == "a11y.update":
                self.updates.append(message["params"])
            if message.get("id") == ident:
                return message.get("result")

    def close(self) -> None:
        self.server.kill()


def holds_together(tree: dict[str, Any]) -> list[str]:
    """What is wrong with a tree's structure: the root, each child and the focus must name nodes."""
    nodes = {node["id"]: node for node in tree.get("nodes", [])}
    problems = []
    if tree.get("root") not in nodes:
        problems.append("the root names no node")
    for node in nodes.values():
        for child in node.get("children", []):
            if child not in nodes:
                problems.append("%s has a child %s that is not a node" % (node["id"], child))
    if tree.get("focus") is not None and tree["focus"] not in nodes:
        problems.append("the focus %s is not a node" % tree["focus"])
    return problems


def applied(tree: dict[str, Any], updates: list[dict[str, Any]]) -> dict[str, Any]:
    """The tree after `updates` (changed nodes replace theirs, removed ones go, the focus is the update's)."""
    nodes = {node["id"]: node for node in tree["nodes"]}
    focus = tree.get("focus")
    for update in updates:
        for node in update.get("nodes", []):
            nodes[node["id"]] = node
        for removed in update.get("removed", []):
            nodes.pop(removed, None)
        focus = update.get("focus")
    return {"root": tree["root"], "nodes": list(nodes.values()), "focus": focus}


def example(schema: dict[str, Any], cards: list[str]) -> Any:
    """A value that `schema` (an action argument's) accepts: a card of the tree for a card id (a string with a
    pattern), the first of an enumeration, a number in range."""
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return example(schema[key][0], cards)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = kind[0]
    if kind == "string":
        return cards[0] if cards and "pattern" in schema else schema.get("default", cards[0] if cards else "1")
    if kind in ("number", "integer"):
        low = schema.get("minimum", 0)
        high = schema.get("maximum", low + 1)
        return min(max(1, low), high)
    if kind == "boolean":
        return True
    return None


def declared_examples(action: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    """Arguments for a declared action (its required ones, else its first), from its `schema`."""
    shape = action.get("schema", {})
    properties = dict(shape.get("properties", {}))
    properties.pop("name", None)
    properties.pop("t", None)
    required = [name for name in shape.get("required", []) if name not in ("name", "t")]
    if not required and properties:
        required = [next(iter(properties))]
    arguments = {}
    for name in required:
        schema = properties.get(name, {})
        arguments[name] = example(schema, cards)
    return arguments


class Checker:
    def __init__(self, binary: str, schema: Schema, home: str) -> None:
        self.binary = binary
        self.schema = schema
        self.home = home
        self.findings: list[str] = []
        self.checked = 0
        self.refused: list[str] = []

    def open(self, scene: str, define: Optional[dict[str, Any]], where: str) -> tuple[Session, Optional[Any]]:
        session = Session(self.binary, self.schema, self.home, self.findings, where)
        session.request(
            "initialize", {"protocolVersion": "1.0", "viewport": VIEWPORT, "accessibility": True})
        if define is not None:
            session.request("scene.define", {"description": define})
        return session, session.request("scene.open", {"scene": scene})

    def after(self, scene: str, define: Optional[dict[str, Any]], where: str, method: str,
              params: dict[str, Any]) -> None:
        session, opened = self.open(scene, define, where)
        try:
            if opened is None:
                return
            session.updates.clear()
            if session.request(method, params) is None:
                self.refused.append(where)
            for problem in holds_together(applied(opened["accessibility"], session.updates)):
                self.findings.append("%s: after the update: %s" % (where, problem))
            self.checked += 1
        finally:
            session.close()

    def scene(self, scene: str, define: Optional[dict[str, Any]] = None) -> None:
        session, opened = self.open(scene, define, scene)
        session.close()
        if opened is None:
            return
        tree = opened.get("accessibility")
        if tree is None:
            self.findings.append("%s: scene.open carries no accessibility tree" % scene)
            return
        for problem in holds_together(tree):
            self.findings.append("%s: at rest: %s" % (scene, problem))
        self.checked += 1
        cards = [node["id"].rsplit(".", 1)[1] for node in tree["nodes"]
                 if "." in node["id"] and node["id"].rsplit(".", 1)[1].isdigit()]
        for node in tree["nodes"]:
            for action in node.get("actions", []):
                if action == "customAction":
                    for custom in node.get("customActions", []):
                        params = {"node": node["id"], "action": action, "customAction": custom["id"], "t": 1}
                        self.after(scene, define, "%s: %s %s" % (scene, node["id"], custom["description"]),
                                   "a11y.action", params)
                else:
                    self.after(scene, define, "%s: %s %s" % (scene, node["id"], action), "a11y.action",
                               {"node": node["id"], "action": action, "t": 1})
        for action in opened.get("actions", []):
            params = {"name": action["name"], "t": 1, **declared_examples(action, cards)}
            self.after(scene, define, "%s: action %s" % (scene, action["name"]), "scene.action", params)


def scenes(binary: str, schema: Schema, home: str) -> list[str]:
    session = Session(binary, schema, home, [], "initialize")
    result = session.request("initialize", {"protocolVersion": "1.0", "viewport": VIEWPORT})
    session.close()
    return list(result["scenes"]) if result else []


def run(binary: str, schema: Schema) -> Checker:
    with tempfile.TemporaryDirectory(prefix="cardistry-a11y-") as home:
        checker = Checker(binary, schema, home)
        for name in scenes(binary, schema, home):
            checker.scene(name)
        for path in sorted((REPO_ROOT / "scenes").glob("*.json")):
            description = json.loads(path.read_text(encoding="utf-8"))
            checker.scene(description["name"], description)
        return checker


def self_test(binary: str) -> int:
    """A schema whose accessibility node must not carry a role finds every scene's tree wrong."""
    schema = Schema()
    node = schema.document["$defs"]["accessibilityNode"]
    node.setdefault("properties", {})["role"] = False
    schema._validators.clear()
    with tempfile.TemporaryDirectory(prefix="cardistry-a11y-") as home:
        checker = Checker(binary, schema, home)
        checker.scene("deck")
    if not any("role" in finding for finding in checker.findings):
        print("self-test FAILED: a schema refusing roles found nothing")
        return 1
    print("self-test passed: a schema refusing roles found %d problems" % len(checker.findings))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--self-test", action="store_true")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    if options.self_test:
        return self_test(binary)
    checker = run(binary, Schema())
    for finding in checker.findings:
        print(finding)
    for where in checker.refused:
        print("refused (an error reply, checked all the same): %s" % where)
    print("%d trees and updates checked, %d findings" % (checker.checked, len(checker.findings)))
    return 1 if checker.findings or checker.checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
