#!/usr/bin/env python3
"""No product function over 100 lines (issue 47): lists every function, initialiser and subscript in the product's
Swift sources whose declaration and body together span more than the limit, and exits 1 if there is one.

Usage: check-function-length.py [--limit N] [--list K] [DIR ...]   (default: Packages Frontends Sources Benchmarks)
  --list K  also print the K longest functions (to see how close the code is to the limit)
  --self-test  checks the scanner on inline samples (a long function fails, strings and comments do not count)

The scanner is lexical: it skips comments and string literals (including multi-line and raw strings), and takes a
body as the braces after the declaration at bracket depth 0. A declaration without a body (a protocol requirement)
ends at the next declaration keyword or closing brace.
"""
import os
import re
import sys

DECL = re.compile(r"\b(func|init|subscript|deinit)\b")
STOP = {"func", "var", "let", "init", "case", "subscript", "deinit", "struct", "class", "enum", "protocol",
        "extension", "typealias", "associatedtype"}
WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def tokens(text):
    """Yields (kind, value, line) for words and the punctuation the scanner needs, skipping comments and strings."""
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    line += text[i] == "\n"
                    i += 1
        elif c == "#" and re.match(r'#+"', text[i:]):
            hashes = len(re.match(r"#+", text[i:]).group(0))
            i += hashes
            multi = text.startswith('"""', i)
            close = ('"""' if multi else '"') + "#" * hashes
            i += 3 if multi else 1
            j = text.find(close, i)
            j = n if j < 0 else j
            line += text.count("\n", i, j)
            i = j + len(close)
        elif c == '"':
            if text.startswith('"""', i):
                j = i + 3
                while j < n and not text.startswith('"""', j):
                    j += 2 if text[j] == "\\" else 1
                line += text.count("\n", i, j)
                i = j + 3
            else:
                j, depth = i + 1, 0
                while j < n:
                    if text.startswith("\\(", j):
                        depth += 1
                        j += 2
                    elif text[j] == "\\":
                        j += 2
                    elif text[j] == ")" and depth:
                        depth -= 1
                        j += 1
                    elif text[j] == '"' and not depth:
                        break
                    elif text[j] == "\n":
                        break
                    else:
                        j += 1
                i = j + 1
        elif c.isalpha() or c == "_":
            m = WORD.match(text, i)
            yield ("word", m.group(0), line)
            i = m.end()
        elif c in "{}()[]":
            yield ("punct", c, line)
            i += 1
        else:
            i += 1


def functions(text):
    """Yields (name, first line, last line) for each function-like declaration with a body."""
    toks = list(tokens(text))
    for k, (kind, value, line) in enumerate(toks):
        if kind != "word" or not DECL.fullmatch(value):
            continue
        if k > 0 and toks[k - 1][1] in (".",):
            continue
        name = value
        if value == "func" and k + 1 < len(toks) and toks[k + 1][0] == "word":
            name = toks[k + 1][1]
        depth, j = 0, k + 1
        while j < len(toks):
            kind2, v, _ = toks[j]
            if v in "([":
                depth += 1
            elif v in ")]":
                depth -= 1
            elif v == "}" and depth == 0:
                j = None
                break
            elif v == "{" and depth == 0:
                break
            elif kind2 == "word" and depth == 0 and v in STOP and j > k + 1:
                j = None
                break
            j += 1
        if j is None or j >= len(toks):
            continue
        braces, m = 0, j
        while m < len(toks):
            v = toks[m][1]
            if v == "{":
                braces += 1
            elif v == "}":
                braces -= 1
                if braces == 0:
                    break
            m += 1
        if m < len(toks):
            yield (name, line, toks[m][2])


def scan(roots):
    found = []
    for root in roots:
        for directory, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in (".build",) and not d.startswith(".")]
            for file in files:
                if file.endswith(".swift"):
                    path = os.path.join(directory, file)
                    with open(path, encoding="utf-8") as handle:
                        for name, first, last in functions(handle.read()):
                            found.append((last - first + 1, path, first, name))
    return found


def self_test():
    long_body = "func long() {\n" + "    let x = 1\n" * 120 + "}\n"
    short = 'func short() {\n    let s = "}}}{{{"\n    // }\n    /* { */\n    let r = #"{"#\n}\n'
    requirement = "protocol P {\n    func run() -> Int\n    var x: Int { get }\n}\n"
    multi = 'func m() {\n    let t = """\n    {\n    """\n}\n'
    got = {name: last - first + 1 for name, first, last in functions(long_body + short + requirement + multi)}
    assert got == {"long": 122, "short": 6, "m": 5}, got
    print("self-test: ok (a 122-line function is measured, strings, comments and requirements are not bodies)")


def main(argv):
    limit, listing, roots = 100, 0, []
    args = iter(argv)
    for arg in args:
        if arg == "--limit":
            limit = int(next(args))
        elif arg == "--list":
            listing = int(next(args))
        elif arg == "--self-test":
            self_test()
            return 0
        else:
            roots.append(arg)
    roots = roots or ["Packages", "Frontends", "Sources", "Benchmarks"]
    found = sorted(scan(roots), reverse=True)
    for length, path, first, name in found[:listing]:
        print(f"{length:5} {path}:{first} {name}")
    over = [f for f in found if f[0] > limit]
    for length, path, first, name in over:
        print(f"{path}:{first}: {name} is {length} lines (limit {limit}): split it along its steps", file=sys.stderr)
    print(f"{len(found)} functions in {', '.join(roots)}; {len(over)} over {limit} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
