#!/usr/bin/env python3
"""Browser test of the web host: the bridge, a real Chromium, real pointer events on the canvas.

    CARDISTRY=.build/release/cardistry python3 examples/web-host/test_browser.py      # or: python3 -m pytest ...

It starts `bridge.py` on a free port with the server from $CARDISTRY (default .build/release/cardistry), drives
Debian's Chromium headless through Playwright (`executable_path`, no downloaded browser) and plays each seed's
interactions with the mouse. Outcomes are checked twice:

- from the protocol: the notifications and frames the page received (`window.__cardistry`: gestures, haptics,
  deck changes, every frame as the server wrote it);
- from the canvas pixels: the test replays the frames itself (full frames, deltas) into the list of nodes the
  screen should show, then compares canvas pixels with the fills that must be there: sample points on the screen
  where exactly one opaque, untransformed, text-free node decides the colour, and points on the phone's bezel,
  which no content may paint over (the screen clips). A renderer that ignores deltas or stops clipping fails.

Any console error, page error or JSON-RPC error fails the test. One screenshot per scene goes to
docs/images/<scene>.png. Environment: CHROMIUM (default /usr/bin/chromium), WEB_HOST_SCREENSHOTS=0 to skip them.
"""

import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
BRIDGE = os.path.join(HERE, "bridge.py")
IMAGES = os.path.join(REPO, "docs", "images")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
TIMEOUT = 20_000  # ms, for each awaited condition (generous: the CI machine is small and busy)

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - run-tests.sh installs it
    sync_playwright = None


def executable():
    path = os.environ.get("CARDISTRY") or os.path.join(REPO, ".build", "release", "cardistry")
    return os.path.abspath(path)


def catalogue():
    """The scenes of the server's catalogue, in menu order: what `cardistry stdio` answers `initialize` with."""
    request = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
               "params": {"protocolVersion": "1.0", "viewport": {"width": 390, "height": 844}}}
    with tempfile.TemporaryDirectory(prefix="cardistry-web-catalogue-") as store:
        done = subprocess.run([executable(), "stdio", "--store", store], input=json.dumps(request) + "\n",
                              capture_output=True, text=True, timeout=30, check=True)
    return json.loads(done.stdout.splitlines()[0])["result"]["scenes"]


# The scenes BrowserTest plays by hand, each in its `test_<scene>` (with its picture for the README); every other
# scene of the server's catalogue is opened and checked by `test_every_other_scene_of_the_catalogue`, so a scene
# the catalogue gains is followed without a change here.
PLAYED = ["scores", "hero", "wallet", "flashcards", "deck"]


def start_bridge(*extra):
    """Starts bridge.py on a free port; returns (process, url)."""
    log = tempfile.TemporaryFile(mode="w+")  # a file, not a pipe: nobody reads it while the test runs
    process = subprocess.Popen(
        [sys.executable, BRIDGE, "--cardistry", executable(), "--port", "0", *extra],
        stdout=subprocess.PIPE, stderr=log, text=True)
    process.log = log
    deadline = time.monotonic() + 20
    line = ""
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if match:
            return process, match.group(1)
        if process.poll() is not None:
            break
    process.kill()
    raise AssertionError("the bridge did not print its URL: %r %s" % (line, bridge_log(process)))


def bridge_log(process):
    process.log.seek(0)
    return process.log.read()


def stop_process(process, timeout=10):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    process.stdout.close()
    return process.returncode


def children_of(pid):
    """The pids whose parent is `pid` (Linux /proc)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name) as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid and fields[0] != "Z":
                    found.append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return found


# ---------------------------------------------------------------------------------------------------------------
# The reference model: frames replayed independently of the page, and what pixels they imply.

def replay(frames):
    """The node list (paint order) after applying `frames` as docs/protocol.md says."""
    nodes, order = {}, []
    for frame in frames:
        if frame["full"]:
            nodes = {node["id"]: node for node in frame["nodes"]}
            order = [node["id"] for node in frame["nodes"]]
            continue
        for removed in frame["removed"]:
            nodes.pop(removed, None)
        for node in frame["changed"]:
            nodes[node["id"]] = node
        if "order" in frame:
            order = list(frame["order"])
        else:
            order = [i for i in order if i in nodes] + [n["id"] for n in frame["changed"] if n["id"] not in order]
    return [nodes[i] for i in order if i in nodes]


def rgba(color):
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5, 7))


def reach(node):
    """How far (points) a node's paint may reach outside its rect: shadow blur and offset, stroke, glyph overhang."""
    extra = 0.0
    shadow = node.get("shadow")
    if shadow and rgba(shadow["color"])[3] > 0:
        # The blur's standard deviation is the radius: past 1.5 of them one shadow adds at most a few levels, past
        # 2.2 of them also a stack of ten (seed 003's flashcards: "the shadows add up", beside the landscape stack).
        extra = max(extra, 2.2 * shadow["radius"] + max(abs(shadow["dx"]), abs(shadow["dy"])) + 1)
    if node.get("runs"):
        extra = max(extra, 6)
    return extra + 2


def bounds(node):
    """The axis-aligned bounds of a node's rect after scale and rotation about its centre."""
    cx, cy = node["x"] + node["width"] / 2, node["y"] + node["height"] / 2
    w, h = node["width"] * node["scale"], node["height"] * node["scale"]
    angle = math.radians(node["rotation"])
    bw = abs(w * math.cos(angle)) + abs(h * math.sin(angle))
    bh = abs(w * math.sin(angle)) + abs(h * math.cos(angle))
    return cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2


def paints(node):
    return node["opacity"] > 0 and bool(node.get("fill") or node.get("stroke") or node.get("runs") or node.get("shadow"))


def expected_pixels(nodes, viewport, step=11):
    """Sample points whose colour one node decides, with that colour: [(x, y, (r, g, b), node id)]."""
    painted = [(node, bounds(node), reach(node)) for node in nodes if paints(node)]
    by_id = {node["id"]: node for node in nodes}
    samples = []
    width, height = viewport["width"], viewport["height"]
    y = step / 2
    while y < height:
        x = step / 2
        while x < width:
            if 30 < x < width - 30 or 30 < y < height - 30:  # away from the screen's rounded corners
                top = None
                for node, (left, upper, right, lower), extra in reversed(painted):
                    if left - extra <= x <= right + extra and upper - extra <= y <= lower + extra:
                        top = node
                        break
                if top is not None and decides(top, x, y, by_id):
                    samples.append((x, y, rgba(top["fill"])[:3], top["id"]))
            x += step
        y += step
    return samples


STYLE_SIZES = {"largeTitle": (34, 41), "title": (28, 34), "headline": (17, 22), "body": (17, 22),
               "footnote": (13, 18), "caption": (12, 16)}


def outside_text(node, x, y):
    """For a card whose text sits at its top-left (leading runs), whether (x, y) is clear of a generous estimate of
    where the text is; other nodes with text never decide a pixel."""
    if node["role"] != "card" or any(run["alignment"] != "leading" for run in node["runs"]):
        return False
    height = sum(STYLE_SIZES.get(run["style"], (17, 22))[1] for run in node["runs"])
    width = max(len(run["text"]) * 0.7 * STYLE_SIZES.get(run["style"], (17, 22))[0] for run in node["runs"])
    return x > node["x"] + 16 + width + 8 or y > node["y"] + 16 + height + 8


