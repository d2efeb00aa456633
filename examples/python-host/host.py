#!/usr/bin/env python3
"""A minimal host for `cardistry stdio`, using the Python standard library only.

It spawns the server, initialises a host-clock session, opens the `wallet` scene, reorders a card with pointer
events making a long-press drag (or, in a build without `wallet`, drags the scores slider, which re-ranks the
cards), then prints the new order and a short summary of the settled frame.

    python3 examples/python-host/host.py [path/to/cardistry]

The executable defaults to $CARDISTRY, then .build/debug/cardistry, then `cardistry` on PATH. Exit status 0 when
the order changed, 1 otherwise.

The host keeps its own copy of the deck order (`DeckMirror`): it fetches it once with `deck.get`, then applies the
diff of every `deck.changed` (changes travel as diffs, never as the whole order: a move as its move, a large
reorder as base64 source slots) and checks the order's checksum, a sum of hashes of neighbouring ids, re-fetching
on a mismatch (docs/protocol.md, "Deck orders").

    python3 examples/python-host/host.py --cards 200000 --moves 20 [path/to/cardistry]

opens the `deck` scene with a generated deck of that many cards instead, moves cards with `deck.move`, and prints
the largest number of bytes the server wrote for one move (a move's diff, whatever the deck's size) and whether
the mirrored order matches `deck.get`'s.
"""

import array
import base64
import json
import os
import shutil
import subprocess
import sys


