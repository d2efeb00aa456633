#!/usr/bin/env python3
"""End-to-end test of the Neovim host: Neovim in tmux, the plugin on its runtime path, `cardistry stdio` behind it.

    python3 examples/nvim-host/test_nvim.py BINARY [--capture FILE]

First `:Cardistry <Tab>` must offer the server's catalogue (the plugin names no scene). Then at 80x24 (256 colours)
and 120x40 ('termguicolors'), `nvim --clean` with this directory on its runtime path opens each of the five seed
scenes with `:Cardistry SCENE`, plays one of its seed's interactions with the mouse (SGR mouse reports, as a
terminal sends them) and the keys, and checks the screen's text: the flashcard's prompt and a swipe that takes it
away, the scores' names re-ranked, the wallet's brands, the hero's details, the deck's titles. Then a study session: a TSV
deck file, a card swiped away with `l`, the window closed and opened again, and the progress is still there (it is
kept in the store, as the terminal UI keeps it). After each `q` and at the end no `cardistry` process of this test
is left. Last, at 120x40, the board (scenes/board.json, a scene that exists only as data, defined through
g:cardistry_scene_files): a card dragged to another column, a reorder, a click that expands a card, a fling that
archives one and `r` that restores it. --capture FILE writes the flashcards screen at 120x40 with its colours (tmux `capture-pane -e`), for the
README's picture (render it with a tool such as termshot).

Exit status 0 when every check passed, 1 otherwise, 2 when nvim or tmux is missing. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
STUDENTS = ["Alice", "Bob", "Charlie", "Diana", "Eve"]
BRANDS = ["DISCOVER", "UnionPay", "AMEX", "Mastercard", "VISA"]
DECK_TITLES = ["Inbox", "Reading List", "Recipes", "Travel", "Workouts"]
PROMPT = "What is the speed of light in vacuum, in km/s (rounded)?"
failures: list[str] = []


def check(condition: bool, message: str, screen: list[str] | None = None) -> None:
    if condition:
        print(f"  ok   {message}")
        return
    failures.append(message)
    print(f"  FAIL {message}")
    if screen is not None:
        print("\n".join("       |" + line for line in screen))


class Nvim:
    """Neovim in a detached tmux session on a private socket."""

    def __init__(self, binary: str, store: str, cols: int, rows: int, true_colour: bool, *extra: str) -> None:
        self.socket = f"cardistry-nvim-test-{os.getpid()}"
        self.cols, self.rows = cols, rows
        command = [
            "nvim", "--clean", "--cmd", f"set rtp^={HERE}", "--cmd", f"let g:cardistry_cmd = '{binary}'",
            "--cmd", f"let g:cardistry_store = '{store}'", *extra,
        ]
        if true_colour:
            command += ["--cmd", "set termguicolors"]
        self.tmux("kill-server", check=False)
        self.tmux(
            "new-session", "-d", "-s", "t", "-x", str(cols), "-y", str(rows),
            "env TERM=xterm-256color COLORTERM=truecolor " + " ".join(shlex.quote(part) for part in command),
        )
        self.wait_for(lambda lines: any(line.startswith("~") for line in lines), "nvim started")

    def tmux(self, *args: str, check: bool = True) -> str:
        result = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True)
        if check and result.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)}: {result.stderr}")
        return result.stdout

    def lines(self) -> list[str]:
        return self.tmux("capture-pane", "-p", "-t", "t").split("\n")[: self.rows]

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def command(self, text: str) -> None:
        self.keys(":" + text, "Enter")

    def mouse(self, kind: str, col: int, row: int) -> None:
        """An SGR-1006 mouse report at a 0-based cell: down, drag, up or wheeldown."""
        code = {"down": "0;{};{}M", "drag": "32;{};{}M", "up": "0;{};{}m", "wheeldown": "65;{};{}M"}[kind]
        sequence = "\x1b[<" + code.format(col + 1, row + 1)
        self.tmux("send-keys", "-t", "t", "-H", *[f"{byte:02x}" for byte in sequence.encode()])

    def drag(self, start: tuple[int, int], end: tuple[int, int], steps: int = 8) -> None:
        self.mouse("down", *start)
        time.sleep(0.05)
        for step in range(1, steps + 1):
            col = start[0] + (end[0] - start[0]) * step // steps
            row = start[1] + (end[1] - start[1]) * step // steps
            self.mouse("drag", col, row)
            time.sleep(0.02)
        self.mouse("up", *end)

    def click(self, col: int, row: int) -> None:
        self.mouse("down", col, row)
        time.sleep(0.05)
        self.mouse("up", col, row)

    def wait_for(self, predicate, what: str, timeout: float = 10, quiet: bool = False) -> list[str] | None:
        """The screen once `predicate` holds; after `timeout` seconds a failed check (with `quiet`, None)."""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.lines()
            if predicate(lines):
                return lines
            if time.monotonic() > deadline:
                if quiet:
                    return None
                check(False, f"{self.cols}x{self.rows}: {what} (timed out)", lines)
                return lines
            time.sleep(0.05)

    def still(self, quiet: float = 0.5, timeout: float = 10) -> list[str]:
        """The screen once it has not changed for `quiet` seconds (animations settled)."""
        deadline = time.monotonic() + timeout
        last, since = self.lines(), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.05)
            lines = self.lines()
            if lines != last:
                last, since = lines, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return lines
        return last

    def resize(self, cols: int, rows: int) -> None:
        """The terminal changes size (Neovim gets SIGWINCH and VimResized)."""
        self.tmux("resize-window", "-t", "t", "-x", str(cols), "-y", str(rows))
        self.cols, self.rows = cols, rows

    def close(self) -> None:
        self.tmux("kill-server", check=False)


def servers(store: str) -> list[str]:
    """The `cardistry stdio` processes of this test (their command line names its store)."""
    out = subprocess.run(["pgrep", "-af", f"stdio --store {store}"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if "pgrep" not in line]


def row_of(lines: list[str], word: str) -> int | None:
    return next((index for index, line in enumerate(lines) if word in line), None)


def order(lines: list[str], words: list[str]) -> list[str]:
    rows = {word: row_of(lines, word) for word in words}
    return sorted((word for word in words if rows[word] is not None), key=lambda word: rows[word])


def joined(lines: list[str]) -> str:
    """The screen's text with box edges removed, as one line of words."""
    words = []
    for line in lines:
        text = line.translate(str.maketrans("│┃", "  ")).strip()
        if text:
            words.append(" ".join(text.split()))
    return " ".join(words)


