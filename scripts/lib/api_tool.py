#!/usr/bin/env python3
"""Helpers for scripts/api-check.sh (stdlib only).

  api_tool.py normalize IN OUT           make a swift-api-digester dump stable: drop the Import nodes (they depend on
                                         the build configuration, e.g. SwiftOnoneSupport in debug builds, and on the
                                         platform), then write sorted-key JSON with a trailing newline
  api_tool.py diff BASELINE CURRENT      list declarations added (+), removed (-) and changed (~), by USR
  api_tool.py breaks DIGESTER OLD NEW    print the digester's API breakages going from OLD to NEW, one a line
  api_tool.py history DIGESTER [RANGE]   the commit-message rule (see check_history below)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BREAK_LINE = re.compile(r"^API-break: *\S", re.MULTILINE)


def normalize(src, dst):
    with open(src) as f:
        dump = json.load(f)
    root = dump["ABIRoot"]
    root["children"] = [c for c in root.get("children", []) if c.get("kind") != "Import"]
    with open(dst, "w") as f:
        json.dump(dump, f, indent=1, sort_keys=True)
        f.write("\n")


def decls(node, path, out):
    for child in node.get("children", []):
        if "declKind" in child:
            name = path + [child.get("printedName", child.get("name", "?"))]
            key = child.get("usr") or "/".join(name)
            own = {k: v for k, v in child.items() if k != "children"}
            own["_types"] = [c for c in child.get("children", []) if "declKind" not in c]
            out[key] = (child["declKind"], ".".join(name), json.dumps(own, sort_keys=True))
            decls(child, name, out)
    return out


def load_decls(path):
    with open(path) as f:
        return decls(json.load(f)["ABIRoot"], [], {})


def diff(baseline, current):
    old, new = load_decls(baseline), load_decls(current)
    lines = []
    for key in sorted(set(old) | set(new), key=lambda k: (old.get(k) or new.get(k))[1]):
        if key not in new:
            lines.append(f"  - {old[key][0]} {old[key][1]}")
        elif key not in old:
            lines.append(f"  + {new[key][0]} {new[key][1]}")
        elif old[key][2] != new[key][2]:
            lines.append(f"  ~ {new[key][0]} {new[key][1]}")
    print("\n".join(lines) if lines else "  (no declaration-level difference; formatting or conformance lists only)")


def breaks(digester, old, new):
    """The digester's -diagnose-sdk report, minus its empty section headers. It exits 0 even when it finds
    breakage, so the lines themselves are the verdict."""
    with tempfile.NamedTemporaryFile(suffix=".txt") as out:
        subprocess.run([digester, "-diagnose-sdk", "-input-paths", old, "-input-paths", new, "-o", out.name],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out.name) as f:
            text = f.read()
    return [l.strip() for l in text.splitlines() if l.strip() and not l.strip().startswith("/*")]


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def blob_to_file(rev, path, directory):
    dst = os.path.join(directory, rev[:12] + "-" + os.path.basename(path))
    with open(dst, "w") as f:
        f.write(git("show", f"{rev}:{path}"))
    return dst


def check_history(digester, rev_range):
    """For every non-merge commit in RANGE that changes api/*.json: compare each changed baseline with its version
    in the commit's parent. A removed baseline file (a library module dropped) or any breakage the digester reports
    (removed or renamed declaration, changed type or signature, new protocol requirement, ...) needs a line
    `API-break: <reason>` in that commit's message. Added modules and pure additions need nothing.
    Exit status 1 when a commit breaks the API without such a line."""
    commits = git("log", "--no-merges", "--format=%H", rev_range, "--", "api/").split()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for commit in reversed(commits):
            subject = git("log", "-1", "--format=%h %s", commit).strip()
            message = git("log", "-1", "--format=%B", commit)
            parents = git("log", "-1", "--format=%P", commit).split()
            if parents:
                changes = git("diff-tree", "--no-commit-id", "-r", "--name-status", parents[0], commit, "--", "api/")
            else:
                changes = git("diff-tree", "--no-commit-id", "-r", "--root", "--name-status", commit, "--", "api/")
            found = []
            for row in changes.splitlines():
                status, path = row.split("\t", 1)[0], row.split("\t")[-1]
                if not path.endswith(".json"):
                    continue
                module = os.path.basename(path)[:-5]
                if status.startswith("D"):
                    found.append(f"{module}: baseline removed (library module dropped)")
                elif status.startswith("M"):
                    old = blob_to_file(parents[0], path, tmp)
                    new = blob_to_file(commit, path, tmp)
                    found += [f"{module}: {line}" for line in breaks(digester, old, new)]
            if not found:
                print(f"ok      {subject}: no API break")
            elif BREAK_LINE.search(message):
                reason = BREAK_LINE.search(message).group(0)
                print(f"ok      {subject}: {len(found)} break(s), recorded: {message[message.index(reason):].splitlines()[0]}")
            else:
                bad += 1
                print(f"FAILED  {subject}: breaks the API without an `API-break: <reason>` line in its message:")
                for line in found:
                    print(f"          {line}")
    if not commits:
        print(f"no commit in {rev_range} changes api/")
    return 1 if bad else 0


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "normalize":
        normalize(sys.argv[2], sys.argv[3])
    elif cmd == "diff":
        diff(sys.argv[2], sys.argv[3])
    elif cmd == "breaks":
        found = breaks(sys.argv[2], sys.argv[3], sys.argv[4])
        print("\n".join(found))
    elif cmd == "history":
        sys.exit(check_history(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "HEAD"))
    else:
        sys.exit(f"unknown command {cmd}")
