#!/usr/bin/env python3
"""Checks Cardistry's module graph against its design (docs/architecture.md, "The module graph").

What it checks, each a failure with a message naming the file:
1. The graph in docs/architecture.md (the table between the `module-graph` markers) is exactly the dependency
   graph of the root Package.swift's library and executable targets.
2. Arrows point down only: every target depends only on modules of a lower layer (the table's layer column).
3. Every `import` in a target's sources is of one of the target's DIRECT dependencies in Package.swift, or of the
   toolchain (TOOLCHAIN): a module reached only through another dependency is a hidden dependency and fails, and
   `@_exported import` (which would hide one) fails anywhere. A front end (every target whose sources are under
   Frontends/, found from the manifest, and every directory under Frontends/ must be such a target) imports no
   other front end and no scene module; nothing but the registration point (CardistryCLI), the executable, the
   benchmarks, a front end's own tests and the parity tests (PARITY_TESTS: front ends checked against each other)
   imports a front end.
4. Each local package (Packages/X/Package.swift) declares its targets with the same dependencies as the root.
5. No file under Frontends/ or the engine core names a scene (the names come from the scenes' descriptors).

Standard library only. Usage: python3 scripts/check-module-graph.py [REPO]
       python3 scripts/check-module-graph.py --self-test   (rule 3 on synthetic graphs that must fail)
"""

import json
import os
import re
import subprocess
import sys

SELF_TEST = sys.argv[1:] == ["--self-test"]
ROOT = os.path.abspath(
    sys.argv[1] if len(sys.argv) > 1 and not SELF_TEST else os.path.join(os.path.dirname(__file__), "..")
)
# Modules every target may import without declaring them: the toolchain's. The repository's own C shims are
# targets, so they count as dependencies like any other module.
TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Darwin", "Synchronization", "Testing", "XCTest",
}
REGISTRATION = {"CardistryCLI", "cardistry"}
# Test targets that check front ends against each other (the stdio server's cells frames against the terminal UI).
PARITY_TESTS = {"FrontendParityTests"}
FRONT_END_DIRECTORY = "Frontends"
# An import statement (a whole line): `import M`, `@testable import M`, `internal import M`, `import struct M.T`.
IMPORT = re.compile(
    r"\s*(@_exported\s+|@testable\s+)?(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)(?:\.\w+)*\s*(?://.*)?$"
)
problems = []


def fail(message):
    problems.append(message)


