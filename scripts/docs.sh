#!/usr/bin/env bash
# Builds DocC documentation for every library module with the toolchain's own `docc` (no swift-docc-plugin) and
# gates it: any DocC warning fails the run, and so does a public symbol without a documentation comment.
#
#   scripts/docs.sh [--no-build] [--allow-undocumented] [--undocumented-out FILE] [--module NAME]...
#
#   --no-build             use the existing debug build as is (default: run `swift build` first, a no-op when
#                          the build is up to date)
#   --allow-undocumented   report undocumented public symbols but do not fail on them (DocC warnings still fail)
#   --undocumented-out F   also write the undocumented-symbol list to F
#   --module NAME          document only NAME (repeatable); default: the library modules, see scripts/lib/common.sh
#
# Steps, per module M:
#   1. swift-symbolgraph-extract on the built M.swiftmodule (with the import flags the build used), twice:
#        .build/docs/symbol-graphs/M/render    -minimum-access-level public -skip-synthesized-members
#        .build/docs/symbol-graphs/M/coverage  the same plus -skip-protocol-implementations -skip-inherited-docs
#   2. docc convert [M.docc, if a catalog directory named M.docc exists anywhere in the repository]
#        --additional-symbol-graph-dir .build/docs/symbol-graphs/M/render --warnings-as-errors
#        --enable-inherited-docs --output-path .build/docs/M.doccarchive   (static-hosting layout is docc's default)
#   3. scripts/lib/doc_coverage.py over the coverage graphs (the rule is documented there).
#
# Viewing: the archive is laid out for static hosting but DocC's web app loads its JSON with fetch(), which
# browsers refuse over file://, so serve it:
#   python3 -m http.server -d .build/docs/CardModels.doccarchive 8000
#   open http://localhost:8000/documentation/cardmodels/
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REPO_ROOT"

NO_BUILD=0
ALLOW_UNDOCUMENTED=0
UNDOCUMENTED_OUT=""
EXPLICIT_MODULES=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) NO_BUILD=1 ;;
        --allow-undocumented) ALLOW_UNDOCUMENTED=1 ;;
        --undocumented-out) UNDOCUMENTED_OUT="$2"; shift ;;
        --module) EXPLICIT_MODULES+=("$2"); shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

TOOLS="$(toolchain_bin)"
prepare_build
resolve_modules

OUT="$REPO_ROOT/.build/docs"
GRAPHS="$OUT/symbol-graphs"
mkdir -p "$OUT"
failed=()

for M in "${MODULES[@]}"; do
    module_flags "$M"
    rm -rf "${GRAPHS:?}/$M"
    mkdir -p "$GRAPHS/$M/render" "$GRAPHS/$M/coverage"
    common=(-module-name "$M" "${FLAGS[@]}" -minimum-access-level public -skip-synthesized-members)
    "$TOOLS/swift-symbolgraph-extract" "${common[@]}" -output-dir "$GRAPHS/$M/render"
    "$TOOLS/swift-symbolgraph-extract" "${common[@]}" -skip-protocol-implementations -skip-inherited-docs \
        -output-dir "$GRAPHS/$M/coverage"

    catalog=()
    mapfile -t found < <(find "$REPO_ROOT" -path "$REPO_ROOT/.build" -prune -o -path "$REPO_ROOT/.git" -prune \
        -o -type d -name "$M.docc" -print)
    if [[ ${#found[@]} -gt 1 ]]; then
        echo "error: more than one $M.docc catalog: ${found[*]}" >&2; exit 2
    elif [[ ${#found[@]} -eq 1 ]]; then
        catalog=("${found[0]}")
    fi

    rm -rf "$OUT/$M.doccarchive"
    echo "== docc convert $M${catalog:+ (catalog ${catalog[0]#"$REPO_ROOT"/})}" >&2
    if ! "$TOOLS/docc" convert "${catalog[@]}" \
        --additional-symbol-graph-dir "$GRAPHS/$M/render" \
        --fallback-display-name "$M" \
        --fallback-bundle-identifier "org.cardistry.$M" \
        --output-path "$OUT/$M.doccarchive" \
        --enable-inherited-docs \
        --warnings-as-errors; then
        failed+=("$M (docc)")
    fi
done

coverage_status=0
report="$(python3 "$REPO_ROOT/scripts/lib/doc_coverage.py" "$REPO_ROOT" "$GRAPHS" "${MODULES[@]}")" || coverage_status=$?
echo "$report"
if [[ -n "$UNDOCUMENTED_OUT" ]]; then
    printf '%s\n' "$report" > "$UNDOCUMENTED_OUT"
fi
if [[ $coverage_status -gt 1 ]]; then
    failed+=("coverage check crashed")
elif [[ $coverage_status -eq 1 && $ALLOW_UNDOCUMENTED != 1 ]]; then
    failed+=("undocumented public symbols")
fi

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "docs.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "docs.sh: OK: ${MODULES[*]} -> .build/docs/<Module>.doccarchive" >&2
