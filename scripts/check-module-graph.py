#!/usr/bin/env python3
"""Checks Cardistry's module graph against its design (docs/architecture.md, "The module graph").

What it checks, each a failure with a message naming the file:
1. The graph in docs/architecture.md (the table between the `module-graph` markers) is exactly the dependency
   graph of the root Package.swift's library and executable targets.
2. Arrows point down only: every target depends only on modules of a lower layer (the table's layer column).
3. Every `import` of a Cardistry module in a target's sources is of a module the target depends on (directly or
   through its dependencies); a front end imports no other front end and no scene module; nothing but the
   registration point (CardistryCLI), the executable, the benchmarks and a front end's own tests imports a front
   end.
4. Each local package (Packages/X/Package.swift) declares its targets with the same dependencies as the root.
5. No file under Frontends/ or the engine core names a scene (the names come from the scenes' descriptors).

Standard library only. Usage: python3 scripts/check-module-graph.py [REPO]
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
FRONT_ENDS = {"CardTUI", "CardStdio"}
REGISTRATION = {"CardistryCLI", "cardistry"}
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
    def closure(name, seen=None):
        seen = set() if seen is None else seen
        for dependency in target_dependencies(targets[name]):
            if dependency not in seen and dependency in targets:
                seen.add(dependency)
                closure(dependency, seen)
        return seen

    ours = modules | {"CardModelsShims"}
    for name in sorted(modules | tests):
        reachable = closure(name)
        for path in sources_of(targets[name]):
            relative = os.path.relpath(path, ROOT)
            for line in open(path, encoding="utf-8"):
                match = re.match(r"\s*(?:@_exported\s+|@testable\s+)?import\s+(\w+)", line)
                if not match or match.group(1) not in ours:
                    continue
                imported = match.group(1)
                if imported not in reachable:
                    fail(f"{relative}: imports {imported}, which {name} does not depend on")
                if imported in FRONT_ENDS and imported != name:
                    own_tests = name == imported + "Tests"
                    if name not in REGISTRATION and name != "cardistry-bench" and not own_tests:
                        fail(f"{relative}: imports the front end {imported}; only the registration point may")
                if name in FRONT_ENDS and imported == "CardScenes":
                    fail(f"{relative}: a front end imports CardScenes; front ends are handed a scene catalogue")

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
    sys.exit(main())