def decides(node, x, y, by_id):
    """True when `node` alone sets the pixel at (x, y): opaque fill, no transform, well inside, clear of its text."""
    if not node.get("fill") or node.get("leaving"):
        return False
    if node.get("runs") and not outside_text(node, x, y):
        return False
    if node["opacity"] < 1 or rgba(node["fill"])[3] != 255 or node["rotation"] != 0 or node["scale"] != 1:
        return False
    inset = 4
    left, top = node["x"] + inset, node["y"] + inset
    right, bottom = node["x"] + node["width"] - inset, node["y"] + node["height"] - inset
    if not (left <= x <= right and top <= y <= bottom):
        return False
    radius = node["cornerRadius"]
    near_x = x < node["x"] + radius + inset or x > node["x"] + node["width"] - radius - inset
    near_y = y < node["y"] + radius + inset or y > node["y"] + node["height"] - radius - inset
    if near_x and near_y:
        return False
    parent = by_id.get(node.get("parent"))
    while parent is not None:  # a filled ancestor clips: stay inside it too
        if parent.get("fill") and not (parent["x"] + inset <= x <= parent["x"] + parent["width"] - inset
                                       and parent["y"] + inset <= y <= parent["y"] + parent["height"] - inset):
            return False
        parent = by_id.get(parent.get("parent"))
    return True


# Words of the protocol and of a debug log, which the footer must not show a person: event names, method names,
# gesture phases and "failed" (a gesture the recognizers did not pick is not a failure to a person).
DEBUG_WORDS = re.compile(r"(?i)failed|gesture|haptic|deck\.changed|\bframe\b|\bbegan\b|\bended\b|\bcancelled\b"
                         r"|\b(?:scene|input|deck|viewport|clock|state|actions)\.[a-z]+")


# ---------------------------------------------------------------------------------------------------------------

