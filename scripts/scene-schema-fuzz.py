#!/usr/bin/env python3
"""Scene schema fuzz (issue 50): docs/scene.schema.json against the loader, through `BINARY stdio`'s scene.define.

    python3 scripts/scene-schema-fuzz.py BINARY [--seed N] [--cases N]

Seeded mutations (random.Random(seed), no clock) of every description in scenes/ and docs/scenes/ — a member
dropped or added, a value of another type, a number past a bound, an enum value misspelt, a name broken, an item
duplicated — each validated by the schema and defined over one stdio session. The rules, both ways:

  schema-invalid ⇒ the loader refuses it (−32602 naming a pointer under `description`);
  loader accepts ⇒ the schema accepts it (the same rule read backwards: a description the loader plays is valid);
  schema-valid and refused ⇒ only for what a schema cannot say (SCHEMA_CANNOT_SAY: an expression that does not
                 parse or type-check, a name that refers to nothing, a duplicate id or name, the last layout's
                 `when`, a scene without cards).

Exit status 1 on any disagreement, listing each.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

import jsonschema

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from wire import REPO_ROOT, Server, clean_env  # noqa: E402

# Refusals of schema-valid descriptions that a JSON Schema cannot express (message fragments).
SCHEMA_CANNOT_SAY = [
    "column", "unknown variable", "is not a declared variable", "is not one of the scene's actions",
    "must be card, background or the name of a node", "is used twice", "listed twice", "the last layout",
    "must list its cards", "must name a card state variable", "must name a number variable", "is already a variable",
    "must be a card id", "must list distinct values", "must be a whole number", "takes no deck",
    "is not a valid animation",
]


def mutate(value: Any, rng: random.Random) -> Any:
    """One mutation at a random place of `value` (a copy)."""
    document = copy.deepcopy(value)
    places: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in list(node):
                places.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for index in range(len(node)):
                places.append((node, index))
                walk(node[index])

    walk(document)
    if not places:
        return document
    parent, key = rng.choice(places)
    kind = rng.randrange(8)
    old = parent[key]
    if kind == 0 and isinstance(parent, dict):
        del parent[key]
    elif kind == 1:
        parent[key] = rng.choice([None, True, 7, -3.5, "seven", [], {}])
    elif kind == 2 and isinstance(old, (int, float)) and not isinstance(old, bool):
        parent[key] = rng.choice([old * 1000, -old - 1, 1e300, 0, 0.5])
    elif kind == 3 and isinstance(old, str):
        parent[key] = old + rng.choice(["x", "(", " +", "'", "Z"])
    elif kind == 4 and isinstance(parent, dict):
        parent["extra" + str(rng.randrange(3))] = 1
    elif kind == 5 and isinstance(old, list) and old:
        old.append(copy.deepcopy(rng.choice(old)))
    elif kind == 6 and isinstance(old, str):
        parent[key] = rng.choice(["", "a b", "-", "ÄÖ", "1abc", "x" * 50])
    else:
        parent[key] = rng.choice(["1 / 0", "true", "none", "'q'", 1, False])
    return document


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, default=50)
    parser.add_argument("--cases", type=int, default=2000)
    args = parser.parse_args(argv)
    schema = json.loads((REPO_ROOT / "docs" / "scene.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bases = [json.loads(path.read_text(encoding="utf-8"))
             for path in sorted((REPO_ROOT / "scenes").glob("*.json")) + sorted((REPO_ROOT / "docs" / "scenes").glob("*.json"))]
    for base in bases:
        problems = [error.message for error in validator.iter_errors(base)]
        if problems:
            print("a shipped description is schema-invalid: %s: %s" % (base.get("name"), problems[:3]))
            return 1
    rng = random.Random(args.seed)
    server = Server(args.binary, [], env=clean_env(None))
    server.send_text(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                 "params": {"protocolVersion": "1.0", "viewport": {"width": 390, "height": 844}}}))
    server.next_line(20)
    disagreements: list[str] = []
    counts = {"schema-invalid, refused": 0, "schema-valid, accepted": 0, "schema-valid, refused (allowed)": 0}
    for case in range(args.cases):
        document = bases[case % len(bases)]
        for _ in range(rng.randint(1, 2)):
            document = mutate(document, rng)
        if isinstance(document, dict) and isinstance(document.get("name"), str):
            document["name"] = "fuzz"  # never a built-in scene's name
        valid = not any(True for _ in validator.iter_errors(document))
        server.send_text(json.dumps({"jsonrpc": "2.0", "id": case + 1, "method": "scene.define",
                                     "params": {"description": document}}, ensure_ascii=False))
        line = server.next_line(20)
        if line is None:
            disagreements.append("case %d: no reply (the server ended or hung)" % case)
            break
        reply = json.loads(line)
        error = reply.get("error")
        text = json.dumps(document, ensure_ascii=False)[:300]
        if not valid and error is None:
            disagreements.append("case %d: schema-invalid but accepted: %s" % (case, text))
        elif not valid:
            if error.get("code") != -32602 or not error.get("message", "").startswith("invalid params: 'description"):
                disagreements.append("case %d: schema-invalid, refused without a pointer: %s" % (case, error))
            counts["schema-invalid, refused"] += 1
        elif error is None:
            counts["schema-valid, accepted"] += 1
        elif any(fragment in error.get("message", "") for fragment in SCHEMA_CANNOT_SAY):
            counts["schema-valid, refused (allowed)"] += 1
        else:
            disagreements.append("case %d: schema-valid but refused: %s: %s" % (case, error.get("message"), text))
    for line in disagreements[:40]:
        print(line)
    print("scene schema fuzz: %d cases (seed %d): %s; %d disagreements" % (
        args.cases, args.seed, ", ".join("%s %d" % item for item in counts.items()), len(disagreements)))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
