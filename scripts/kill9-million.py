#!/usr/bin/env python3
"""kill -9 through a long session of a 1,000,000-card deck, mid-snapshot included (issue 25).

Usage: scripts/kill9-million.py CARDISTRY [POINTS] [CARDS]

A reference session without a store gives the order checksum after every change of a seeded history of moves
(at random distances) and sorts (by every key). Then, POINTS times: a server with the store on reopens the deck,
the test checks that the restored order is one the history had, no older than the last restore, carries on with
the history and kills the server with SIGKILL while it works on a change (a sort of a million cards writes a
5 MB snapshot every few sorts, so many kills land in a snapshot). The next server must restore a state the
session had that holds every change acknowledged more than the durability window (0.25 s, docs/protocol.md
"Saved state") before the last acknowledgement, never a torn one. Python standard library only; exits 1 on a
violation.
"""
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

WINDOW = 0.25 + 0.25  # the promise, plus a margin for this script reading replies a little late


class Server:
    def __init__(self, binary, store=None):
        arguments = [binary, "stdio"] + (["--store", store] if store else [])
        env = dict(os.environ)
        if not store:
            env["CARDISTRY_HOME"] = tempfile.mkdtemp(prefix="cardistry-kill9-ref-")
        self.process = subprocess.Popen(
            arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )
        self.next_id = 0
        self.request("initialize", {
            "protocolVersion": "1.0", "clientInfo": {"name": "kill9"},
            "viewport": {"width": 390, "height": 844}, "clock": "host", "frames": "delta",
        })

    def send(self, method, params):
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n"
        self.process.stdin.write(line.encode())
        self.process.stdin.flush()
        return self.next_id

    def request(self, method, params):
        wanted = self.send(method, params)
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise EOFError(f"the server ended before answering {method}")
            message = json.loads(line)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def close(self):
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        self.process.wait()


def open_deck(server, cards, persist):
    options = {"cardCount": cards}
    if persist:
        options["persistState"] = True
    return server.request("scene.open", {"scene": "deck", "options": options})["order"]["checksum"]


def apply(server, change):
    if change[0] == "move":
        return server.request("deck.move", {"card": change[1], "to": change[2]})["order"]["checksum"]
    return server.request("deck.sort", {"by": change[1], "order": change[2]})["order"]["checksum"]


def main():
    binary = sys.argv[1]
    points = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    cards = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
    rng = random.Random(25)

    reference = Server(binary)
    history = [open_deck(reference, cards, persist=False)]
    ids = [card["id"] for card in reference.request("deck.get", {"offset": 0, "limit": 300})["cards"]]
    changes = []
    for _ in range(points * 12):
        if rng.random() < 0.3:
            changes.append(("sort", rng.choice(["title", "color", "sortOrder", "id"]),
                            rng.choice(["ascending", "descending"])))
        else:
            changes.append(("move", rng.choice(ids), rng.randrange(cards)))
    for change in changes:
        history.append(apply(reference, change))
    reference.close()

    store = tempfile.mkdtemp(prefix="cardistry-kill9-")
    done = 0
    failures = []
    try:
        for point in range(points):
            server = Server(binary, store)
            restored = open_deck(server, cards, persist=True)
            if restored not in history[done:]:
                failures.append(f"point {point}: the reopened order is not one the session had after change {done}")
                server.close()
                break
            done = history.index(restored, done)
            count = rng.randrange(3, 12)
            if done + count >= len(changes):
                server.close()
                break
            acknowledged = []
            for step in range(count - 1):
                checksum = apply(server, changes[done + step])
                if checksum != history[done + step + 1]:
                    failures.append(f"point {point}: change {done + step + 1} gave another order than the reference")
                acknowledged.append((done + step + 1, time.monotonic()))
            # The last change is sent and the server killed while it works on it (or just after).
            last = changes[done + count - 1]
            if last[0] == "move":
                server.send("deck.move", {"card": last[1], "to": last[2]})
            else:
                server.send("deck.sort", {"by": last[1], "order": last[2]})
            delay = rng.random() * 0.05
            killer = threading.Timer(delay, lambda: server.process.send_signal(signal.SIGKILL))
            killer.start()
            killer.join()
            server.process.wait()
            newest = acknowledged[-1][1] if acknowledged else 0
            floor = max([done] + [change for change, at in acknowledged if at < newest - WINDOW])
            check = Server(binary, store)
            checksum = open_deck(check, cards, persist=True)
            check.close()
            if checksum not in history[done:]:
                failures.append(f"point {point}: after kill -9 the order is not one the session had (torn?)")
                break
            index = history.index(checksum, done)
            if index < floor:
                failures.append(f"point {point}: lost change {index + 1}…{floor}, acknowledged before the window")
            print(f"point {point}: {count} changes, killed {delay * 1000:.0f} ms into {last[0]}; "
                  f"restored change {index} (floor {floor}, last acknowledged {done + count - 1})")
            done = index
    finally:
        shutil.rmtree(store, ignore_errors=True)
    for failure in failures:
        print("kill9-million: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