@unittest.skipIf(sync_playwright is None, "playwright is not installed (pip install playwright)")
class BrowserTest(unittest.TestCase):
    timings = {}

    @classmethod
    def setUpClass(cls):
        if not os.access(executable(), os.X_OK):
            raise unittest.SkipTest("no cardistry executable at %s (set $CARDISTRY)" % executable())
        cls.scenes = catalogue()
        cls.store = tempfile.mkdtemp(prefix="cardistry-web-store-")  # never the user's own store
        cls.bridge, cls.url = start_bridge("--keep-serving", "--grace", "2", "--store", cls.store)
        cls.playwright = sync_playwright().start()
        cls.browser = cls.playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--font-render-hinting=none"])

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls.playwright.stop()
        status = stop_process(cls.bridge)
        if status != 0:
            sys.stderr.write(bridge_log(cls.bridge))
        cls.bridge.log.close()
        assert status == 0, "the bridge exited with status %s" % status

    # --- page helpers

    def open_scene(self, name, touch=False, viewport=None, scale=2):
        """Opens the page on scene `name` in a window of `viewport` CSS pixels (default a desktop window)."""
        self.started = time.monotonic()
        self.page = self.browser.new_page(viewport=viewport or {"width": 700, "height": 1000},
                                          device_scale_factor=scale, has_touch=touch)
        self.problems = []
        self.page.on("console", lambda m: m.type == "error" and self.problems.append("console: " + m.text))
        self.page.on("pageerror", lambda e: self.problems.append("page error: %s" % e))
        self.page.goto(self.url + "?record#" + name)  # ?record: the page keeps every frame for replay
        self.wait("window.__cardistry && __cardistry.ready && __cardistry.scene === %s" % json.dumps(name))
        self.assertEqual(self.js("__cardistry.scenes"), type(self).scenes, "the page lists the server's catalogue")
        self.settle()

    def close_scene(self, name):
        try:
            self.assertEqual(self.problems, [], "console or page errors")
            self.assertEqual(self.js("__cardistry.errors"), [], "JSON-RPC or transport errors")
        finally:
            self.page.close()
            type(self).timings[name] = time.monotonic() - self.started

    def tearDown(self):
        page = getattr(self, "page", None)
        if page is not None and not page.is_closed():
            page.close()

    def js(self, expression, argument=None):
        if argument is None:
            return self.page.evaluate(expression)
        return self.page.evaluate(expression, argument)

    def wait(self, condition, argument=None, timeout=TIMEOUT):
        self.page.wait_for_function(condition, arg=argument, timeout=timeout, polling=50)

    def settle(self):
        """Until the last frame has settled, the canvas shows it, no haptic pulse is drawn, and frames stopped.
        Callers first await an event proving the server handled their input (a gesture, haptic or deck change)."""
        self.wait("__cardistry.settled()")

    def frames(self):
        return self.js("__cardistry.frameLog")

    def model(self):
        return replay(self.frames())

    def node(self, node_id):
        for node in self.model():
            if node["id"] == node_id:
                return node
        return None

    def client(self, x, y):
        point = self.js("([x, y]) => __cardistry.toClient(x, y)", [x, y])
        return point["x"], point["y"]

    def tap(self, x, y):
        self.page.mouse.move(*self.client(x, y))
        self.page.mouse.down()
        self.page.mouse.up()

    def drag(self, start, end, steps=12, hold_until=None):
        """A mouse drag from `start` to `end` (points); `hold_until` is a condition awaited before moving."""
        self.page.mouse.move(*self.client(*start))
        self.page.mouse.down()
        if hold_until:
            self.wait(hold_until)
        for step in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * step / steps
            y = start[1] + (end[1] - start[1]) * step / steps
            self.page.mouse.move(*self.client(x, y))
        self.page.mouse.up()

    def both_copies_flew(self, matched, leaving, arriving, since=0):
        """Whether some frame after the first `since` showed the leaving copy (flagged leaving) and the arriving copy
        of a matched element on one frame's nodes, their opacities summing to at least 0.8."""
        frames = self.frames()
        for end in range(max(since, 1), len(frames) + 1):
            nodes = {n["id"]: n for n in replay(frames[:end])}
            old, new = nodes.get(leaving), nodes.get(arriving)
            if old and new and old.get("leaving") and old.get("matched") == matched == new.get("matched") \
                    and old["opacity"] + new["opacity"] >= 0.8 and 0 < new["opacity"] < 1:
                return True
        return False

    def centre(self, node):
        return node["x"] + node["width"] / 2, node["y"] + node["height"] / 2

    def gesture_count(self):
        return self.js("__cardistry.gestures.length")

    # --- the pixel checks

    def check_pixels(self, label):
        """Canvas pixels against the replayed frames; the bezel stays bezel (the screen clips)."""
        nodes = self.model()
        viewport = self.js("__cardistry.frame.viewport")
        samples = expected_pixels(nodes, viewport)
        self.assertGreater(len(samples), 150, "%s: too few decidable sample points" % label)
        bezel = self.js("__cardistry.bezel")
        edge = []
        for x in range(20, int(viewport["width"]) - 20, 10):
            edge += [(x, -bezel / 2), (x, viewport["height"] + bezel / 2)]
        for y in range(40, int(viewport["height"]) - 40, 10):
            edge += [(-bezel / 2, y), (viewport["width"] + bezel / 2, y)]
        points = [[s[0], s[1]] for s in samples] + [list(p) for p in edge]
        pixels = self.js("""(points) => points.map(([x, y]) => __cardistry.pixel(x, y))""", points)
        wrong = []
        for (x, y, want, node_id), got in zip(samples, pixels):
            if max(abs(a - b) for a, b in zip(want, got[:3])) > 8 or got[3] < 250:
                wrong.append("(%g, %g) %s: want %s, canvas %s" % (x, y, node_id, want, got))
        bezel_color = rgba(self.js("__cardistry.bezelColor") + "ff")[:3]
        outside = []
        for (x, y), got in zip(edge, pixels[len(samples):]):
            if max(abs(a - b) for a, b in zip(bezel_color, got[:3])) > 8:
                outside.append("(%g, %g): %s" % (x, y, got))
        self.assertEqual(outside, [], "%s: content painted outside the screen (on the bezel)" % label)
        self.assertLessEqual(len(wrong), 2, "%s: %d of %d canvas pixels differ from the frames:\n  %s"
                             % (label, len(wrong), len(samples), "\n  ".join(wrong[:12])))

    def check_footer(self, label):
        """The footer is for the person using the page: the scene and what to do, or a real error; never the
        protocol's words (event and method names) nor "failed" for a gesture the recognizers did not pick."""
        text = self.page.inner_text("#status")
        self.assertNotRegex(text, DEBUG_WORDS, "%s: the footer shows debug words: %r" % (label, text))
        self.assertIn(self.js("__cardistry.title"), text, "%s: the footer does not name the scene" % label)

    def check_text_sizes(self, label):
        """Text of one style and weight is drawn at one size everywhere on the screen: a list's rows never mix
        sizes (the seeds set no minimumScaleFactor: SwiftUI truncates a line that does not fit, it never shrinks)."""
        drawn = self.js("__cardistry.drawnText()")
        self.assertTrue(drawn, "%s: no text drawn" % label)
        sizes = {}
        for node_id, text in sorted(drawn.items()):
            for run in text["sizes"]:
                sizes.setdefault("%s %s" % (run["style"], run["weight"]), {}).setdefault(run["size"], node_id)
        mixed = {role: found for role, found in sizes.items() if len(found) > 1}
        self.assertEqual(mixed, {}, "%s: one text role drawn at several sizes {size: a node}" % label)
        return drawn

    def screenshot(self, name, page=False):
        """The phone's screen (or with `page`, the whole window: toolbar, screen and footer) as docs/images/NAME.png."""
        if os.environ.get("WEB_HOST_SCREENSHOTS", "1") == "0":
            return
        os.makedirs(IMAGES, exist_ok=True)
        path = os.path.join(IMAGES, name + ".png")
        if page:
            self.page.screenshot(path=path)
        else:
            self.page.locator("#screen").screenshot(path=path)

    # --- the scenes

    def test_scores(self):
        self.open_scene("scores")
        self.check_pixels("scores at launch")
        # Re-sort by the slider: drag the thumb to test 7.
        thumb = self.node("slider.thumb")
        tick = self.node("slider.tick.7")
        self.drag(self.centre(thumb), (self.centre(tick)[0], self.centre(thumb)[1]), steps=10)
        self.wait("__cardistry.gestures.some(g => g.kind === 'slider' && g.phase === 'ended')")
        self.settle()
        header = self.node("header")
        self.assertEqual(header["runs"][-1]["text"], "7", header["text"])
        order = self.js("__cardistry.deck")
        self.assertIsNotNone(order, "no deck.changed after the slider moved")
        cards = sorted((n for n in self.model() if n["role"] == "card"), key=lambda n: n["y"])
        self.assertEqual([n["card"] for n in cards], order, "the cards are not in the announced order")
        # The page's own checksum of each announced order (JavaScript) is the server's.
        self.assertGreater(self.js("__cardistry.deckChanges.length"), 0)
        self.assertEqual(self.js("__cardistry.checksumMismatches"), 0, "the page's order checksum differs")
        self.check_pixels("scores re-sorted by test 7")
        # Expand the second card: its bar chart appears, the cards below move down.
        second = cards[1]
        below = cards[2]
        self.tap(second["x"] + 60, second["y"] + second["height"] / 2)
        self.wait("__cardistry.haptics.some(h => h.target === %s)" % json.dumps(second["id"]))
        self.settle()
        expanded = self.node(second["id"])
        self.assertGreater(expanded["height"], 200, "the tapped card did not expand")
        bars = [n for n in self.model() if re.fullmatch(re.escape(second["id"]) + r"\.bar\.\d+", n["id"])]
        self.assertEqual(len(bars), 10, "ten bars in the expanded card")
        self.assertEqual([b["opacity"] for b in bars].count(0.9), 1, "the selected test's bar is brighter")
        self.assertGreater(self.node(below["id"])["y"], below["y"] + 150, "the card below did not move away")
        self.check_pixels("scores with a card expanded")
        self.check_footer("scores after a slider drag and a tap")
        self.check_text_sizes("scores with a card expanded")
        self.screenshot("scores")
        # Keys: left selects the previous test (the canvas has the focus since the taps).
        self.page.keyboard.press("ArrowLeft")
        self.wait("(() => { const h = __cardistry.node('header'); return h && h.runs[h.runs.length - 1].text === '6'; })()")
        self.settle()
        self.assertEqual(self.node("header")["runs"][-1]["text"], "6", "the left arrow did not select test 6")
        self.check_pixels("scores after the left arrow")
        self.close_scene("scores")

    def test_hero(self):
        self.open_scene("hero", touch=True)
        self.check_pixels("hero overview")
        self.check_text_sizes("hero overview")  # "Sunny" as large as "Cloudy"
        line = self.node("line.302")
        # Tap the line with a finger (on its right, past its chips).
        self.page.touchscreen.tap(*self.client(line["x"] + line["width"] - 20, line["y"] + line["height"] / 2))
        self.wait("__cardistry.gestures.some(g => g.kind === 'open' && g.phase === 'ended')")
        self.settle()
        details = [n for n in self.model() if n["id"].startswith("details.")]
        matched = {n["matched"] for n in details if "matched" in n}
        self.assertIn("leaf.color", matched)
        self.assertFalse(any(n.get("matched") in matched for n in self.model() if n["id"].startswith("overview.")),
                         "a matched id is shown twice")
        self.assertEqual(self.node("details")["opacity"], 1)
        # The flight: in some frame both copies of the leaf's colour were on screen, cross-fading.
        self.assertTrue(self.both_copies_flew("leaf.color", "overview.leaf.color", "details.leaf.color"),
                        "no frame showed both copies of the flying colour (the flight read as a fade)")
        self.check_pixels("hero details")
        self.check_footer("hero after a tap")
        self.check_text_sizes("hero details")
        self.screenshot("hero")
        close = self.node("details.close")
        flown = len(self.frames())
        self.tap(*self.centre(close))
        self.wait("__cardistry.gestures.some(g => g.kind === 'close' && g.phase === 'ended')")
        self.settle()
        self.assertFalse([n for n in self.model() if n["id"].startswith("details")], "the details stayed")
        self.assertTrue(self.both_copies_flew("leaf.color", "details.leaf.color", "overview.leaf.color", flown),
                        "closing did not fly the details' copy back beside the overview's")
        self.check_pixels("hero closed")
        # A window narrower than the phone: the screen takes its width and the scene reflows (viewport.resize).
        self.page.set_viewport_size({"width": 360, "height": 1000})
        self.wait("__cardistry.frame.viewport.width === 312")
        self.settle()
        self.assertEqual(self.node("line.301")["width"], 312 - 32, "the lines did not reflow")
        self.check_pixels("hero in a narrow window")
        self.close_scene("hero")

    def test_wallet(self):
        self.open_scene("wallet")
        self.check_pixels("wallet stack")
        cards = sorted((n for n in self.model() if n["role"] == "card"), key=lambda n: n["y"])
        before = [n["card"] for n in sorted(cards, key=lambda n: -n["z"])]  # front first
        # Tap the middle card: it and the cards in front move up, the others drop off; the history slides in.
        middle = cards[2]
        self.tap(middle["x"] + middle["width"] / 2, middle["y"] + 25)
        self.wait("__cardistry.haptics.some(h => h.target === %s)" % json.dumps(middle["id"]))
        self.settle()
        self.assertIsNotNone(self.node("history"), "no transaction history")
        self.check_footer("wallet after a tap")
        self.check_text_sizes("wallet history")  # "Golden Dragon" as large as "Apple Store"
        self.assertGreater(self.node(cards[3]["id"])["y"], 844, "the cards behind did not drop off")
        self.check_pixels("wallet card selected")
        # The history is a horizontal scroll view of twelve tiles: drag it sideways, then turn the wheel over it,
        # until the last transaction is on screen; the first one has gone off to the left.
        row = self.node("history.scroll")
        self.assertIn("scroll", [kind for g in row.get("gestures", []) for kind in g.get("kinds", [])],
                      "the history's scrolling node does not say it scrolls")
        y = row["y"] + row["height"] / 2
        last = self.node("history.12")
        self.assertGreater(last["x"], 390, "the last tile starts on screen")
        count = self.gesture_count()
        self.drag((330, y), (60, y), steps=20)
        self.wait("__cardistry.gestures.slice(%d).some(g => g.kind === 'history' && g.phase === 'ended')" % count)
        self.settle()
        moved = self.node("history.1")["x"]
        self.assertLess(moved, 16 - 200, "a drag of 270 pt did not scroll the history")
        self.page.mouse.move(*self.client(200, y))
        for _ in range(30):  # far more than the content's width: the history stops at its end
            self.page.mouse.wheel(0, 120)
        self.wait("(() => { const n = __cardistry.node('history.12'); return n && n.x + n.width <= 390; })()")
        self.settle()
        last = self.node("history.12")
        self.assertLessEqual(last["x"] + last["width"], 390, "the wheel did not bring the last tile on screen")
        self.check_pixels("wallet history scrolled to its end")
        self.check_text_sizes("wallet history scrolled to its end")
        self.screenshot("wallet-history")
        # Tap it again to go back to the stack.
        selected = self.node(middle["id"])
        count = self.gesture_count()
        self.tap(selected["x"] + selected["width"] / 2, selected["y"] + 25)
        self.wait("__cardistry.gestures.length > %d" % count)
        self.settle()
        self.assertIsNone(self.node("history"), "the history stayed")
        self.check_footer("wallet after the second tap")
        # Long-press the front card and drag it up two places.
        front = self.node("card." + before[0])
        start = (front["x"] + front["width"] / 2, front["y"] + front["height"] / 2)
        count = len(self.js("__cardistry.haptics"))
        self.drag(start, (start[0], start[1] - 2.4 * 50), steps=14,
                  hold_until="__cardistry.haptics.length > %d" % count)
        self.wait("__cardistry.deckChanges.length > 0")
        self.settle()
        after = self.js("__cardistry.deck")
        self.assertNotEqual(after, before, "the order did not change")
        self.assertEqual(after.index(before[0]), 2, "the front card is not two places back: %s" % after)
        self.check_pixels("wallet reordered")
        self.check_footer("wallet reordered")
        self.check_text_sizes("wallet reordered")
        self.screenshot("wallet")
        self.close_scene("wallet")

    def test_every_other_scene_of_the_catalogue(self):
        """A scene without a hand-played test (one the catalogue gained) opens from the page, draws what its frames
        say, names itself in the footer, draws each text role at one size, and causes no error."""
        for name in [scene for scene in type(self).scenes if scene not in PLAYED]:
            with self.subTest(scene=name):
                self.open_scene(name)
                self.check_pixels(name)
                self.check_footer(name)
                self.check_text_sizes(name)
                self.close_scene(name)

    def test_your_own_flashcards_file(self):
        """A TSV file picked in the page is imported into the server's store by the bridge and opened: the stack
        shows the file's cards (the top card's prompt is the file's last row, as the stack puts the last on top)."""
        self.open_scene("flashcards")
        path = os.path.join(self.store, "..", "my-quiz-%d.tsv" % os.getpid())
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("Capital of France?\tParis\nTwo plus two?\t4\nLargest planet?\tJupiter\n")
        try:
            self.page.set_input_files("#deck-file", path)
            self.wait("__cardistry.imported === %s" % json.dumps("my-quiz-%d" % os.getpid()))
            self.settle()
        finally:
            os.remove(path)
        cards = [n for n in self.model() if n["role"] == "card"]
        self.assertEqual(len(cards), 3, "the stack is not the file's three cards")
        top = max(cards, key=lambda n: n["z"])
        prompt = self.node(top["id"] + ".prompt")
        self.assertIsNotNone(prompt)
        self.assertEqual(prompt["text"], "Largest planet?")
        self.check_pixels("your own flashcards")
        self.close_scene("your own flashcards")

    def test_flashcards(self):
        self.open_scene("flashcards")
        self.check_pixels("flashcards stack")
        top = max((n for n in self.model() if n["role"] == "card"), key=lambda n: n["z"])
        # The prompt and the answer are the card's children (the view tree); the answer only after a tap.
        self.assertIsNotNone(self.node(top["id"] + ".prompt"), "the card has no prompt")
        self.assertIsNone(self.node(top["id"] + ".answer"), "the answer shows before the tap")
        ink = "__cardistry.ink(%f, %f, %f, %f, '#ffffffff')" % (top["x"] + 20, top["y"] + 10, top["width"] - 40,
                                                                 top["height"] - 20)
        prompt_ink = self.js(ink)
        self.assertGreater(prompt_ink, 2000, "no prompt drawn on the top card")
        prompt = top["id"] + ".prompt"
        before = self.check_text_sizes("flashcards stack")[prompt]
        self.tap(*self.centre(top))
        self.wait("__cardistry.gestures.some(g => g.kind === 'tap' && g.phase === 'ended')")
        self.settle()
        self.assertIsNotNone(self.node(top["id"] + ".answer"), "the answer did not appear")
        after = self.check_text_sizes("flashcards answer shown")[prompt]
        # The prompt keeps its font when the answer appears (seed 003: .largeTitle, 34 points); a prompt that no
        # longer fits with the answer below it loses lines (ending in "…"), never size.
        self.assertEqual({r["size"] for r in before["sizes"]}, {34}, "the prompt is not drawn at .largeTitle")
        self.assertEqual({r["size"] for r in after["sizes"]}, {34},
                         "the prompt's font changed when the answer appeared: %s lines %s" % (after["sizes"][:1],
                                                                                               after["lines"]))
        self.check_footer("flashcards after a tap")
        revealed_ink = self.js(ink)
        self.assertNotEqual(revealed_ink, prompt_ink, "the canvas does not show the answer")
        bottom = max(n["y"] + n["height"] for n in self.model() if n["role"] == "card")
        self.check_pixels("flashcards answer shown")
        self.screenshot("flashcards")
        # Hold a short drag (under the 100-point threshold): the card turns (width/5 degrees), moves five times as
        # far (past the screen's right edge, which must clip it) and fades; released, it springs back.
        centre = self.centre(top)
        self.page.mouse.move(*self.client(*centre))
        self.page.mouse.down()
        for step in range(1, 7):
            self.page.mouse.move(*self.client(centre[0] + 10 * step, centre[1]))
        self.wait("(() => { const n = __cardistry.node(%s); return n && n.rotation > 10; })()" % json.dumps(top["id"]))
        self.settle()
        held = self.node(top["id"])
        self.assertAlmostEqual(held["rotation"], 12, delta=0.5)
        self.assertLess(held["opacity"], 0.9)
        width = self.js("__cardistry.frame.viewport.width")
        self.assertGreater(held["x"] + held["width"], width + 100, "the card should reach past the screen")
        self.check_pixels("flashcards held mid-drag")
        count = self.gesture_count()
        self.page.mouse.up()
        self.wait("__cardistry.gestures.length > %d" % count)
        self.settle()
        self.assertEqual(self.node(top["id"])["rotation"], 0, "the card did not spring back")
        # Swipe it away to the right.
        self.drag(centre, (centre[0] + 180, centre[1] + 4), steps=12)
        self.wait("__cardistry.deckChanges.length > 0")
        self.settle()
        change = self.js("__cardistry.deckChanges[__cardistry.deckChanges.length - 1]")
        self.assertNotIn(top["card"], change["deck"])
        self.assertIsNone(self.node(top["id"]), "the swiped card is still in the frames")
        # The next card takes the swiped one's place (seed 003: every card slides up 10 points), so the swiped card
        # shows only if its own ink (its prompt and the answer it showed) is still drawn there; and the stack's
        # lowest 10 points are background now.
        self.assertNotEqual(self.js(ink), revealed_ink, "the swiped card is still drawn")
        self.assertLess(max(self.js("__cardistry.pixel(%f, %f)" % (width / 2, bottom - 4))[:3]), 160,
                        "the stack did not slide up")
        self.check_pixels("flashcards after a swipe")
        self.check_footer("flashcards after a swipe")
        self.close_scene("flashcards")

    def test_flashcards_in_a_portrait_phone(self):
        """Seed 003 makes Flashzilla landscape-only: an iPhone held upright shows it sideways, in landscape (the
        person turns the phone). A phone's browser held upright shows the scene the same way: laid out in landscape,
        turned a quarter, and played through the turn; turned to landscape, it fills the window upright."""
        self.open_scene("flashcards", touch=True, viewport={"width": 390, "height": 844}, scale=3)
        viewport = self.js("__cardistry.frame.viewport")
        self.assertGreater(viewport["width"], viewport["height"],
                           "flashcards laid out in portrait though seed 003 is landscape-only: %s" % viewport)
        box = self.page.locator("#screen").bounding_box()
        self.assertGreater(box["height"], box["width"], "the landscape screen is not turned to the upright window")
        self.assertLessEqual(box["x"] + box["width"], 390 + 0.5, "the screen does not fit the window")
        self.assertGreater(box["height"], 0.8 * viewport["width"], "the screen is not as large as the window allows")
        self.check_pixels("flashcards in a portrait phone")
        top = max((n for n in self.model() if n["role"] == "card"), key=lambda n: n["z"])
        before = self.check_text_sizes("flashcards in a portrait phone")[top["id"] + ".prompt"]
        self.page.touchscreen.tap(*self.client(*self.centre(top)))
        self.wait("__cardistry.gestures.some(g => g.kind === 'tap' && g.phase === 'ended')")
        self.settle()
        self.assertIsNotNone(self.node(top["id"] + ".answer"), "a tap through the turned screen missed the card")
        after = self.check_text_sizes("flashcards in a portrait phone, answer shown")[top["id"] + ".prompt"]
        self.assertEqual(after["sizes"][0]["size"], before["sizes"][0]["size"], "the prompt's font changed")
        self.check_pixels("flashcards in a portrait phone, answer shown")
        self.check_footer("flashcards in a portrait phone")
        self.screenshot("flashcards-portrait-phone", page=True)
        # Turned to landscape: the same scene fills the window, upright.
        self.page.set_viewport_size({"width": 844, "height": 390})
        self.wait("(() => { const s = __cardistry.screen(), v = __cardistry.frame.viewport;"
                  " return !s.rotated && v.width === s.width && v.height === s.height; })()")
        self.settle()
        box = self.page.locator("#screen").bounding_box()
        self.assertGreater(box["width"], box["height"], "a landscape window shows the screen turned")
        self.check_pixels("flashcards in a landscape phone")
        self.screenshot("flashcards-landscape-phone", page=True)
        self.close_scene("flashcards in a portrait phone")

    def test_deck(self):
        self.open_scene("deck")
        self.check_pixels("deck stack")
        cards = sorted((n for n in self.model() if n["role"] == "card"), key=lambda n: n["y"])
        first, middle = cards[0], cards[4]  # (cards pushed off screen are not laid out while fanned)
        # Fan: pull down past the top; the cards spread while the finger holds.
        scrolls = "__cardistry.gestures.filter(g => g.kind === 'scroll' && g.phase === 'ended').length"
        self.page.mouse.move(*self.client(195, 300))
        self.page.mouse.down()
        for step in range(1, 11):
            self.page.mouse.move(*self.client(195, 300 + 15 * step))
        self.wait("(() => { const n = __cardistry.node(%s); return n && n.y > %f; })()"
                  % (json.dumps(middle["id"]), middle["y"] + 40))
        self.page.mouse.up()
        self.wait(scrolls + " === 1")
        self.settle()
        self.assertAlmostEqual(self.node(middle["id"])["y"], middle["y"], delta=1, msg="the fan did not close")
        # Fan with the wheel (a trackpad pull at the top).
        self.page.mouse.move(*self.client(195, 300))
        self.page.mouse.wheel(0, -120)
        self.wait(scrolls + " === 2")
        self.settle()
        # Tap to expand the first card, full screen.
        self.tap(first["x"] + first["width"] / 2, first["y"] + 24)
        detail_id = "detail." + first["card"]
        self.wait("(() => { const n = __cardistry.node(%s); return n && !__cardistry.frame.animating; })()"
                  % json.dumps(detail_id))
        self.settle()
        detail = self.node(detail_id)
        self.assertGreater(detail["height"], 600, "the card is not full screen")
        self.check_footer("deck after a pull and a tap")
        self.check_pixels("deck card expanded")
        # Drag down to dismiss.
        self.drag((195, 400), (195, 700), steps=15)
        self.wait("__cardistry.gestures.some(g => g.kind === 'dismiss' && g.phase === 'ended')")
        self.settle()
        self.assertIsNone(self.node(detail_id), "the expanded card stayed")
        # Long-press the second card and drag it down past two cards.
        second = self.node(cards[1]["id"])
        start = (195, second["y"] + 20)
        self.drag(start, (195, start[1] + 2.4 * 60), steps=14,
                  hold_until="__cardistry.gestures.some(g => g.kind === 'reorder' && g.phase === 'began')")
        self.wait("__cardistry.deckChanges.length > 0")
        self.settle()
        after = self.js("__cardistry.deck")
        self.assertEqual(after.index(cards[1]["card"]), 3, "the card did not move two places: %s" % after)
        ordered = sorted((n for n in self.model() if n["role"] == "card"), key=lambda n: n["y"])
        self.assertEqual([n["card"] for n in ordered], after, "the stack is not drawn in the new order")
        self.check_pixels("deck reordered")
        self.check_footer("deck reordered")
        self.check_text_sizes("deck reordered")
        self.screenshot("deck")
        self.close_scene("deck")

    # --- a scene that exists only as data (docs/scenes.md): defined over the protocol, played with the mouse

    def define_board(self):
        """Defines scenes/board.json with `scene.define` through the page's own JSON-RPC and opens it: the page
        plays a data scene with no code of its own for it."""
        with open(os.path.join(REPO, "scenes", "board.json")) as handle:
            description = json.load(handle)
        defined = self.js("(d) => __cardistry.rpc('scene.define', {description: d})", description)
        self.assertEqual(defined["scene"], "board")
        self.js("() => __cardistry.open('board').then(() => null)")
        self.wait("__cardistry.scene === 'board' && __cardistry.frameLog.length > 0")
        self.settle()

    def board_cards(self):
        """The board's cards on screen, by card id: {id: node} (the expanded card's node is `detail.<id>`)."""
        return {n["card"]: n for n in self.model() if n["role"] == "card" and n.get("card")}

    def column_of(self, node, columns):
        return min(range(len(columns)), key=lambda c: abs(columns[c] - node["x"]))

    def test_board_defined_as_data(self):
        self.open_scene(type(self).scenes[0])
        self.define_board()
        cards = self.board_cards()
        self.assertEqual(sorted(cards, key=int), [str(i) for i in range(1, 10)], "nine cards on the board")
        columns = sorted({round(n["x"]) for n in cards.values()})
        self.assertEqual(len(columns), 3, "three columns: %s" % columns)
        self.assertEqual([self.column_of(cards[c], columns) for c in "123456789"], [0, 1, 2] * 3)
        height = cards["1"]["height"]

        # Drag card 1 from the first column to the bottom of the second: it springs into that column's last slot.
        ended = "__cardistry.gestures.filter(g => g.kind === 'move' && g.phase === 'ended').length"
        last = cards["8"]
        start = self.centre(cards["1"])
        self.drag(start, (last["x"] + last["width"] / 2, last["y"] + last["height"] + 20), steps=16)
        self.wait(ended + " === 1")
        self.settle()
        cards = self.board_cards()
        self.assertEqual(self.column_of(cards["1"], columns), 1, "card 1 did not move to the second column")
        self.assertGreater(cards["1"]["y"], cards["8"]["y"], "card 1 is not the second column's last card")
        self.assertAlmostEqual(cards["4"]["y"], start[1] - height / 2, delta=1,
                               msg="card 4 did not move up into the first column's free slot")
        self.assertGreater(self.js("__cardistry.haptics.length"), 0, "no haptic for the drop")

        # Reorder within the first column: card 7 (its second card) dragged above card 4.
        changes = self.js("__cardistry.deckChanges.length")
        top = cards["4"]
        self.drag(self.centre(cards["7"]), (top["x"] + top["width"] / 2, top["y"] + 4), steps=16)
        self.wait(ended + " === 2")
        self.wait("__cardistry.deckChanges.length > %d" % changes)
        self.settle()
        order = self.js("__cardistry.deck")
        self.assertLess(order.index("7"), order.index("4"), "card 7 was not put before card 4: %s" % order)
        cards = self.board_cards()
        self.assertEqual(self.column_of(cards["7"], columns), 0)
        self.assertLess(cards["7"]["y"], cards["4"]["y"], "card 7 is not drawn above card 4")

        # Tap card 5 to expand it: one node flies from its slot to the detail layout (matched geometry).
        since = len(self.frames())
        slot = cards["5"]
        self.tap(*self.centre(slot))
        self.wait("__cardistry.gestures.some(g => g.kind === 'expand' && g.phase === 'ended')")
        self.wait("!!__cardistry.node('detail.5')")
        self.settle()
        detail = self.node("detail.5")
        self.assertIsNone(self.node("card.5"), "the expanded card is drawn twice at rest")
        self.assertGreater(detail["width"], slot["width"] * 2, "card 5 did not expand")
        self.assertGreater(detail["height"], slot["height"], "card 5 did not expand")
        flight = []
        frames = self.frames()
        for end in range(since + 1, len(frames) + 1):
            moving = [n for n in replay(frames[:end]) if n.get("card") == "5" and n["role"] == "card"]
            flight += [n["width"] for n in moving if slot["width"] + 1 < n["width"] < detail["width"] - 1]
        self.assertTrue(flight, "no frame showed card 5 between its slot and the detail (no flight)")
        # Tap the background to put it back.
        self.tap(self.js("__cardistry.frame.viewport.width") / 2, self.js("__cardistry.frame.viewport.height") - 20)
        self.wait("!__cardistry.node('detail.5') && !!__cardistry.node('card.5')")
        self.settle()
        self.assertAlmostEqual(self.node("card.5")["x"], slot["x"], delta=1, msg="card 5 did not go back to its slot")

        # Fling card 9 sideways, fast: it is archived (removed from the deck); the key r brings it back.
        changes = self.js("__cardistry.deckChanges.length")
        fling = self.centre(self.board_cards()["9"])
        self.drag(fling, (fling[0] + 200, fling[1] + 4), steps=3)
        self.wait("__cardistry.deckChanges.length > %d" % changes)
        self.settle()
        self.assertNotIn("9", self.js("__cardistry.deck"), "the flung card is still in the deck")
        self.assertNotIn("9", self.board_cards(), "the flung card is still drawn")
        self.assertTrue(self.js("__cardistry.haptics.some(h => h.card === '9' && h.style === 'medium')"))
        changes = self.js("__cardistry.deckChanges.length")
        self.page.keyboard.press("r")
        self.wait("__cardistry.deckChanges.length > %d" % changes)
        self.settle()
        self.assertIn("9", self.js("__cardistry.deck"), "the key r did not restore the archived card")
        self.assertIn("9", self.board_cards(), "the restored card is not drawn")
        self.check_pixels("board after a drag, a reorder, a tap, a fling and a restore")
        self.close_scene("board")


