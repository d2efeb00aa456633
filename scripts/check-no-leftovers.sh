#!/usr/bin/env bash
# Fails (exit 1) when a test run left processes behind: a tmux server of the end-to-end tests (`tmux -L
# cardistry-e2e-…`) running in this checkout, or a process running an executable built in this checkout
# (.build/…/cardistry, cardistry-store-stress, …). Lists them, then kills them so the machine is clean either way;
# another checkout's processes (a second worktree's test run) are left alone.
#
#   scripts/check-no-leftovers.sh [REPO]
set -u
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
leftovers=()
for proc in /proc/[0-9]*; do
    pid=${proc#/proc/}
    [ "$pid" = "$$" ] && continue
    # A process may end between the listing and the read: the shell's own error on the redirection is silenced too.
    cmdline=$({ tr '\0' ' ' < "$proc/cmdline"; } 2>/dev/null) || continue
    exe=$(readlink "$proc/exe" 2>/dev/null || true)
    # A tmux server (or its watcher) of this checkout's tests runs in the checkout: another checkout's tests on the
    # same machine are not ours to judge or kill.
    cwd=$(readlink "$proc/cwd" 2>/dev/null || true)
    case "$cmdline" in
        *"tmux -L cardistry-e2e-"*)
            case "$cwd" in
                "$repo" | "$repo"/*) leftovers+=("$pid $cmdline") ;;
            esac
            continue
            ;;
    esac
    case "$exe" in
        "$repo"/.build/*) leftovers+=("$pid $exe") ;;
    esac
done
if [ ${#leftovers[@]} -eq 0 ]; then
    echo "no process left behind"
    exit 0
fi
echo "the test run left ${#leftovers[@]} process(es) behind:" >&2
for entry in "${leftovers[@]}"; do
    echo "  $entry" >&2
    kill -9 "${entry%% *}" 2>/dev/null || true
done
exit 1
