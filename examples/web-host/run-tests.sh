#!/usr/bin/env bash
# Runs the web host's browser test: bash examples/web-host/run-tests.sh [path/to/cardistry]
# Installs what is missing, only when it is missing: Debian's chromium (and an emoji font for the icons) with
# apt-get, Playwright's Python package with pip. Never downloads a browser build (no `playwright install`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cardistry="${1:-${CARDISTRY:-$repo/.build/release/cardistry}}"
case "$cardistry" in /*) ;; *) cardistry="$PWD/$cardistry" ;; esac
export CARDISTRY="$cardistry"
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
python="${PYTHON:-python3}"

if [ ! -x "$CARDISTRY" ]; then
    echo "run-tests.sh: no cardistry executable at $CARDISTRY (swift build -c release, or pass its path)" >&2
    exit 2
fi

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
if command -v fc-list >/dev/null 2>&1 && ! fc-list | grep -qi "emoji"; then missing+=(fonts-noto-color-emoji); fi
if [ "${#missing[@]}" -gt 0 ]; then
    echo "run-tests.sh: installing ${missing[*]} from Debian"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! "$python" -c "import playwright.sync_api" >/dev/null 2>&1; then
    echo "run-tests.sh: installing playwright from PyPI (the Python package only; the browser is Debian's)"
    "$python" -m pip install --quiet playwright || "$python" -m pip install --quiet --break-system-packages playwright
fi

echo "run-tests.sh: $("$CHROMIUM" --version 2>/dev/null || echo chromium); server $CARDISTRY"
cd "$repo"
start=$(date +%s)
status=0
"$python" "$here/test_browser.py" || status=$?
echo "run-tests.sh: browser test took $(( $(date +%s) - start )) s, status $status"
exit "$status"