# --- Accessibility: the page's parallel ARIA DOM (issue 51). Separate from BrowserTest: its own bridge and store.

# The ARIA role Chromium reports for each AccessKit role the server names (docs/protocol.md, "Accessibility").
AX_ROLES = {"window": "application", "group": "group", "list": "list", "listItem": "listitem", "listBox": "listbox",
            "listBoxOption": "option", "button": "button", "slider": "slider", "heading": "heading", "label": "note",
            "image": "image", "dialog": "dialog", "scrollView": "region", "grid": "grid", "gridCell": "gridcell"}


def engine_tree(scene, actions=()):
    """The server's own tree for `scene` after `actions` (a11y.action params), from a `cardistry stdio` of its own:
    the whole tree of scene.open with every a11y.update applied, as {root, focus, nodes (id → node)}."""
    lines = [{"method": "initialize", "params": {"protocolVersion": "1.0", "viewport": {"width": 390, "height": 844},
                                                 "accessibility": True}},
             {"method": "scene.open", "params": {"scene": scene}}]
    lines += [{"method": "a11y.action", "params": dict(action, t=i + 1)} for i, action in enumerate(actions)]
    text = "".join(json.dumps(dict(line, jsonrpc="2.0", id=i + 1)) + "\n" for i, line in enumerate(lines))
    with tempfile.TemporaryDirectory(prefix="cardistry-web-a11y-") as store:
        done = subprocess.run([executable(), "stdio", "--store", store], input=text, capture_output=True, text=True,
                              timeout=60, check=True)
    tree = None
    for line in done.stdout.splitlines():
        message = json.loads(line)
        assert "error" not in message, message
        result = message.get("result")
        if isinstance(result, dict) and "accessibility" in result:
            a11y = result["accessibility"]
            tree = {"root": a11y["root"], "focus": a11y["focus"], "nodes": {n["id"]: n for n in a11y["nodes"]}}
        elif message.get("method") == "a11y.update":
            update = message["params"]
            for node_id in update["removed"]:
                tree["nodes"].pop(node_id, None)
            for node in update["nodes"]:
                tree["nodes"][node["id"]] = node
            tree["focus"] = update["focus"]
    return tree


