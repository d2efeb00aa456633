#!/usr/bin/env bash
# "Adding a scene" (docs/architecture.md) shown by doing it: adds the tests' throwaway scene
# (Tests/TestScenes/ThrowawayScene.swift, named `sixth`) to this checkout's standard catalogue as the section says
# (its type in CardScenes, public as the standard scenes are; one catalogue line; a test file), runs the section's
# regeneration commands and the checks that go through every scene of the catalogue or of the executable, and
# requires that every file that changed is one the section lists (with X as Throwaway and x as sixth).
#
#   scripts/add-a-scene.sh [--keep]
#
# It works in place, on a checkout whose sources are clean, so that its one build is incremental over the debug tree
# already built (CI: its last step, on CI's clone). On exit it puts back every file it changed; --keep leaves the
# change in place to look at (`git status`); the build directory keeps the scene until the next build.
# Exit 0 when the checks pass and no file outside the section's list changed, 1 otherwise, 2 when it cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C.UTF-8

keep=0
[ "${1:-}" = "--keep" ] && keep=1
# What is already changed (CI's earlier steps rewrite the browser test's pictures, say) is set aside: the files
# this script changes are those that change from here on, and only they are put back. The sources, tests, goldens
# and documents must be clean, so that whatever changes in them is this script's doing.
dirty() { git status --porcelain --untracked-files=all | cut -c4- | sort; }
before=$(dirty)
if git status --porcelain --untracked-files=all -- Package.swift Packages Sources Frontends Tests Benchmarks api \
    docs/*.md docs/*.json conformance examples README.md | grep -q .; then
    echo "add-a-scene: the sources, tests or documents have changes (git status): commit or stash them first" >&2
    exit 2
fi
changed_here() { comm -13 <(printf '%s\n' "$before") <(dirty) | sed '/^$/d'; }
restore() {
    [ "$keep" = 1 ] && return
    changed_here | while IFS= read -r path; do
        if git ls-files --error-unmatch -- "$path" >/dev/null 2>&1; then
            git checkout -q -- "$path"
        else
            rm -f -- "$path"
        fi
    done
}
trap restore EXIT
started=$SECONDS
say() { printf 'add-a-scene (%ss): %s\n' "$((SECONDS - started))" "$*"; }

# 1. The scene: the throwaway scene's type, in CardScenes (without the tests' catalogue, which stays in
#    CardTestScenes: `SceneCatalog.testing` ignores its own entry once the standard catalogue has the name).
scene=Packages/Scenes/Sources/CardScenes/ThrowawayScene.swift
sed -e '/^import CardScenes$/d' -e '/^extension SceneCatalog {$/,$d' -e 's/\bpackage /public /g' \
    Tests/TestScenes/ThrowawayScene.swift >"$scene"
# 2. Its one line in the standard catalogue, last in menu order.
catalogue=Packages/Scenes/Sources/CardScenes/SceneCatalog+Standard.swift
line='        Entry(ThrowawayScene.self) { options throws(SceneError) in try ThrowawayScene(options: options) },'
awk -v line="$line" '{ print } /Entry\(DeckScene\.self\)/ { print line }' "$catalogue" >"$catalogue.new"
mv "$catalogue.new" "$catalogue"
if ! grep -q 'Entry(ThrowawayScene.self)' "$catalogue"; then
    echo "add-a-scene: no DeckScene entry in $catalogue to add the line after" >&2
    exit 2
fi
# 3. Its behaviour's test.
cat >Tests/CardScenesTests/ThrowawaySceneTests.swift <<'EOF'
import CardEngine
import CardGeometry
import CardScenes
import Testing

/// The scene scripts/add-a-scene.sh adds: the standard catalogue lists it last and opens it, and `pick` takes a
/// card of its deck and refuses one it does not have.
@Suite struct ThrowawaySceneTests {
    @Test func theStandardCatalogueOpensItAndPickTakesItsCards() throws {
        #expect(SceneCatalog.standard.names.last == "sixth")
        var engine = Engine(scene: try SceneCatalog.standard.make("sixth"), viewport: Size(width: 390, height: 844))
        try engine.perform(SceneAction("pick", ["card": .string("6002")]), at: 1)
        #expect(throws: SceneError.self) { try engine.perform(SceneAction("pick", ["card": .string("1")]), at: 2) }
    }
}
EOF
say "the scene, its catalogue line and its test written"

# 4. The generated files, by the section's commands, after the debug build.
swift build --build-tests 2>&1 | tail -1
say "debug build"
scripts/api-check.sh --update --no-build --module CardScenes >/dev/null
CARDISTRY_UPDATE_GOLDEN=1 swift test --skip-build --filter 'GoldenTests' 2>&1 | tail -1
CARDISTRY_UPDATE_PROTOCOL_EXAMPLES=1 swift test --skip-build --filter 'ProtocolExamplesTests' 2>&1 | tail -1
say "regenerated: the API baseline, the goldens, the protocol document's examples"

# 5. The checks that go through every scene and take the scenes from the standard catalogue or the executable (the
#    ones over `SceneCatalog.testing` see a sixth scene in every run already; the goldens and the protocol's examples
#    were compared while they were regenerated), and the executable's own checks. The tour runs at one size, 80x24
#    (its four sizes are for the terminal UI, which the scene does not change). The debug executable serves: it is
#    built, and these checks measure no speed.
checks='ThrowawaySceneTests|TUIAppTests|TerminalModeTests|LegibilityTests|SceneDescriptionTests|StdioContractTests'
checks+='|TUITourEndToEndTests/tourOfEveryScene|TUITourEndToEndTests/everyHandTour'
status=0
CARDISTRY_TOUR_SIZES=80x24 swift test --skip-build --filter "$checks" >.add-a-scene-tests.log 2>&1 || status=1
tail -1 .add-a-scene-tests.log
[ "$status" = 0 ] || { grep -E '✘|error:' .add-a-scene-tests.log | head -40; }
rm -f .add-a-scene-tests.log
scripts/api-check.sh --check --no-build --module CardScenes >/dev/null || status=1
say "in-process and end-to-end tests"
cardistry=$PWD/.build/debug/cardistry
python3 scripts/conformance.py "$cardistry" | tail -1 || status=1
python3 scripts/schema-fuzz.py "$cardistry" --seed 26 | grep -E 'DISAGREEMENT|schema fuzz:|failures' || status=1
python3 examples/python-host/host.py "$cardistry" >/dev/null || status=1
if command -v nvim >/dev/null 2>&1; then
    python3 -c 'import sys; sys.path.insert(0, "examples/nvim-host"); import test_nvim as t
t.check_completion(sys.argv[1]); sys.exit(1 if t.failures else 0)' "$cardistry" || status=1
fi
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ] && python3 -c 'import playwright.sync_api' 2>/dev/null; then
    (cd examples/web-host && CARDISTRY="$cardistry" python3 -m unittest -q \
        test_browser.BrowserTest.test_every_other_scene_of_the_catalogue test_browser.CatalogueTest 2>&1 | tail -1) \
        || status=1
fi
say "the executable's checks: the conformance corpus, the schema fuzz, the Python host, the Neovim plugin's
completion, the browser test's pass over a scene it does not play by hand (when Neovim, chromium and playwright
are there)"

# 6. The files that changed, against the section's list.
changed_here | python3 -c '
import fnmatch, re, sys
text = open("docs/architecture.md", encoding="utf-8").read()
section = text.split("\n## Adding a scene\n", 1)[1].split("\n## ", 1)[0]
section = section[section.index("\n1. "):].strip("\n").split("\n\n", 1)[0]  # the numbered list only
paths = re.findall(r"`([A-Za-z0-9_./*+-]+\.[a-z]+)`", section)
listed = sorted({path.replace("XScene", "ThrowawayScene").replace("/x-start", "/sixth-start").replace("/x.", "/sixth.")
                 for path in paths if "/" in path or path.endswith(".md")})
changed = [line.strip() for line in sys.stdin if line.strip()]
sources = "Packages/Scenes/Sources/CardScenes/"
written = [sources + "ThrowawayScene.swift", sources + "SceneCatalog+Standard.swift",
           "Tests/CardScenesTests/ThrowawaySceneTests.swift"]
unlisted = [path for path in changed if not any(fnmatch.fnmatchcase(path, pattern) for pattern in listed)]
print("add-a-scene: %d files changed:" % len(changed))
for path in changed:
    print("  %s %s" % ("UNLISTED" if path in unlisted else "listed  ", path))
missing = [path for path in written if path not in changed]
if missing:
    print("add-a-scene: the scene was not written: %s" % missing)
if unlisted:
    print("add-a-scene: %d changed files are not in docs/architecture.md, \"Adding a scene\"" % len(unlisted))
sys.exit(1 if unlisted or missing else 0)
' || status=1
say "$([ "$status" = 0 ] && echo "passed: a scene added touched only the files the section lists" || echo FAILED)"
exit "$status"