def close_scene(nvim: Nvim, store: str, size: str, scene: str) -> None:
    nvim.keys("q")
    nvim.wait_for(lambda lines: any(line.startswith("~") for line in lines), f"{scene}: q closed the window")
    deadline = time.monotonic() + 5
    while servers(store) and time.monotonic() < deadline:
        time.sleep(0.05)
    check(not servers(store), f"{size} {scene}: q left no cardistry process")


def play(binary: str, cols: int, rows: int, capture: str | None) -> None:
    size = f"{cols}x{rows}"
    print(f"{size}:")
    store = tempfile.mkdtemp(prefix="cardistry-nvim-store-")
    # 80x24 in Neovim's default 256 colours, 120x40 with 'termguicolors' (the server's true colour).
    nvim = Nvim(binary, store, cols, rows, true_colour=cols >= 120)
    try:
        grid_rows = rows - 1  # the command line stays Neovim's

        # scores: the names ranked by test 1; `l` moves the slider to test 2, dragging its thumb to test 5.
        nvim.command("Cardistry scores")
        lines = nvim.wait_for(lambda lines: all(row_of(lines, name) is not None for name in STUDENTS), "scores")
        lines = nvim.still()
        first = order(lines, STUDENTS)
        check(len(first) == 5, f"{size} scores: every name shown ({first})", lines)
        nvim.keys("l")
        lines = nvim.wait_for(lambda lines: row_of(lines, "Test 2") is not None, "scores: l chose test 2")
        lines = nvim.still()
        second = order(lines, STUDENTS)
        check(second != first and len(second) == 5, f"{size} scores: l re-ranked {first} as {second}", lines)
        # The slider: its tick labels 1 … 10 on one row, its track (with the thumb, now at 2) on the row above.
        ticks = next((i for i, line in enumerate(lines) if line.split()[:3] == ["1", "2", "3"]), None)
        track = next((i for i in range((ticks or 0) - 1, -1, -1) if "─" in lines[i]), None) if ticks else None
        if ticks is None or track is None:
            check(False, f"{size} scores: the slider's track and ticks", lines)
            return
        nvim.drag((lines[ticks].index("2"), track), (lines[ticks].index("5"), track))
        lines = nvim.wait_for(lambda lines: row_of(lines, "Test 5") is not None, "scores: a drag chose test 5")
        lines = nvim.still()
        third = order(lines, STUDENTS)
        check(third != second and len(third) == 5, f"{size} scores: dragging the slider re-ranked them as {third}", lines)
        close_scene(nvim, store, size, "scores")

        # flashcards: the whole prompt; a drag to the left swipes it away; `l` swipes the next one.
        nvim.command("Cardistry flashcards")
        lines = nvim.wait_for(lambda lines: PROMPT in joined(lines), "flashcards: the whole prompt")
        lines = nvim.still()
        check(PROMPT in joined(lines), f"{size} flashcards: the prompt '{PROMPT}'", lines)
        if capture and cols == 120:
            Path(capture).write_text(nvim.tmux("capture-pane", "-e", "-p", "-N", "-t", "t"))
        middle = (cols // 2, grid_rows // 3)
        nvim.drag(middle, (2, grid_rows // 3))
        lines = nvim.wait_for(lambda lines: "speed of light" not in joined(lines), "flashcards: the drag swiped")
        nvim.still()
        before = joined(nvim.lines())
        nvim.keys("l")
        nvim.wait_for(lambda lines: joined(lines) != before, "flashcards: l swiped the next card")
        close_scene(nvim, store, size, "flashcards")

        # wallet: every brand once; a click on the front card selects it, Escape puts it back.
        nvim.command("Cardistry wallet")
        lines = nvim.wait_for(lambda lines: all(row_of(lines, b) is not None for b in BRANDS), "wallet: brands")
        lines = nvim.still()
        check(all(joined(lines).count(b) == 1 for b in BRANDS), f"{size} wallet: every brand once", lines)
        front = order(lines, BRANDS)[-1]
        nvim.click(cols // 2, row_of(lines, front) or 0)
        selected = nvim.still()
        check(selected != lines, f"{size} wallet: a click on {front} selected it", selected)
        nvim.keys("Escape")
        lines = nvim.wait_for(lambda lines: all(row_of(lines, b) is not None for b in BRANDS), "wallet back")
        lines = nvim.still()
        check(all(joined(lines).count(b) == 1 for b in BRANDS), f"{size} wallet: every brand once again", lines)
        # VimResized: the window and the grid follow the terminal (the stack is centred in the new width).
        visa = lines[row_of(lines, "VISA") or 0].index("VISA")
        nvim.resize(cols + 20, rows + 4)
        lines = nvim.wait_for(
            lambda lines: row_of(lines, "VISA") is not None and lines[row_of(lines, "VISA")].index("VISA") != visa,
            "wallet: the window followed the resize",
        )
        lines = nvim.still()
        check(all(joined(lines).count(b) == 1 for b in BRANDS), f"{size} wallet: every brand once after a resize", lines)
        nvim.resize(cols, rows)
        nvim.wait_for(lambda lines: row_of(lines, "VISA") is not None and lines[row_of(lines, "VISA")].index("VISA") == visa,
                      "wallet: back to the first size")
        nvim.still()
        close_scene(nvim, store, size, "wallet")

        # hero: j chooses the second category, Enter opens its details (one item a row), Escape closes them.
        nvim.command("Cardistry hero")
        lines = nvim.wait_for(lambda lines: row_of(lines, "Sunny") is not None, "hero")
        nvim.still()
        nvim.keys("j")
        nvim.still()
        nvim.keys("Enter")
        lines = nvim.wait_for(lambda lines: row_of(lines, "Sunny") is None, "hero: the details opened")
        lines = nvim.still()
        rows_of = [row_of(lines, item) for item in ("Leaf", "Fire", "Water")]
        check(
            None not in rows_of and len(set(rows_of)) == 3, f"{size} hero: the details, an item a row {rows_of}", lines
        )
        nvim.keys("Escape")
        lines = nvim.wait_for(lambda lines: row_of(lines, "Sunny") is not None, "hero: the details closed")
        close_scene(nvim, store, size, "hero")

        # deck: the titles of the stack; the wheel scrolls it, `p` fans it out.
        nvim.command("Cardistry deck")
        lines = nvim.wait_for(lambda lines: all(row_of(lines, t) is not None for t in DECK_TITLES[:3]), "deck")
        lines = nvim.still()
        shown = [title for title in DECK_TITLES if row_of(lines, title) is not None]
        check(len(shown) >= 3, f"{size} deck: the titles {shown}", lines)
        nvim.mouse("wheeldown", cols // 2, grid_rows // 2)
        scrolled = nvim.still()
        check(scrolled != lines, f"{size} deck: the wheel scrolled the stack", scrolled)
        nvim.keys("p")
        fanned = nvim.still()
        check(fanned != scrolled, f"{size} deck: p fanned the stack out", fanned)
        close_scene(nvim, store, size, "deck")

        # A study session: a TSV deck, a card swiped away with `l`, the window closed and opened again.
        deck = Path(store) / "words.tsv"
        deck.write_text("bonjour\thello\nmerci\tthank you\nchat\tcat\n")
        nvim.command(f"Cardistry flashcards {deck}")
        lines = nvim.wait_for(lambda lines: "chat" in joined(lines), "study: the first card")
        nvim.still()
        nvim.keys("l")
        lines = nvim.wait_for(lambda lines: "chat" not in joined(lines), "study: l swiped the first card")
        nvim.still()
        close_scene(nvim, store, size, "study")
        nvim.command(f"Cardistry flashcards {deck}")
        lines = nvim.wait_for(lambda lines: "merci" in joined(lines), "study: reopened where it was left")
        check("chat" not in joined(lines), f"{size} study: the swiped card stays swiped after reopening", lines)
        close_scene(nvim, store, size, "study again")

        # Leaving Neovim with a scene open stops its server too.
        nvim.command("Cardistry deck")
        nvim.wait_for(lambda lines: row_of(lines, "Inbox") is not None, "deck before quitting")
        nvim.command("qa!")
        deadline = time.monotonic() + 5
        while servers(store) and time.monotonic() < deadline:
            time.sleep(0.05)
        check(not servers(store), f"{size}: quitting Neovim left no cardistry process")
    finally:
        nvim.close()
        shutil.rmtree(store, ignore_errors=True)


BOARD = HERE.parent.parent / "scenes" / "board.json"
BOARD_TITLES = {card["id"]: card["title"] for card in json.loads(BOARD.read_text())["cards"]}


def board_place(lines: list[str], card: int) -> tuple[int, int] | None:
    """(column index 0-2, row) of the board card `card`'s title on the screen: its column is the header (To do,
    Doing, Done) whose start is nearest the title's; None when the title is not shown."""
    title = BOARD_TITLES[card]
    row = row_of(lines, title)
    header = row_of(lines, "To do")
    if row is None or header is None:
        return None
    starts = [lines[header].index(word) for word in ("To do", "Doing", "Done") if word in lines[header]]
    if len(starts) != 3:
        return None
    col = lines[row].index(title)
    return min(range(3), key=lambda index: abs(starts[index] - col)), row


def play_board(binary: str, cols: int, rows: int) -> None:
    """The board (scenes/board.json), a scene that exists only as data, played with the mouse and the keys: the
    plugin defines it with `scene.define` (g:cardistry_scene_files) and then plays it as it plays any scene."""
    size = f"{cols}x{rows} board"
    print(f"{size}:")
    store = tempfile.mkdtemp(prefix="cardistry-nvim-store-")
    nvim = Nvim(binary, store, cols, rows, True, "--cmd", f"let g:cardistry_scene_files = ['{BOARD}']")
    try:
        nvim.command("Cardistry board")
        lines = nvim.wait_for(lambda lines: all(board_place(lines, card) for card in BOARD_TITLES), "the board")
        lines = nvim.still()
        places = {card: board_place(lines, card) for card in BOARD_TITLES}
        check(all(places[card] and places[card][0] == (card - 1) % 3 for card in BOARD_TITLES),
              f"{size}: nine cards in three columns {places}", lines)
        if not all(places.values()):
            return

        # Drag card 1 (To do) below card 8 (the last of Doing): it springs into Doing's last slot.
        title = BOARD_TITLES[1]
        start = (lines[places[1][1]].index(title) + 2, places[1][1])
        target = (lines[places[8][1]].index(BOARD_TITLES[8]) + 2, places[8][1] + 3)
        nvim.drag(start, target, steps=10)
        lines = nvim.wait_for(lambda lines: (board_place(lines, 1) or (0,))[0] == 1, "board: card 1 moved to Doing")
        lines = nvim.still()
        moved, last = board_place(lines, 1), board_place(lines, 8)
        check(moved is not None and last is not None and moved[0] == 1 and moved[1] > last[1],
              f"{size}: card 1 dragged to the end of Doing ({moved}, card 8 at {last})", lines)
        four = board_place(lines, 4)
        check(four is not None and four[1] == places[1][1], f"{size}: card 4 took To do's first slot ({four})", lines)

        # Reorder To do: card 7 dragged above card 4.
        seven = board_place(lines, 7)
        if four is None or seven is None:
            return
        nvim.drag((lines[seven[1]].index(BOARD_TITLES[7]) + 2, seven[1]),
                  (lines[four[1]].index(BOARD_TITLES[4]) + 2, four[1] - 1), steps=10)
        lines = nvim.wait_for(lambda lines: (board_place(lines, 7) or (0, 999))[1] < (board_place(lines, 4) or (0, 0))[1],
                              "board: card 7 above card 4")
        lines = nvim.still()
        seven, four = board_place(lines, 7), board_place(lines, 4)
        check(seven is not None and four is not None and seven[0] == four[0] == 0 and seven[1] < four[1],
              f"{size}: card 7 reordered above card 4 in To do ({seven}, {four})", lines)

        # A click on card 5 expands it (wider than a column: its title starts left of Doing's column); a click
        # on the background puts it back.
        five = board_place(lines, 5)
        if five is None:
            return
        column = lines[five[1]].index(BOARD_TITLES[5])
        nvim.click(column + 2, five[1])
        lines = nvim.wait_for(lambda lines: row_of(lines, BOARD_TITLES[5]) is not None
                              and lines[row_of(lines, BOARD_TITLES[5])].index(BOARD_TITLES[5]) < column - 4,
                              "board: card 5 expanded")
        lines = nvim.still()
        found = row_of(lines, BOARD_TITLES[5])
        check(found is not None and lines[found].index(BOARD_TITLES[5]) < column - 4,
              f"{size}: a click expanded card 5 (its title moved left of its column)", lines)
        nvim.click(cols // 2, rows - 3)
        lines = nvim.wait_for(lambda lines: board_place(lines, 5) == five, "board: card 5 back in its slot")
        lines = nvim.still()

        # A fast fling to the left archives card 9; r brings it back.
        nine = board_place(lines, 9)
        if nine is None:
            return
        # A fling is fast: a busy machine can stretch the reports' timing below the board's 900 pt/s, which makes a
        # slow drag (the card drops into the column it was dragged to), so a person would fling again: at most
        # three times, from where the card is.
        for _ in range(3):
            nine = board_place(lines, 9) or nine
            start = (lines[nine[1]].index(BOARD_TITLES[9]) + 2, nine[1])
            nvim.mouse("down", *start)
            for step in (1, 2, 3):
                nvim.mouse("drag", max(0, start[0] - 12 * step), start[1])
            nvim.mouse("up", max(0, start[0] - 36), start[1])
            if nvim.wait_for(lambda lines: row_of(lines, BOARD_TITLES[9]) is None, "", timeout=2, quiet=True) \
                    is not None:
                break
            lines = nvim.still()
        lines = nvim.wait_for(lambda lines: row_of(lines, BOARD_TITLES[9]) is None, "board: the fling archived card 9")
        lines = nvim.still()
        check(row_of(lines, BOARD_TITLES[9]) is None, f"{size}: a fling archived card 9", lines)
        nvim.keys("r")
        lines = nvim.wait_for(lambda lines: board_place(lines, 9) is not None, "board: r restored card 9")
        lines = nvim.still()
        check(board_place(lines, 9) == nine, f"{size}: r put card 9 back in its slot ({board_place(lines, 9)})", lines)
        close_scene(nvim, store, f"{cols}x{rows}", "board")
    finally:
        nvim.close()
        shutil.rmtree(store, ignore_errors=True)


def check_completion(binary: str) -> None:
    """`:Cardistry <Tab>` offers the server's catalogue, in its order: the plugin names no scene, so a scene the
    catalogue gains is offered without a change here or there."""
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "1.0", "viewport": {"width": 390, "height": 844}}}
    with tempfile.TemporaryDirectory(prefix="cardistry-nvim-store-") as store:
        done = subprocess.run([binary, "stdio", "--store", store], input=json.dumps(hello) + "\n", text=True,
                              capture_output=True, timeout=30)
        catalogue = json.loads(done.stdout.splitlines()[0])["result"]["scenes"]
        script = 'io.stdout:write(table.concat(vim.fn.getcompletion("Cardistry ", "cmdline"), ","))'
        offered = subprocess.run(
            ["nvim", "--clean", "--headless", "--cmd", f"set rtp^={HERE}", "--cmd", f"let g:cardistry_cmd = '{binary}'",
             "--cmd", f"let g:cardistry_store = '{store}'", "-c", "lua " + script, "-c", "qa!"],
            capture_output=True, text=True, timeout=60).stdout.strip().split(",")
    check(offered == catalogue, f":Cardistry completes the server's catalogue {catalogue} (offered {offered})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--capture", help="write the flashcards screen at 120x40, with colours, to this file")
    arguments = parser.parse_args()
    for tool in ("nvim", "tmux"):
        if shutil.which(tool) is None:
            print(f"test_nvim.py: {tool} is not installed", file=sys.stderr)
            return 2
    binary = str(Path(arguments.binary).resolve())
    check_completion(binary)
    for cols, rows in ((80, 24), (120, 40)):
        play(binary, cols, rows, arguments.capture)
    play_board(binary, 120, 40)
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("nvim host: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