def ax_value(ax, name):
    for prop in ax.get("properties", []):
        if prop["name"] == name:
            return prop["value"].get("value")
    return None


class AccessibilityTest(unittest.TestCase):
    """Chromium's accessibility tree of the page's ARIA DOM equals the server's tree, and every scene's end states
    are reached with the keyboard alone."""
    timings = {}
    setUpClass = classmethod(BrowserTest.setUpClass.__func__)
    tearDownClass = classmethod(BrowserTest.tearDownClass.__func__)
    open_scene = BrowserTest.open_scene
    close_scene = BrowserTest.close_scene
    tearDown = BrowserTest.tearDown
    js = BrowserTest.js
    wait = BrowserTest.wait
    settle = BrowserTest.settle

    def chromium_tree(self):
        """Chromium's own accessibility tree (CDP Accessibility.getFullAXTree) of the ARIA DOM, by node id: role,
        name, selected, expanded, posinset, setsize and the children that are nodes of the tree."""
        cdp = self.page.context.new_cdp_session(self.page)
        try:
            document = cdp.send("DOM.getDocument", {"depth": -1, "pierce": False})
            ids = {}

            def walk(node):
                attributes = node.get("attributes", [])
                pairs = dict(zip(attributes[::2], attributes[1::2]))
                if "data-node" in pairs:
                    ids[node["backendNodeId"]] = pairs["data-node"]
                for child in node.get("children", []):
                    walk(child)
            walk(document["root"])
            ax_nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        finally:
            cdp.detach()
        by_ax = {ax["nodeId"]: ax for ax in ax_nodes}
        tree = {}
        for ax in ax_nodes:
            node_id = ids.get(ax.get("backendDOMNodeId"))
            if node_id is None or ax.get("ignored"):
                continue

            def node_children(ax_node):
                out = []
                for child_id in ax_node.get("childIds", []):
                    child = by_ax.get(child_id)
                    if child is None:
                        continue
                    if ids.get(child.get("backendDOMNodeId")) is not None and not child.get("ignored"):
                        out.append(ids[child["backendDOMNodeId"]])
                    else:
                        out += node_children(child)
                return out
            tree[node_id] = {"role": ax["role"]["value"], "name": ax.get("name", {}).get("value"),
                             "selected": ax_value(ax, "selected"), "expanded": ax_value(ax, "expanded"),
                             "children": node_children(ax)}
        # CDP's AX properties have no position in set, and Chromium drops aria-expanded on an option (ARIA 1.2
        # does not allow it there): those come from the elements' ARIA reflection (ariaPosInSet, …) instead.
        reflected = self.js("""Object.fromEntries([...document.querySelectorAll('#a11y [data-node]')].map(e =>
            [e.dataset.node, {posinset: e.ariaPosInSet, setsize: e.ariaSetSize, expanded: e.ariaExpanded}]))""")
        for node_id, node in tree.items():
            dom = reflected[node_id]
            node["posinset"] = int(dom["posinset"]) if dom["posinset"] else None
            node["setsize"] = int(dom["setsize"]) if dom["setsize"] else None
            if node["expanded"] is None and dom["expanded"] is not None:
                node["expanded"] = dom["expanded"] == "true"
        return tree

    def assert_tree_matches(self, engine, label):
        chromium = self.chromium_tree()
        self.assertEqual(sorted(chromium), sorted(engine["nodes"]), "%s: the nodes Chromium exposes" % label)
        for node_id, node in engine["nodes"].items():
            ax = chromium[node_id]
            # Chromium says "not selected" of every option the engine leaves without a selection state.
            selected = node.get("selected", False if AX_ROLES[node["role"]] == "option" else None)
            want = {"role": AX_ROLES[node["role"]], "name": node.get("name"), "selected": selected,
                    "expanded": node.get("expanded"), "children": node.get("children", [])}
            got = {key: ax[key] for key in want}
            if node.get("positionInSet") is not None:
                want["posinset"], want["setsize"] = node["positionInSet"], node["sizeOfSet"]
                got["posinset"], got["setsize"] = ax["posinset"], ax["setsize"]
            self.assertEqual(got, want, "%s: node %s" % (label, node_id))
        page = self.js("__cardistry.a11y.tree()")
        self.assertEqual(page["focus"], engine["focus"], "%s: the page's focus" % label)

    def await_update(self, before):
        self.wait("__cardistry.a11y.updates > %d" % before)
        self.settle()

    def test_aria_tree_equals_the_engines_tree(self):
        # Each scene at rest and after one of its actions (performed through the page, and again by a server of
        # the test's own, whose tree is the reference).
        cases = {
            "scores": [{"node": "card.4", "action": "default"}],
            "hero": [{"node": "line.302", "action": "default"}],
            "wallet": [{"node": "card.101", "action": "default"}],
            "flashcards": [{"node": "card.212", "action": "default"}],
            "deck": [{"node": "card.404", "action": "customAction", "customAction": 0}],
        }
        for scene, actions in cases.items():
            with self.subTest(scene=scene):
                self.open_scene(scene)
                self.assert_tree_matches(engine_tree(scene), scene + " at rest")
                for action in actions:
                    before = self.js("__cardistry.a11y.updates")
                    self.js("(p) => __cardistry.rpc('a11y.action', p)", action)
                    self.await_update(before)
                self.assert_tree_matches(engine_tree(scene, actions), scene + " after " + json.dumps(actions))
                self.close_scene("aria " + scene)

    def focused(self):
        return self.js("__cardistry.a11y.focused()")

    def press(self, key, expect_focus=None):
        before = self.js("__cardistry.a11y.updates")
        self.page.keyboard.press(key)
        if expect_focus is not None:
            self.wait("__cardistry.a11y.focused() === %s" % json.dumps(expect_focus))
        return before

    def open_and_close_by_keys(self):
        """Enter opens the focused node (a node of the tree becomes expanded), Escape closes it again."""
        self.press("Enter")
        self.wait("__cardistry.a11y.tree().nodes.some(n => n.expanded === true)")
        self.settle()
        self.press("Escape")
        self.wait("!__cardistry.a11y.tree().nodes.some(n => n.expanded === true)")
        self.settle()

    def test_keyboard_alone_deck(self):
        self.open_scene("deck")
        # Tab is the deck's own key (the next card): the scene's focus moves, and the keyboard focus follows it
        # from the canvas into the tree; then ↓ moves along the cards.
        self.page.keyboard.press("Tab")
        self.wait("__cardistry.a11y.focused() === 'card.402'")
        for expected in ["card.403", "card.404"]:
            self.press("ArrowDown", expected)
        self.wait("__cardistry.a11y.tree().focus === 'card.404'")  # the scene's focus followed the page's
        self.press("Alt+1")  # its first custom action: move up
        self.wait("__cardistry.deckChanges.length > 0")
        self.settle()
        self.assertEqual(self.js("__cardistry.deck").index("404"), 2, "the card did not move up")
        self.assertIn("Travel, 3 of 12", self.js("__cardistry.a11y.announcements"))
        self.assertEqual(self.focused(), "card.404", "the focus stayed on the moved card")
        # Access keys by name, not by place: "move down" is Alt+Shift+D on a card in the middle (its second custom
        # action) and on the first card (its first), and the description announces each.
        description = "__cardistry.a11y.element('%s').getAttribute('aria-description')"
        self.assertIn("Alt+Shift+D move down", self.js(description % "card.404"))
        self.assertIn("Alt+Shift+D move down", self.js(description % "card.401"))
        self.assertEqual(self.js("__cardistry.a11y.element('card.401').getAttribute('aria-keyshortcuts')"),
                         "Alt+Shift+D Alt+Shift+B Alt+1 Alt+2")
        changes = self.js("__cardistry.deckChanges.length")
        self.press("Alt+Shift+D")  # move down: back to its place
        self.wait("__cardistry.deckChanges.length > %d" % changes)
        self.settle()
        self.assertEqual(self.js("__cardistry.deck").index("404"), 3, "Alt+Shift+D did not move the card down")
        changes = self.js("__cardistry.deckChanges.length")
        self.press("Alt+Shift+T")  # move to top
        self.wait("__cardistry.deckChanges.length > %d" % changes)
        self.settle()
        self.assertEqual(self.js("__cardistry.deck").index("404"), 0, "Alt+Shift+T did not move the card to the top")
        self.assertEqual(self.focused(), "card.404", "the focus stayed on the moved card")
        self.press("Enter", "detail.404")  # expand: the dialog takes the focus
        self.assertEqual(self.js("__cardistry.a11y.element('detail.404').getAttribute('role')"), "dialog")
        self.press("Escape")
        self.wait("!__cardistry.a11y.element('detail.404')")
        self.settle()
        self.assertIsNone(self.js("__cardistry.node('detail.404')"), "the expanded card stayed")
        self.assertTrue(self.js("document.getElementById('a11y').contains(document.activeElement)"),
                        "the keyboard focus left the tree")
        self.close_scene("aria keyboard deck")

    def test_keyboard_alone_flashcards(self):
        self.open_scene("flashcards")
        self.press("Tab", "card.212")  # not a key of the flashcards: it leaves the canvas for the tree
        self.press("Enter")
        self.wait("__cardistry.a11y.tree().nodes.find(n => n.id === 'card.212').stateDescription === 'answer shown'")
        self.assertEqual(self.js("__cardistry.a11y.element('card.212').getAttribute('aria-expanded')"), "true")
        self.assertEqual(self.js("__cardistry.a11y.announcements").count(
            "What is the speed of light in vacuum, in km/s (rounded)? 300,000: answer shown"), 1, "announced once")
        self.settle()
        self.press("Alt+3")  # dismiss right
        self.wait("!__cardistry.a11y.element('card.212')")
        self.settle()
        top = self.js("__cardistry.a11y.tree().nodes.find(n => n.positionInSet === 1)")
        self.assertEqual((top["id"], top["sizeOfSet"]), ("card.211", 11))
        self.assertFalse(top.get("disabled"), "the next card takes actions")
        self.wait("__cardistry.a11y.focused() === 'card.211'")
        self.assertIn("Alt+Shift+L dismiss left",
                      self.js("__cardistry.a11y.element('card.211').getAttribute('aria-description')"))
        self.press("Alt+Shift+L")  # dismiss left, by its name's key
        self.wait("!__cardistry.a11y.element('card.211')")
        self.settle()
        self.close_scene("aria keyboard flashcards")

    def test_keyboard_alone_scores_hero_wallet(self):
        self.open_scene("scores")
        self.press("Tab", "card.4")
        self.press("Enter")
        self.wait("__cardistry.a11y.tree().nodes.find(n => n.id === 'card.4').expanded === true")
        self.settle()
        self.press("Escape")
        self.wait("__cardistry.a11y.tree().nodes.find(n => n.id === 'card.4').expanded === false")
        for _ in range(5):
            self.page.keyboard.press("ArrowDown")
        self.wait("__cardistry.a11y.focused() === 'slider'")
        self.press("ArrowRight")
        self.wait("__cardistry.a11y.tree().nodes.find(n => n.id === 'slider').value === 'test 2 of 10'")
        self.settle()
        self.assertTrue(any("test 2 of 10" in a for a in self.js("__cardistry.a11y.announcements")),
                        "the slider's new value was not announced")
        self.close_scene("aria keyboard scores")

        self.open_scene("hero")
        self.press("Tab", "line.301")
        self.press("ArrowDown", "line.302")
        self.open_and_close_by_keys()
        self.close_scene("aria keyboard hero")

        self.open_scene("wallet")
        self.page.keyboard.press("Tab")  # the wallet's own key: a card takes the focus, and the keyboard's follows
        self.wait("__cardistry.a11y.focused() !== null && __cardistry.a11y.focused() === __cardistry.a11y.tree().focus")
        self.open_and_close_by_keys()
        # Reorder with the focused card's first custom action (Alt+1).
        card = self.js("__cardistry.a11y.tree().nodes.find(n => n.id === __cardistry.a11y.focused())")
        self.assertTrue(card.get("customActions"), "the focused card has no custom actions: %s" % card)
        before = self.js("__cardistry.deck")
        self.press("Alt+1")
        self.wait("__cardistry.deckChanges.length > 0")
        self.settle()
        self.assertNotEqual(self.js("__cardistry.deck"), before, "%s did not reorder the wallet"
                            % card["customActions"][0]["description"])
        self.close_scene("aria keyboard wallet")

    def card_path(self, reduce):
        """The y of card 404 in every frame while the deck moves it up one place (by its custom action), in a page
        whose browser prefers reduced motion or not; with the page's problems checked."""
        self.started = time.monotonic()
        context = self.browser.new_context(reduced_motion="reduce" if reduce else "no-preference",
                                           viewport={"width": 700, "height": 1000})
        try:
            self.page = context.new_page()
            self.problems = []
            self.page.on("pageerror", lambda e: self.problems.append("page error: %s" % e))
            self.page.goto(self.url + "?record#deck")
            self.wait("window.__cardistry && __cardistry.ready && __cardistry.scene === 'deck'")
            self.settle()
            self.assertEqual(self.js("__cardistry.reduceMotion"), reduce, "prefers-reduced-motion was not read")
            first = len(self.js("__cardistry.frameLog"))
            self.js("__cardistry.rpc('a11y.action', {node: 'card.404', action: 'customAction', customAction: 0})")
            self.wait("__cardistry.deckChanges.length > 0")
            self.settle()
            frames = self.js("__cardistry.frameLog")
            path = []
            for frame in frames[first:]:
                for node in frame["nodes"] if frame["full"] else frame["changed"]:
                    if node["id"] == "card.404":
                        path.append(round(node["y"], 2))
            self.close_scene("aria reduced motion" if reduce else "aria motion")
            return path
        finally:
            context.close()

    def test_reduced_motion_when_the_browser_prefers_it(self):
        # With prefers-reduced-motion the page asks for reduced motion: the moved card is at its new place at once
        # (it fades in there); without it, the card slides through places in between.
        moving = self.card_path(reduce=False)
        self.assertGreater(len(set(moving[:-1]) - {moving[-1]}), 1, "the card did not slide: %s" % moving)
        still = self.card_path(reduce=True)
        self.assertTrue(still, "no frame moved the card")
        self.assertEqual(set(still), {still[-1]}, "the card moved along a path: %s" % still)


