#!/usr/bin/env python3
"""Shared helper for scripts/docs.sh and scripts/api-check.sh (stdlib only).

  swiftpm.py modules BIN_DIR               the Swift modules of the root package's library products, one a line
  swiftpm.py flags BIN_DIR MODULE          the import flags the build used for MODULE, one argument a line

Module list: the targets of every library product in `swift package dump-package` of the root package (C targets
such as CardModelsShims are skipped).
Targets with no Swift module (C targets such as CardModelsShims) are skipped.

Flags: taken from BIN_DIR/description.json, which `swift build` writes: the -I, -F, -Xcc (module maps, header
search paths), -target, -sdk and -module-cache-path arguments the compiler got for that module, so a module that
publicly imports a C module loads the same way it did in the build. Nothing about the source layout is assumed.
"""
import json
import os
import subprocess
import sys

KEEP_WITH_VALUE = {"-I", "-F", "-Fsystem", "-Isystem", "-Xcc", "-target", "-sdk", "-module-cache-path",
                   "-resource-dir"}


def description(bin_dir):
    path = os.path.join(bin_dir, "description.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def library_targets():
    out = subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout
    manifest = json.loads(out)
    names = []
    for product in manifest.get("products", []):
        if "library" in product.get("type", {}):
            for target in product.get("targets", []):
                if target not in names:
                    names.append(target)
    return names


def swift_module_built(bin_dir, name):
    return os.path.exists(os.path.join(bin_dir, "Modules", name + ".swiftmodule"))


def modules(bin_dir):
    names = library_targets()
    source = "library products of the root package (swift package dump-package)"
    if not names:
        sys.exit("error: the root package vends no library product")
    desc = description(bin_dir) or {}
    scan = desc.get("swiftTargetScanArgs", {})
    result = []
    for name in names:
        if scan and name not in scan and name in desc.get("targetDependencyMap", {}):
            print(f"note: {name} is not a Swift target; skipped", file=sys.stderr)
            continue
        if not swift_module_built(bin_dir, name):
            sys.exit(f"error: {bin_dir}/Modules/{name}.swiftmodule is missing: run `swift build` first")
        result.append(name)
    print(f"modules from {source}: {' '.join(result)}", file=sys.stderr)
    print("\n".join(result))


def flags(bin_dir, name):
    modules_dir = os.path.join(bin_dir, "Modules")
    desc = description(bin_dir)
    args = (desc or {}).get("swiftTargetScanArgs", {}).get(name)
    out = []
    if args:
        i = 0
        while i < len(args):
            a = args[i]
            if a in KEEP_WITH_VALUE and i + 1 < len(args):
                out += [a, args[i + 1]]
                i += 2
                continue
            if a.startswith("-I") and len(a) > 2:
                out.append(a)
            i += 1
    else:
        # No description.json (another build system): the module directory plus every generated C module map.
        out += ["-I", modules_dir]
        for entry in sorted(os.listdir(bin_dir)):
            mm = os.path.join(bin_dir, entry, "module.modulemap")
            if entry.endswith(".build") and os.path.exists(mm):
                out += ["-Xcc", "-fmodule-map-file=" + mm]
    if modules_dir not in out:
        out += ["-I", modules_dir]
    print("\n".join(out))


if __name__ == "__main__":
    cmd, bin_dir = sys.argv[1], sys.argv[2]
    if cmd == "modules":
        modules(bin_dir)
    elif cmd == "flags":
        flags(bin_dir, sys.argv[3])
    else:
        sys.exit(f"unknown command {cmd}")