def dump(path):
    out = subprocess.run(
        ["swift", "package", "--package-path", path, "dump-package"], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def target_dependencies(target):
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.append(dependency[kind][0])
    return names


def documented_graph():
    text = open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8").read()
    match = re.search(r"<!-- module-graph -->(.*?)<!-- /module-graph -->", text, re.S)
    if not match:
        fail("docs/architecture.md: no table between <!-- module-graph --> and <!-- /module-graph -->")
        return {}, {}
    graph, layers = {}, {}
    for line in match.group(1).splitlines():
        cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[1].isdigit():
            continue
        module, layer, depends = cells[0], int(cells[1]), cells[3]
        layers[module] = layer
        graph[module] = set() if depends in ("", "—", "-") else {d.strip().strip("`") for d in depends.split(",")}
    return graph, layers


def sources_of(target):
    path = target.get("path") or os.path.join("Sources", target["name"])
    for directory, _, files in os.walk(os.path.join(ROOT, path)):
        for name in files:
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def module_name(target_name):
    """The module a target builds (an executable `cardistry-bench` is the module `cardistry_bench`)."""
    return re.sub(r"[^A-Za-z0-9_]", "_", target_name)


def front_ends_of(targets, front_end_directories):
    """The front ends: every target whose sources are under Frontends/. Each directory there must be one."""
    problems, front_ends = [], set()
    for name, target in targets.items():
        path = (target.get("path") or "").rstrip("/")
        if path.startswith(FRONT_END_DIRECTORY + "/") and target["type"] != "test":
            front_ends.add(name)
    declared = {(targets[name].get("path") or "").rstrip("/") for name in front_ends}
    for directory in front_end_directories:
        top = f"{FRONT_END_DIRECTORY}/{directory}"
        if not any(path == top or path.startswith(top + "/") for path in declared):
            problems.append(
                f"{FRONT_END_DIRECTORY}/{directory}: a front end directory that no target of Package.swift builds"
            )
    return front_ends, problems


def check_imports(targets, read_sources, front_end_directories):
    """Rule 3 over `targets` (name -> manifest target: type, path, dependencies); `read_sources(name)` yields
    (relative path, text) of a target's Swift files. Returns the problems found."""
    front_ends, problems = front_ends_of(targets, front_end_directories)
    by_module = {module_name(name): name for name in targets}
    front_end_modules = {module_name(name) for name in front_ends}
    for name in sorted(targets):
        target = targets[name]
        if target["type"] not in ("regular", "executable", "test"):
            continue
        direct = {module_name(dependency) for dependency in target_dependencies(target)}
        own = module_name(name)
        for relative, text in read_sources(name):
            for line in text.splitlines():
                match = IMPORT.match(line)
                if not match:
                    continue
                attribute, imported = (match.group(1) or "").strip(), match.group(2)
                if attribute == "@_exported":
                    problems.append(
                        f"{relative}: @_exported import {imported}: every target declares and imports what it uses"
                    )
                if imported == own or imported in TOOLCHAIN:
                    continue
                if imported not in direct:
                    if imported in by_module:
                        problems.append(
                            f"{relative}: imports {imported}, which is not a direct dependency of {name} in "
                            "Package.swift (declare it; reaching it through another module hides the dependency)"
                        )
                    else:
                        problems.append(f"{relative}: imports {imported}, which is neither a target nor the toolchain")
                if imported in front_end_modules:
                    own_tests = own == imported + "Tests"
                    parity = name in PARITY_TESTS and target["type"] == "test"
                    if name not in REGISTRATION and name != "cardistry-bench" and not own_tests and not parity:
                        problems.append(f"{relative}: imports the front end {imported}; only the registration point may")
                if name in front_ends and imported == "CardScenes":
                    problems.append(
                        f"{relative}: a front end imports CardScenes; front ends are handed a scene catalogue"
                    )
    return problems


def self_test():
    """Rule 3 on synthetic graphs: a transitive-only import, an @_exported import, a front end that imports a
    scene module or another front end without being listed anywhere, and a front end directory no target builds
    must each be reported; the clean graph must not be."""

    def target(kind, path, *dependencies):
        return {"type": kind, "path": path, "dependencies": [{"byName": [d, None]} for d in dependencies]}

    def graph(extra=None):
        targets = {
            "CardGeometry": target("regular", "Packages/Physics/Sources/CardGeometry"),
            "CardEngine": target("regular", "Packages/Engine/Sources/CardEngine", "CardGeometry"),
            "CardScenes": target("regular", "Packages/Scenes/Sources/CardScenes", "CardEngine"),
            "CardFrontend": target("regular", "Packages/Frontend/Sources/CardFrontend"),
            "CardTUI": target("regular", "Frontends/tui", "CardEngine", "CardFrontend"),
        }
        sources = {
            "CardGeometry": "import Foundation\n",
            "CardEngine": "import CardGeometry\nimport Glibc\n",
            "CardScenes": "import CardEngine\n",
            "CardFrontend": "",
            "CardTUI": "import CardEngine\nimport CardFrontend\n",
        }
        for name, (declared, text) in (extra or {}).items():
            if declared is not None:
                targets[name] = declared
            sources[name] = text
        return targets, (lambda name: iter([(f"{name}/File.swift", sources.get(name, ""))]))

    cases = [
        ("a clean graph", {}, ["tui"], None),
        ("a transitive-only import", {"CardScenes": (None, "import CardEngine\nimport CardGeometry\n")}, ["tui"],
         "CardScenes/File.swift: imports CardGeometry, which is not a direct dependency of CardScenes"),
        ("an @_exported import", {"CardEngine": (None, "@_exported import CardGeometry\n")}, ["tui"],
         "CardEngine/File.swift: @_exported import CardGeometry"),
        ("an import of a module that is not a target", {"CardTUI": (None, "import CardEngine\nimport Elsewhere\n")},
         ["tui"], "CardTUI/File.swift: imports Elsewhere, which is neither a target nor the toolchain"),
        ("a new front end, listed nowhere, importing a scene module",
         {"CardWeb": (target("regular", "Frontends/web", "CardEngine", "CardScenes"), "import CardScenes\n")},
         ["tui", "web"], "CardWeb/File.swift: a front end imports CardScenes"),
        ("a new front end importing another front end",
         {"CardWeb": (target("regular", "Frontends/web", "CardEngine", "CardTUI"), "import CardTUI\n")},
         ["tui", "web"], "CardWeb/File.swift: imports the front end CardTUI"),
        ("a front end directory that no target builds", {}, ["tui", "web"],
         "Frontends/web: a front end directory that no target of Package.swift builds"),
        ("a new front end with its sources in a subdirectory, following the rules",
         {"CardWeb": (target("regular", "Frontends/web/Sources/CardWeb", "CardEngine", "CardFrontend"),
                      "import CardEngine\nimport CardFrontend\n")}, ["tui", "web"], None),
        ("a new front end in a subdirectory importing a scene module",
         {"CardWeb": (target("regular", "Frontends/web/Sources/CardWeb", "CardEngine", "CardScenes"),
                      "import CardScenes\n")}, ["tui", "web"], "CardWeb/File.swift: a front end imports CardScenes"),
    ]
    failures = 0
    for title, extra, directories, expected in cases:
        targets, read = graph(extra)
        found = check_imports(targets, read, directories)
        if expected is None:
            ok = found == []
        else:
            ok = any(problem.startswith(expected) for problem in found)
        print(f"{'ok  ' if ok else 'FAIL'} {title}: {found if found else 'no problem'}")
        failures += 0 if ok else 1
    if failures:
        print(f"module graph self-test: FAILED ({failures} of {len(cases)} cases)", file=sys.stderr)
        return 1
    print(f"module graph self-test: ok ({len(cases)} cases)")
    return 0


def main():
    package = dump(ROOT)
    targets = {t["name"]: t for t in package["targets"]}
    modules = {name for name, t in targets.items() if t["type"] in ("regular", "executable")}
    tests = {name for name, t in targets.items() if t["type"] == "test"}
    graph, layers = documented_graph()

    # 1 and 2: the documented graph is the manifest's, and it is layered.
    for name in sorted(modules):
        if name not in graph:
            fail(f"docs/architecture.md: module {name} is missing from the module graph")
            continue
        actual = set(target_dependencies(targets[name]))
        if actual != graph[name]:
            fail(f"docs/architecture.md: {name} depends on {sorted(actual)} in Package.swift, {sorted(graph[name])} in the doc")
        for dependency in actual:
            if dependency in layers and layers[dependency] >= layers[name]:
                fail(f"Package.swift: {name} (layer {layers[name]}) depends on {dependency} (layer {layers[dependency]}): an upward arrow")
    for name in graph:
        if name not in modules:
            fail(f"docs/architecture.md: the module graph lists {name}, which Package.swift does not declare")

    # 3: imports follow the graph.
    front_end_directories = [
        name for name in sorted(os.listdir(os.path.join(ROOT, FRONT_END_DIRECTORY)))
        if os.path.isdir(os.path.join(ROOT, FRONT_END_DIRECTORY, name))
    ]

    def read_sources(name):
        for path in sources_of(targets[name]):
            yield os.path.relpath(path, ROOT), open(path, encoding="utf-8").read()

    for problem in check_imports(targets, read_sources, front_end_directories):
        fail(problem)

    # 4: each local package agrees with the root.
    packages_dir = os.path.join(ROOT, "Packages")
    for package_name in sorted(os.listdir(packages_dir)):
        manifest = os.path.join(packages_dir, package_name)
        if not os.path.exists(os.path.join(manifest, "Package.swift")):
            continue
        for target in dump(manifest)["targets"]:
            if target["type"] != "regular":
                continue
            name = target["name"]
            if name not in targets:
                fail(f"Packages/{package_name}/Package.swift: target {name} is not declared by the root Package.swift")
            elif set(target_dependencies(target)) != set(target_dependencies(targets[name])):
                fail(
                    f"Packages/{package_name}/Package.swift: {name} depends on {sorted(target_dependencies(target))}, "
                    f"the root says {sorted(target_dependencies(targets[name]))}"
                )

    # 5: front ends and the engine core name no scene.
    scene_names = set()
    scenes_dir = os.path.join(ROOT, "Packages", "Scenes", "Sources", "CardScenes")
    for name in os.listdir(scenes_dir):
        if not name.endswith(".swift"):  # the CardScenes.docc catalog is a directory
            continue
        text = open(os.path.join(scenes_dir, name), encoding="utf-8").read()
        for match in re.finditer(r'SceneDescriptor\(\s*name:\s*"([^"]+)"', text):
            scene_names.add(match.group(1))
    if len(scene_names) < 5:
        fail(f"Packages/Scenes: found only the scene names {sorted(scene_names)} in descriptors")
    # "deck" is also a field and option name (`--deck FILE`, `"deck": …`); as a scene name it would appear as a
    # compared or listed string, which the second pattern catches.
    words = sorted(scene_names - {"deck"})
    word_pattern = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", re.I)
    deck_as_scene = re.compile(r'(==|!=|case|\[|,)\s*"deck"\s*(\]|,|:|\)|$)|"deck"\s*(==|!=)')
    option_context = re.compile(r"options:|only\(|\.string\(|\.value\(|nextKey\(")
    for top in ("Frontends", os.path.join("Packages", "Engine")):
        for directory, _, files in os.walk(os.path.join(ROOT, top)):
            for file_name in files:
                if not file_name.endswith(".swift"):
                    continue
                path = os.path.join(directory, file_name)
                for number, line in enumerate(open(path, encoding="utf-8"), 1):
                    relative = os.path.relpath(path, ROOT)
                    if word_pattern.search(line):
                        fail(f"{relative}:{number}: names a scene: {line.strip()}")
                    elif deck_as_scene.search(line) and not option_context.search(line):
                        fail(f"{relative}:{number}: names the deck scene: {line.strip()}")

    if problems:
        print("module graph: FAILED", file=sys.stderr)
        for problem in problems:
            print("  " + problem, file=sys.stderr)
        return 1
    print(f"module graph: ok ({len(modules)} modules, {len(tests)} test targets, {len(scene_names)} scenes)")
    return 0


if __name__ == "__main__":
    sys.exit(self_test() if SELF_TEST else main())
