#!/usr/bin/env python3
"""Documentation-comment gate over symbol graphs (stdlib only).

  doc_coverage.py REPO_ROOT GRAPH_ROOT MODULE...

GRAPH_ROOT/<MODULE>/coverage holds the symbol graphs docs.sh extracted for the check (MODULE.symbols.json plus
the MODULE@Other.symbols.json files for extensions of other modules' types).

The rule. A symbol must carry its own `///` or `/** */` comment with some non-blank text when it is
  * public or open (the graphs are extracted with -minimum-access-level public), and
  * written in this module: types, protocols and their requirements, members, enum cases, globals, operators,
    and members added in extensions of other modules' types.
Exempt, because DocC shows the documentation of the declaration they come from:
  * members a type gets from a protocol extension's default implementation (USR contains ::SYNTHESIZED::;
    extracted with -skip-synthesized-members), e.g. Collection's `first` on our Deck;
  * declarations that implement a protocol requirement (extracted with -skip-protocol-implementations), written
    or compiler-synthesized: `==`, `hash(into:)`, `init(from:)`, `encode(to:)`, `description`, `id`,
    `init(rawValue:)`, a Collection's `startIndex`; the requirement itself, when the protocol is ours, is checked;
  * default implementations of a requirement in an extension of one of our protocols (relationship
    defaultImplementationOf): DocC lists them under the requirement, whose comment is checked;
  * documentation inherited from a superclass or protocol does not count as the symbol's own
    (-skip-inherited-docs), so an override that is not a witness needs its own comment.
Compiler-implicit declarations that are not witnesses (an enum's synthesized cases are written, not implicit)
never appear in the graphs. Offenders print as path:line:column: kind Symbol.path, paths relative to REPO_ROOT.
Exit status 1 when there is an offender.
"""
import glob
import json
import os
import sys
from urllib.parse import unquote, urlparse


def has_doc(symbol):
    doc = symbol.get("docComment")
    return bool(doc) and any(line.get("text", "").strip() for line in doc.get("lines", []))


def sort_key(symbol):
    loc = symbol.get("location") or {}
    pos = loc.get("position", {})
    return (loc.get("uri", ""), pos.get("line", 0), pos.get("character", 0))


def where(symbol, repo_root):
    loc = symbol.get("location")
    if not loc:
        return "<no source location>"
    path = unquote(urlparse(loc["uri"]).path)
    if path.startswith(repo_root + os.sep):
        path = os.path.relpath(path, repo_root)
    pos = loc.get("position", {})
    return f"{path}:{pos.get('line', 0) + 1}:{pos.get('character', 0) + 1}"


def main():
    repo_root, graph_root, modules = os.path.realpath(sys.argv[1]), sys.argv[2], sys.argv[3:]
    total_bad = 0
    summary = []
    for module in modules:
        files = glob.glob(os.path.join(graph_root, module, "coverage", module + ".symbols.json"))
        files += glob.glob(os.path.join(graph_root, module, "coverage", module + "@*.symbols.json"))
        if not files:
            sys.exit(f"error: no symbol graph for {module} under {graph_root}")
        seen = {}
        defaults = set()
        for path in sorted(files):
            with open(path) as f:
                graph = json.load(f)
            for rel in graph.get("relationships", []):
                if rel.get("kind") == "defaultImplementationOf":
                    defaults.add(rel["source"])
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                usr = symbol["identifier"]["precise"]
                if "::SYNTHESIZED::" in usr:
                    continue
                seen[usr] = symbol
        for usr in defaults:
            seen.pop(usr, None)
        bad = [s for s in seen.values() if not has_doc(s)]
        bad.sort(key=sort_key)
        for s in bad:
            kind = s["kind"]["displayName"].lower()
            print(f"{where(s, repo_root)}: undocumented public {kind} {module}.{'.'.join(s['pathComponents'])}")
        documented = len(seen) - len(bad)
        pct = 100.0 * documented / len(seen) if seen else 100.0
        summary.append(f"  {module:<18} {documented:>4}/{len(seen):<4} documented ({pct:5.1f}%), {len(bad)} undocumented")
        total_bad += len(bad)
    print("documentation coverage (public symbols that need their own comment):")
    print("\n".join(summary))
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
