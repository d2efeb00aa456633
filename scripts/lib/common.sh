# Sourced by scripts/docs.sh and scripts/api-check.sh. Bash.
#
# The module list comes from ONE place: the library products of the root package (`swift package dump-package`),
# resolved by scripts/lib/swiftpm.py. A `--module NAME` on either script overrides it.

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SWIFTPM_HELPER="$REPO_ROOT/scripts/lib/swiftpm.py"

# Tools come from the active toolchain (the directory that holds `swift`), never from a package dependency.
toolchain_bin() {
    dirname "$(readlink -f "$(command -v swift)")"
}

# Ensures the ordinary debug build is up to date (a no-op when it is) unless NO_BUILD=1, then sets BIN_DIR.
# The same `swift build` a developer or CI runs anyway: no extra flags, so nothing is rebuilt for the tooling.
prepare_build() {
    if [[ "${NO_BUILD:-0}" != 1 ]]; then
        swift build >&2
    fi
    BIN_DIR="$(swift build --show-bin-path)"
}

# Fills the MODULES array: --module arguments if any were given (EXPLICIT_MODULES), else the helper's answer.
resolve_modules() {
    if [[ ${#EXPLICIT_MODULES[@]} -gt 0 ]]; then
        MODULES=("${EXPLICIT_MODULES[@]}")
    else
        local out
        out="$(python3 "$SWIFTPM_HELPER" modules "$BIN_DIR")" || exit 2
        mapfile -t MODULES <<< "$out"
    fi
    [[ ${#MODULES[@]} -gt 0 && -n "${MODULES[0]}" ]] || { echo "error: no library module to process" >&2; exit 2; }
}

# Fills the FLAGS array with the import flags the build used for module $1.
module_flags() {
    local out
    out="$(python3 "$SWIFTPM_HELPER" flags "$BIN_DIR" "$1")" || exit 2
    mapfile -t FLAGS <<< "$out"
}