class Host:
    """Talks JSON-RPC 2.0 over newline-delimited JSON with a `cardistry stdio` child process."""

    def __init__(self, executable):
        self.process = subprocess.Popen(
            [executable, "stdio"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=sys.stderr,
        )
        self.next_id = 1
        self.notifications = []
        self.bytes_read = 0
        self.mirror = None

    def request(self, method, params=None):
        """Sends a request and returns its result; notifications that arrive first are kept in order."""
        request_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        # Compact JSON, one line; json.dumps escapes U+2028/U+2029 by default (ensure_ascii).
        self.process.stdin.write((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            self.bytes_read += len(line)
            reply = json.loads(line)
            if self.mirror is not None and isinstance(reply, dict) and reply.get("method") == "deck.changed":
                self.mirror.changed(reply["params"])
            if isinstance(reply, dict) and reply.get("id") == request_id:
                if "error" in reply:
                    raise RuntimeError("%s failed: %s" % (method, reply["error"]))
                return reply["result"]
            self.notifications.append(reply)

    def close(self):
        """shutdown, then the exit notification, then waits for the process."""
        self.request("shutdown")
        self.process.stdin.write(b'{"jsonrpc":"2.0","method":"exit"}\n')
        self.process.stdin.close()
        return self.process.wait(timeout=30)


MASK = 0xFFFFFFFF
EDGE = 0x6A09E667


def mix(x):
    """MurmurHash3's 32-bit finaliser (fmix32)."""
    x ^= x >> 16
    x = (x * 0x85EBCA6B) & MASK
    x ^= x >> 13
    x = (x * 0xC2B2AE35) & MASK
    return x ^ (x >> 16)


def order_checksum(ids):
    """The protocol's checksum of an order (docs/protocol.md, "Deck orders"): the sum modulo 2**32 of a hash of
    every pair of neighbours, with an edge marker before the first card and after the last."""
    keys = [EDGE]
    for card in ids:
        value = int(card)
        keys.append(mix((value & MASK) ^ mix((value >> 32) ^ 0x9E3779B9)))
    keys.append(EDGE)
    total = 0
    for first, second in zip(keys, keys[1:]):
        total += mix((first * 0x9E3779B1 + second) & MASK)
    return total & MASK


def apply_diff(order, diff, inserted=()):
    """Applies a `deck.changed` diff. A large reorder comes as `sources`: for each new slot, the old slot of its
    card, as little-endian 32-bit integers in base64. Otherwise the diff is one batch update (UIKit's reading, as
    `deck.diff` documents): removals are old indices, insertions new indices (their cards are the notification's
    `inserted`, in the same order), and each move takes the card at old index `from` to new index `to`; the other
    cards keep their order in the free slots."""
    if "sources" in diff:
        sources = array.array("I" if array.array("I").itemsize == 4 else "L")
        sources.frombytes(base64.b64decode(diff["sources"]))
        if sys.byteorder == "big":
            sources.byteswap()
        return [order[source] for source in sources]
    removed = set(diff["removals"])
    moved_from = {move[0] for move in diff["moves"]}
    new_count = len(order) - len(removed) + len(diff["insertions"])
    result = [None] * new_count
    filled = [False] * new_count
    for source, target in diff["moves"]:
        result[target] = order[source]
        filled[target] = True
    for position, index in enumerate(diff["insertions"]):
        result[index] = inserted[position] if position < len(inserted) else None
        filled[index] = True
    rest = (card for index, card in enumerate(order) if index not in removed and index not in moved_from)
    for slot in range(new_count):
        if not filled[slot]:
            result[slot] = next(rest)
    return result


class DeckMirror:
    """The host's copy of the open scene's order, kept by diffs and checked by checksum."""

    def __init__(self, host):
        self.host = host
        self.order = []
        self.revision = 0
        self.checksum = 0
        self.refetches = 0

    def fetch(self):
        """Reads the whole order with deck.get, a page at a time."""
        order, offset = [], 0
        while True:
            page = self.host.request("deck.get", {"offset": offset, "limit": 10000})
            order += [card["id"] for card in page["cards"]]
            offset += len(page["cards"])
            if offset >= page["total"] or not page["cards"]:
                break
        self.order = order
        self.revision = page["order"]["revision"]
        self.checksum = page["order"]["checksum"]

    def changed(self, change):
        """A deck.changed notification: applies the diff if it is the next revision."""
        if change["revision"] != self.revision + 1 or "diff" not in change:
            return
        self.order = apply_diff(self.order, change["diff"], change.get("inserted", []))
        self.revision = change["revision"]
        self.checksum = change["checksum"]

    def verify(self):
        """Whether the mirrored order has the server's checksum; re-fetches it when not."""
        if None not in self.order and order_checksum(self.order) == self.checksum:
            return True
        self.refetches += 1
        self.fetch()
        return False


def big_deck(host, cards, moves):
    """Opens the deck scene with `cards` generated cards, moves cards with deck.move and checks the mirror."""
    host.request("scene.open", {"scene": "deck", "options": {"cardCount": cards}})
    host.mirror = DeckMirror(host)
    host.mirror.fetch()
    largest = 0
    in_step = True
    for step in range(moves):
        card = host.mirror.order[(step * 7919) % cards]
        before = host.bytes_read
        result = host.request("deck.move", {"card": card, "to": (step * 104729) % cards})
        largest = max(largest, host.bytes_read - before)
        # The diff came in the deck.changed before the result; the result names the revision it made.
        in_step = in_step and result["order"]["revision"] == host.mirror.revision
    before = host.bytes_read
    sorted_order = host.request("deck.sort", {"by": "title", "order": "descending"})["order"]
    sort_bytes = host.bytes_read - before
    in_step = in_step and sorted_order["revision"] == host.mirror.revision
    mirrored = list(host.mirror.order)
    matches = host.mirror.verify() and in_step
    host.mirror.fetch()
    print("moves: %d on %d cards; largest bytes out per move: %d" % (moves, cards, largest))
    print("bytes out for a sort of every card: %d" % sort_bytes)
    print("checksum: %s (host %d, server %d)" % (
        "ok" if matches else "MISMATCH", order_checksum(mirrored), host.mirror.checksum))
    print("mirror matches deck.get: %s" % ("yes" if mirrored == host.mirror.order else "NO"))
    status = host.close()
    print("server exited with status %d" % status)
    return 0 if matches and mirrored == host.mirror.order and status == 0 else 1


def option(arguments, name):
    """The value after `name` in `arguments` (removing both), or None."""
    if name not in arguments:
        return None
    index = arguments.index(name)
    value = arguments[index + 1]
    del arguments[index:index + 2]
    return int(value)


def find_executable(arguments):
    if len(arguments) > 1:
        return arguments[1]
    if os.environ.get("CARDISTRY"):
        return os.environ["CARDISTRY"]
    built = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "cardistry")
    if os.path.exists(built):
        return built
    return shutil.which("cardistry") or "cardistry"


def centre(node):
    return node["x"] + node["width"] / 2, node["y"] + node["height"] / 2


def drag(host, start, end, t, hold, steps=12):
    """A press at `start` held for `hold` seconds (the host clock advances through it), then a drag to `end`."""
    host.request("input.pointer", {"phase": "down", "x": start[0], "y": start[1], "t": t})
    if hold > 0:
        host.request("clock.advance", {"to": t + hold})  # the press is recognised while the clock moves
    t += hold
    for step in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * step / steps
        y = start[1] + (end[1] - start[1]) * step / steps
        t += 1 / 60
        host.request("input.pointer", {"phase": "move", "x": x, "y": y, "t": t})
    host.request("input.pointer", {"phase": "up", "x": end[0], "y": end[1], "t": t})
    return t


def reorder_wallet(host, frame):
    """Long-press the front card of the wallet stack and drag it up two places (50 points a place)."""
    # The cards slide in when the scene opens: let them settle first.
    frame = host.request("clock.advance", {"to": 1.0})["frame"]
    cards = sorted((n for n in frame["nodes"] if n["role"] == "card"), key=lambda n: n["z"], reverse=True)
    if len(cards) < 3:
        raise RuntimeError("the wallet shows fewer than three cards")
    front = cards[0]
    start = centre(front)
    end = (start[0], start[1] - 2.3 * 50)
    return drag(host, start, end, t=1.0, hold=0.6), "long-press drag of card %s" % front.get("card")


def reorder_scores(host, frame):
    """Drag the slider thumb to test 7: the cards re-rank by that test's scores."""
    nodes = {n["id"]: n for n in frame["nodes"]}
    thumb = nodes["slider.thumb"]
    tick = nodes.get("slider.tick.7") or thumb
    return drag(host, centre(thumb), (centre(tick)[0], centre(thumb)[1]), t=1.0, hold=0.6), "slider drag to test 7"


def summary(frame):
    nodes = frame["nodes"]
    roles = {}
    for node in nodes:
        roles[node["role"]] = roles.get(node["role"], 0) + 1
    cards = sorted((n for n in nodes if n["role"] == "card"), key=lambda n: n["y"])
    lines = [
        "frame seq %d at t=%.3f s: %d nodes (%s), %s"
        % (
            frame["seq"],
            frame["t"],
            len(nodes),
            ", ".join("%d %s" % (count, role) for role, count in sorted(roles.items())),
            "animating" if frame["animating"] else "settled",
        )
    ]
    for card in cards[:6]:
        texts = [card.get("text")] + [n.get("text") for n in nodes if n.get("parent") == card["id"]]
        label = " | ".join(text for text in texts if text)
        lines.append("  card %-6s y=%7.1f  %s" % (card.get("card"), card["y"], label[:60]))
    return "\n".join(lines)


def main(arguments):
    arguments = list(arguments)
    cards = option(arguments, "--cards")
    moves = option(arguments, "--moves") or 20
    host = Host(find_executable(arguments))
    hello = host.request(
        "initialize",
        {
            "protocolVersion": "1.0",
            "clientInfo": {"name": "python-host", "version": "1"},
            "viewport": {"width": 390, "height": 844},
            "clock": "host",
            "frames": "full",
        },
    )
    if cards is not None:
        return big_deck(host, cards, moves)
    scenes = hello["scenes"]
    scene = "wallet" if "wallet" in scenes else "scores"
    print("server %s %s; scenes: %s; using %s" % (
        hello["serverInfo"]["name"], hello["serverInfo"]["version"], ", ".join(scenes), scene))
    opened = host.request("scene.open", {"scene": scene})
    host.mirror = DeckMirror(host)
    host.mirror.fetch()
    before = list(host.mirror.order)
    if scene == "wallet":
        t, how = reorder_wallet(host, opened["frame"])
    else:
        t, how = reorder_scores(host, opened["frame"])
    frame = host.request("clock.advance", {"to": t + 2.0})["frame"]
    # The order as the diffs left it, checked against the server's checksum (a mismatch re-fetches it).
    print("mirrored order checksum: %s" % ("ok" if host.mirror.verify() else "mismatch, re-fetched"))
    after = host.mirror.order
    gestures = [n["params"] for n in host.notifications if n.get("method") == "gesture"]
    changes = [n["params"] for n in host.notifications if n.get("method") == "deck.changed"]
    print("%s: %d gesture events, %d deck changes" % (how, len(gestures), len(changes)))
    print("order before: %s" % " ".join(before))
    print("order after:  %s" % " ".join(after))
    if changes:
        print("last diff:    %s" % json.dumps(changes[-1]["diff"], separators=(",", ":")))
    print(summary(frame))
    restarted = flashcards_restart(host)
    status = host.close()
    print("server exited with status %d" % status)
    return 0 if after != before and restarted and status == 0 else 1


def flashcards_restart(host):
    """Swipes two flashcards away and restarts the stack: the restart's deck.changed inserts cards, and carries
    their ids (`inserted`), so the mirror follows it without fetching the order again."""
    host.request("scene.open", {"scene": "flashcards"})
    host.mirror = DeckMirror(host)
    host.mirror.fetch()
    for _ in range(2):
        host.request("scene.action", {"name": "swipe", "direction": "left"})
    host.request("scene.action", {"name": "restart"})
    followed = host.mirror.verify() and host.mirror.refetches == 0
    print("flashcards restart followed from the changes alone: %s" % ("yes" if followed else "NO"))
    return followed


if __name__ == "__main__":
    sys.exit(main(sys.argv))
