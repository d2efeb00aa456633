#!/usr/bin/env bash
# Public-API baseline of every library module, recorded with the toolchain's swift-api-digester in api/<Module>.json.
#
#   scripts/api-check.sh [--check]                 (default) fail unless the current API equals api/*.json exactly
#   scripts/api-check.sh --update                  rewrite api/*.json from the current build
#   scripts/api-check.sh --check-history [RANGE]   fail if a commit in RANGE (default HEAD, i.e. all history) broke
#                                                  the API in api/*.json without an `API-break: <reason>` line
#   common options: --no-build (use the debug build as is), --module NAME (repeatable; default: the library
#   modules, see scripts/lib/common.sh)
#
# Dump, per module M, from the ordinary debug build (no separate build; `swift build` first is a no-op when up to date):
#   swift-api-digester -dump-sdk -module M <the -I/-Xcc/-target/-module-cache-path flags the build used for M>
#       -avoid-location -avoid-tool-args -o tmp.json        (API mode: no -abi)
#   then scripts/lib/api_tool.py normalize: Import nodes dropped, keys sorted, so the file has no path, date, tool
#   argument or build-configuration detail in it.
#
# --check: any difference fails, additions included, so the baseline is always exact. The report lists the changed
# declarations (+ added, - removed, ~ changed) and the digester's breakage verdict
#   swift-api-digester -diagnose-sdk -input-paths api/M.json -input-paths current.json
# A baseline without a module (module dropped) or a module without a baseline fails too.
#
# The rule for breaks: a commit that changes api/*.json so that the digester reports a breakage (or deletes a
# baseline) must say why in its message, on a line of its own: `API-break: <one-line reason>`. --check-history
# checks exactly that, commit by commit (non-merge commits, each against its first parent), from git alone: no build.
# CI: `scripts/api-check.sh --check` (after `swift build`) and `scripts/api-check.sh --check-history` on a clone with
# history (fetch-depth 0); for a pull request `--check-history origin/main..HEAD` checks only its commits.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REPO_ROOT"

MODE=check
RANGE=HEAD
NO_BUILD=0
EXPLICIT_MODULES=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --check) MODE=check ;;
        --update) MODE=update ;;
        --check-history)
            MODE=history
            if [[ $# -gt 1 && "$2" != --* ]]; then RANGE="$2"; shift; fi ;;
        --no-build) NO_BUILD=1 ;;
        --module) EXPLICIT_MODULES+=("$2"); shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

TOOLS="$(toolchain_bin)"
DIGESTER="$TOOLS/swift-api-digester"
API_TOOL="$REPO_ROOT/scripts/lib/api_tool.py"

if [[ $MODE == history ]]; then
    exec python3 "$API_TOOL" history "$DIGESTER" "$RANGE"
fi

prepare_build
resolve_modules

CURRENT="$(mktemp -d)"
trap 'rm -rf "$CURRENT"' EXIT
for M in "${MODULES[@]}"; do
    module_flags "$M"
    "$DIGESTER" -dump-sdk -module "$M" "${FLAGS[@]}" -avoid-location -avoid-tool-args -o "$CURRENT/$M.raw.json"
    python3 "$API_TOOL" normalize "$CURRENT/$M.raw.json" "$CURRENT/$M.json"
    rm "$CURRENT/$M.raw.json"
done

if [[ $MODE == update ]]; then
    mkdir -p api
    for M in "${MODULES[@]}"; do cp "$CURRENT/$M.json" "api/$M.json"; done
    if [[ ${#EXPLICIT_MODULES[@]} -eq 0 ]]; then
        for f in api/*.json; do
            [[ -e "$CURRENT/$(basename "$f")" ]] || { echo "removed $f (no longer a library module)"; rm "$f"; }
        done
    fi
    git status --short -- api/
    echo "api-check.sh: baselines updated for ${MODULES[*]}. If the change breaks the API, the commit message needs"
    echo "a line \`API-break: <reason>\` (see scripts/api-check.sh --check-history)."
    exit 0
fi

status=0
broken=0
for M in "${MODULES[@]}"; do
    if [[ ! -f "api/$M.json" ]]; then
        echo "FAILED  $M: no baseline api/$M.json (new library module? run scripts/api-check.sh --update)"
        status=1
        continue
    fi
    if cmp -s "api/$M.json" "$CURRENT/$M.json"; then
        echo "ok      $M"
        continue
    fi
    status=1
    echo "FAILED  $M: the public API differs from api/$M.json"
    python3 "$API_TOOL" diff "api/$M.json" "$CURRENT/$M.json"
    mapfile -t found < <(python3 "$API_TOOL" breaks "$DIGESTER" "api/$M.json" "$CURRENT/$M.json")
    if [[ ${#found[@]} -gt 0 && -n "${found[0]}" ]]; then
        broken=1
        echo "  API BREAKAGE reported by swift-api-digester -diagnose-sdk:"
        printf '    %s\n' "${found[@]}"
    else
        echo "  no breakage (additions or compatible changes only): refresh the baseline"
    fi
done
if [[ ${#EXPLICIT_MODULES[@]} -eq 0 ]]; then
    for f in api/*.json; do
        [[ -e "$f" ]] || continue
        M="$(basename "$f" .json)"
        if [[ ! -e "$CURRENT/$M.json" ]]; then
            echo "FAILED  $M: api/$M.json exists but $M is no longer a library module (an API break)"
            status=1
            broken=1
        fi
    done
fi
if [[ $status -ne 0 ]]; then
    echo
    echo "api-check.sh: FAILED. Run scripts/api-check.sh --update and commit api/ with the change."
    if [[ $broken -ne 0 ]]; then
        echo "This is an API break: the commit that updates api/ must carry a line \`API-break: <one-line reason>\`."
    fi
    exit 1
fi
echo "api-check.sh: OK: ${MODULES[*]} match api/*.json"