class CatalogueTest(unittest.TestCase):
    def test_every_scene_played_by_hand_is_in_the_catalogue(self):
        if not os.access(executable(), os.X_OK):
            self.skipTest("no cardistry executable")
        scenes = catalogue()
        self.assertGreaterEqual(len(scenes), 5, scenes)
        stale = [scene for scene in PLAYED if scene not in scenes]
        self.assertEqual(stale, [], "BrowserTest plays %s by hand, which the catalogue %s lacks" % (stale, scenes))
        for scene in PLAYED:
            self.assertTrue(callable(getattr(BrowserTest, "test_" + scene, None)), "no BrowserTest.test_" + scene)


class BridgeTest(unittest.TestCase):
    """The bridge stops its server when the page goes away and on SIGTERM, and leaves nothing behind."""

    @unittest.skipIf(sync_playwright is None, "playwright is not installed")
    def test_page_gone_stops_everything(self):
        if not os.access(executable(), os.X_OK):
            self.skipTest("no cardistry executable")
        bridge, url = start_bridge("--grace", "1")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                page = browser.new_page()
                page.goto(url)
                page.wait_for_function("window.__cardistry && __cardistry.ready", timeout=TIMEOUT)
                children = children_of(bridge.pid)
                self.assertEqual(len(children), 1, "one cardistry server")
                browser.close()
            self.assertEqual(bridge.wait(20), 0, "the bridge did not exit cleanly after the page went away")
            self.assertFalse(os.path.exists("/proc/%d" % children[0]), "the server was left behind")
        finally:
            stop_process(bridge)
            bridge.log.close()

    def test_sigterm_stops_the_server(self):
        if not os.access(executable(), os.X_OK):
            self.skipTest("no cardistry executable")
        import urllib.request
        bridge, url = start_bridge()
        try:
            # Open the event stream like a page would, so the server starts.
            stream = urllib.request.urlopen(url + "events?client=test", timeout=10)
            stream.readline()
            deadline = time.monotonic() + 10
            while not children_of(bridge.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            children = children_of(bridge.pid)
            self.assertEqual(len(children), 1)
            bridge.send_signal(signal.SIGTERM)
            self.assertEqual(bridge.wait(15), 0)
            stream.close()
            self.assertFalse(os.path.exists("/proc/%d" % children[0]), "the server was left behind")
        finally:
            stop_process(bridge)
            bridge.log.close()


if __name__ == "__main__":
    started = time.monotonic()
    result = unittest.main(exit=False, verbosity=2).result
    print("browser test: %.1f s; per scene: %s" % (
        time.monotonic() - started,
        ", ".join("%s %.1f s" % item for item in sorted(BrowserTest.timings.items()))))
    sys.exit(0 if result.wasSuccessful() else 1)
