// Cardistry web host: draws `cardistry stdio` frames on a canvas and sends pointer, wheel, key and resize input.
// Plain JavaScript, no dependencies. The bridge (bridge.py) relays JSON-RPC: POST /rpc carries messages to the
// server, the event stream /events carries every line the server writes, in order.
"use strict";

(() => {
  // ---------------------------------------------------------------------------------------------------------
  // Constants

  const DESIGN = { width: 390, height: 844 };  // the size the scenes were designed for (points)
  const BEZEL = 12;                            // phone body around the screen, points
  const SCREEN_RADIUS = 28;                    // the screen's rounded corners, points
  const BEZEL_COLOR = "#0b0b0d";
  const FONT_FAMILY = '-apple-system, "SF Pro Text", "Helvetica Neue", "Liberation Sans", Arial, system-ui, sans-serif';
  // iOS text styles at the default (Large) Dynamic Type size: point size and line height.
  const TEXT_STYLES = {
    largeTitle: { size: 34, line: 41 },
    title: { size: 28, line: 34 },
    headline: { size: 17, line: 22 },
    body: { size: 17, line: 22 },
    footnote: { size: 13, line: 18 },
    caption: { size: 12, line: 16 },
  };
  const WEIGHTS = { regular: 400, bold: 700, heavy: 800 };
  // SF Symbols have no web font: each name maps to a Unicode symbol (drawn in the run's colour) or an emoji.
  const SYMBOLS = {
    "sun.max": "\u2600\uFE0E", "cloud": "\u2601\uFE0E", "cloud.rain": "\u{1F327}", "snowflake": "\u2744\uFE0E",
    "leaf": "\u{1F343}", "flame": "\u{1F525}", "drop": "\u{1F4A7}", "star": "\u2605", "heart": "\u2665\uFE0E",
    "bolt": "\u26A1\uFE0E", "moon": "\u263E", "plus.circle": "\u2295", "plus": "+", "xmark.circle": "\u2297",
    "xmark": "\u2715", "fork.knife": "\u{1F374}", "applelogo": "\u{1F34E}", "tram": "\u{1F68A}",
    "cup.and.saucer": "\u2615\uFE0E", "cart": "\u{1F6D2}", "film": "\u{1F39E}", "fuelpump": "\u26FD\uFE0E",
    "book": "\u{1F4D6}", "creditcard": "\u{1F4B3}", "chevron.left": "\u2039", "chevron.right": "\u203A",
    "trash": "\u{1F5D1}", "arrow.clockwise": "\u21BB", "checkmark": "\u2713", "gearshape": "\u2699\uFE0E",
  };
  const HAPTIC_VIBRATION = { light: 8, soft: 8, selection: 5, medium: 14, rigid: 14, heavy: 22, success: [10, 40, 10],
    warning: [18, 40, 18], error: [25, 30, 25, 30, 25] };
  const KEYS = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down", Enter: "enter",
    " ": "space", Escape: "escape", Backspace: "backspace", Home: "home", End: "end", PageUp: "pageup",
    PageDown: "pagedown" };

  // ---------------------------------------------------------------------------------------------------------
  // State, and the debug object the browser test reads

  const canvas = document.getElementById("screen");
  const ctx = canvas.getContext("2d");
  const clientId = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
  const t0 = performance.now();

  const scene = {
    name: null, title: "", actions: [],
    opening: null,      // the scene being opened (its screen is fitted before its first frame)
    nodes: new Map(),   // id → node, as the server last described it
    order: [],          // ids in paint order
    seq: null,          // seq of the last frame applied
    viewport: { ...DESIGN },
    animating: false,
  };
  // CSS px per point, device px per CSS px, the canvas's CSS size, and whether it is shown turned a quarter.
  const view = { scale: 1, dpr: 1, viewport: { ...DESIGN }, css: { ...DESIGN }, rotated: false };
  const pulses = [];  // haptic pulses being shown: {rect, start, style}
  let dirty = true;

  const debug = {
    reduceMotion: !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches),
    ready: false, clientId, scenes: [], scene: null, title: "", actions: [],
    frame: null,            // the last frame received (as the server wrote it)
    record: new URLSearchParams(location.search).has("record"),  // ?record keeps every frame (tests)
    frameLog: [],           // with ?record: every frame received in this scene, as written (the test replays them)
    frames: 0, fullFrames: 0, deltaFrames: 0,
    drawnSeq: null,         // seq of the frame the canvas shows
    gestures: [], haptics: [], deckChanges: [], deck: null,
    checksumMismatches: 0,  // deck.changed whose checksum is not the page's own of its order
    errors: [],             // JSON-RPC errors and transport problems
    exited: null,
    pulsing: () => pulses.length > 0,
    lastFrameAt: 0,         // performance.now() when the last frame arrived
    // The last frame has settled, the canvas shows it, no haptic pulse is drawn, and no frame came for `quietMs`.
    settled: (quietMs = 300) => !!debug.frame && !debug.frame.animating && debug.drawnSeq === scene.seq &&
      pulses.length === 0 && performance.now() - debug.lastFrameAt >= quietMs,
    nodes: () => scene.order.map((id) => scene.nodes.get(id)).filter(Boolean),
    node: (id) => scene.nodes.get(id) || null,
    // Canvas pixel at (x, y) in screen points (0,0 = the screen's top-left; the bezel is outside), as [r, g, b, a].
    pixel: (x, y) => {
      const k = view.scale * view.dpr;
      const px = Math.floor((x + BEZEL) * k), py = Math.floor((y + BEZEL) * k);
      return Array.from(ctx.getImageData(px, py, 1, 1).data);
    },
    // How many device pixels in a rect (screen points) differ from `hex` by more than `threshold` in a channel.
    ink: (x, y, width, height, hex, threshold = 60) => {
      const k = view.scale * view.dpr;
      const px = Math.max(0, Math.floor((x + BEZEL) * k)), py = Math.max(0, Math.floor((y + BEZEL) * k));
      const w = Math.max(1, Math.floor(width * k)), h = Math.max(1, Math.floor(height * k));
      const data = ctx.getImageData(px, py, w, h).data;
      const c = parseColor(hex);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - c.r) > threshold || Math.abs(data[i + 1] - c.g) > threshold ||
            Math.abs(data[i + 2] - c.b) > threshold) count++;
      }
      return count;
    },
    // Client (CSS) coordinates of a point on the screen, for synthetic input.
    toClient: (x, y) => pointsToClient(x, y),
    // The screen the page fits in the window: its size in points and whether it is shown turned a quarter.
    screen: () => ({ ...view.viewport, rotated: view.rotated }),
    // The text of the last canvas draw, by node id: the font size (points) of every drawn word and the lines.
    drawnText: () => Object.fromEntries(drawnText),
    bezel: BEZEL, bezelColor: BEZEL_COLOR,
    rpc: (method, params) => request(method, params),
    open: (name, options) => openScene(name, options),
  };
  window.__cardistry = debug;

  // ---------------------------------------------------------------------------------------------------------
  // Transport: the event stream in, ordered POSTs out

  const pending = new Map();  // request id → {resolve, reject, method}
  let nextId = 1;
  let outbox = [];
  let posting = false;

  function post(message) {
    outbox.push(JSON.stringify(message));
    if (!posting) flush();
  }

  // One POST at a time, carrying every message queued meanwhile (one per line): the server sees them in order.
  async function flush() {
    posting = true;
    while (outbox.length) {
      const body = outbox.join("\n");
      outbox = [];
      try {
        const response = await fetch("/rpc?client=" + clientId, { method: "POST", body,
          headers: { "Content-Type": "application/json" } });
        if (!response.ok) reportError("bridge: POST /rpc " + response.status + " " + (await response.text()).trim());
      } catch (error) {
        reportError("bridge unreachable: " + error.message);
      }
    }
    posting = false;
  }

  function request(method, params) {
    const id = nextId++;
    const message = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, method });
      post(message);
    });
  }

  function notify(method, params) {
    const message = { jsonrpc: "2.0", method };
    if (params !== undefined) message.params = params;
    post(message);
  }

  function receive(message) {
    if (Array.isArray(message)) { message.forEach(receive); return; }
    if (message.method) { onNotification(message.method, message.params); return; }
    const waiter = pending.get(message.id);
    if (message.error) {
      const text = (waiter ? waiter.method + ": " : "") + message.error.message + " (" + message.error.code + ")";
      debug.errors.push({ id: message.id, method: waiter && waiter.method, code: message.error.code, message: message.error.message });
      if (waiter) { pending.delete(message.id); waiter.reject(Object.assign(new Error(text), { code: message.error.code })); }
      else showError(text);
      return;
    }
    if (waiter) { pending.delete(message.id); waiter.resolve(message.result); }
  }

  function connect() {
    return new Promise((resolve) => {
      const events = new EventSource("/events?client=" + clientId);
      events.onopen = () => resolve();
      events.onmessage = (event) => {
        let message;
        try { message = JSON.parse(event.data); } catch (error) { reportError("unreadable line from the server"); return; }
        receive(message);
      };
      events.addEventListener("exit", (event) => {
        debug.exited = JSON.parse(event.data).status;
        showError("The app stopped (its server exited with status " + debug.exited + "). Reload the page to start again.");
        events.close();
      });
    });
  }

  function reportError(text) {
    debug.errors.push({ message: text });
    showError(text);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Frames and notifications

  function onNotification(method, params) {
    switch (method) {
      case "frame": applyFrame(params); break;
      case "gesture":
        debug.gestures.push(params);
        showEvent("gesture " + params.kind + " " + params.phase + (params.card ? " · card " + params.card : ""));
        break;
      case "haptic": onHaptic(params); break;
      case "a11y.update": applyA11yUpdate(params); break;
      case "deck.changed":
        debug.deckChanges.push(params);
        debug.deck = params.deck;
        // The page has the whole order (deckOrder "full"): it checks the server's checksum against its own.
        if (orderChecksum(params.deck) !== params.checksum) debug.checksumMismatches += 1;
        showEvent("deck.changed: " + params.deck.slice(0, 12).join(" ") + (params.deck.length > 12 ? " …" : ""));
        break;
      // The open scene's state could not be saved or restored, or another session saved it meanwhile: a person
      // should know that their progress is not where they think it is.
      case "state.error":
        showError("Your progress could not be saved: " + params.message);
        break;
      case "state.conflict":
        showError(params.message);
        break;
      // Saving resumed after a state.error: the message that said otherwise goes.
      case "state.saved": {
        const span = document.getElementById("status-event");
        if (span.className === "error" && span.textContent.startsWith(" · Your progress could not be saved")) {
          span.textContent = "";
          span.className = "";
          document.getElementById("status").title = "";
        }
        break;
      }
    }
  }

  // The protocol's checksum of an order (docs/protocol.md, "Deck orders"): the sum modulo 2^32 of a hash of each
  // pair of neighbouring ids, with an edge marker before the first and after the last. Ids are decimal strings of
  // up to 64 bits: BigInt splits them into their 32-bit halves; the rest is 32-bit arithmetic (Math.imul).
  function mix32(x) {
    x ^= x >>> 16;
    x = Math.imul(x, 0x85ebca6b);
    x ^= x >>> 13;
    x = Math.imul(x, 0xc2b2ae35);
    return (x ^ (x >>> 16)) >>> 0;
  }

  function orderChecksum(ids) {
    const edge = 0x6a09e667;
    let sum = 0;
    let previous = edge;
    const add = (key) => {
      sum = (sum + mix32((Math.imul(previous, 0x9e3779b1) + key) >>> 0)) >>> 0;
      previous = key;
    };
    for (const id of ids) {
      const value = BigInt(id);
      const low = Number(value & 0xffffffffn);
      const high = Number(value >> 32n);
      add(mix32((low ^ mix32((high ^ 0x9e3779b9) >>> 0)) >>> 0));
    }
    add(edge);
    return sum;
  }

  // A full frame replaces everything; a delta drops `removed`, replaces or adds `changed`, and reorders by `order`.
  function applyFrame(frame) {
    debug.frame = frame;
    if (debug.record) debug.frameLog.push(frame);
    debug.lastFrameAt = performance.now();
    debug.frames++;
    if (frame.full) {
      debug.fullFrames++;
      scene.nodes = new Map(frame.nodes.map((node) => [node.id, node]));
      scene.order = frame.nodes.map((node) => node.id);
    } else {
      debug.deltaFrames++;
      if (scene.seq === null) { resync(); return; }
      for (const id of frame.removed) scene.nodes.delete(id);
      for (const node of frame.changed) scene.nodes.set(node.id, node);
      if (frame.order) {
        scene.order = frame.order.slice();
      } else if (frame.removed.length || frame.changed.some((node) => !scene.order.includes(node.id))) {
        // Not expected (order comes whenever it changes), but keep every node drawable.
        scene.order = scene.order.filter((id) => scene.nodes.has(id));
        for (const node of frame.changed) if (!scene.order.includes(node.id)) scene.order.push(node.id);
      }
    }
    scene.seq = frame.seq;
    scene.animating = frame.animating;
    if (frame.viewport.width !== scene.viewport.width || frame.viewport.height !== scene.viewport.height) {
      scene.viewport = { ...frame.viewport };
    }
    invalidate();
  }

  async function resync() {
    try { applyFrame((await request("scene.frame")).frame); } catch (error) { /* reported */ }
  }

  function onHaptic(params) {
    debug.haptics.push(params);
    const node = params.target && scene.nodes.get(params.target);
    pulses.push({ rect: node ? { x: node.x, y: node.y, width: node.width, height: node.height,
      cornerRadius: node.cornerRadius, rotation: node.rotation, scale: node.scale } : null,
      start: performance.now(), style: params.style });
    if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) {
      try { navigator.vibrate(HAPTIC_VIBRATION[params.style] || 10); } catch (error) { /* not allowed here */ }
    }
    showEvent("haptic " + params.style + (params.target ? " · " + params.target : ""));
    invalidate();
  }

  // ---------------------------------------------------------------------------------------------------------
  // Paint order and clipping, in one place. Frames are a view tree already in paint order (depth-first: a node,
  // then its children by sibling-relative z, each with its subtree; docs/protocol.md), so the plan is that list;
  // each node is clipped to the screen (by the caller) and to the rounded shapes of its ancestors that clip their
  // content (`clips`: the seeds' clipShape). Opacity, scale and rotation arrive already composed down the tree.

  function paintPlan(nodes, order) {
    const plan = [];
    for (const id of order) {
      const node = nodes.get(id);
      if (!node) continue;
      const clips = [];
      for (let parent = nodes.get(node.parent), hops = 0; parent && hops < 32; parent = nodes.get(parent.parent), hops++) {
        if (parent.clips) clips.push(parent);
      }
      plan.push({ node, clips });
    }
    return plan;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Drawing

  function invalidate() {
    if (!dirty) { dirty = true; requestAnimationFrame(draw); }
  }

  function parseColor(hex) {
    if (!hex) return null;
    const r = parseInt(hex.slice(1, 3), 16), g = parseInt(hex.slice(3, 5), 16), b = parseInt(hex.slice(5, 7), 16);
    const a = hex.length >= 9 ? parseInt(hex.slice(7, 9), 16) / 255 : 1;
    return { r, g, b, a, css: "rgba(" + r + "," + g + "," + b + "," + a.toFixed(4) + ")" };
  }
  const colorCache = new Map();
  function css(hex) {
    let value = colorCache.get(hex);
    if (value === undefined) { value = parseColor(hex); colorCache.set(hex, value); }
    return value ? value.css : "transparent";
  }

  function roundedRect(c, x, y, w, h, r) {
    r = Math.max(0, Math.min(r || 0, w / 2, h / 2));
    c.beginPath();
    if (r <= 0) { c.rect(x, y, w, h); return; }
    c.roundRect(x, y, w, h, r);
  }

  // Rotation (degrees, clockwise) and scale about the rect's centre.
  function applyTransform(c, node) {
    if (!node.rotation && (node.scale === 1 || node.scale === undefined)) return;
    const cx = node.x + node.width / 2, cy = node.y + node.height / 2;
    c.translate(cx, cy);
    if (node.rotation) c.rotate((node.rotation * Math.PI) / 180);
    if (node.scale !== 1) c.scale(node.scale, node.scale);
    c.translate(-cx, -cy);
  }

  function clipTo(c, shape) {
    c.save();
    applyTransform(c, shape);
    roundedRect(c, shape.x, shape.y, shape.width, shape.height, shape.cornerRadius);
    c.restore();  // the path survives restore; the clip is set in the caller's transform
    c.clip();
  }

  const drawnText = new Map();  // node id → {sizes: [{style, weight, size}], lines}, of the last draw

  function draw() {
    dirty = false;
    drawnText.clear();
    const k = view.scale * view.dpr;  // device px per point
    const vp = view.viewport;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(k, 0, 0, k, 0, 0);
    // The phone body.
    ctx.fillStyle = BEZEL_COLOR;
    roundedRect(ctx, 0, 0, vp.width + 2 * BEZEL, vp.height + 2 * BEZEL, SCREEN_RADIUS + BEZEL);
    ctx.fill();
    ctx.translate(BEZEL, BEZEL);
    // The screen: everything is clipped to it.
    ctx.save();
    roundedRect(ctx, 0, 0, vp.width, vp.height, SCREEN_RADIUS);
    ctx.clip();
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, vp.width, vp.height);
    for (const { node, clips } of paintPlan(scene.nodes, scene.order)) {
      ctx.save();
      for (const shape of clips) clipTo(ctx, shape);
      drawNode(ctx, node, k);
      ctx.restore();
    }
    drawPulses(ctx);
    ctx.restore();
    debug.drawnSeq = scene.seq;
    if (pulses.length) invalidate();
  }

  function drawNode(c, node, k) {
    if (node.opacity <= 0 || node.width < 0 || node.height < 0) return;
    c.globalAlpha = node.opacity;
    applyTransform(c, node);
    const shadow = node.shadow && parseColor(node.shadow.color);
    const withShadow = (on) => {
      if (on && shadow && shadow.a > 0) {
        // Canvas shadows ignore the transform: blur and offsets are in device pixels. SwiftUI's radius is about
        // the Gaussian's standard deviation; shadowBlur is twice it.
        const s = k * (node.scale || 1);
        c.shadowColor = shadow.css;
        c.shadowBlur = 2 * node.shadow.radius * s;
        c.shadowOffsetX = node.shadow.dx * s;
        c.shadowOffsetY = node.shadow.dy * s;
      } else {
        c.shadowColor = "transparent"; c.shadowBlur = 0; c.shadowOffsetX = 0; c.shadowOffsetY = 0;
      }
    };
    let shadowPending = true;
    if (node.fill) {
      withShadow(true);
      shadowPending = false;
      c.fillStyle = css(node.fill);
      roundedRect(c, node.x, node.y, node.width, node.height, node.cornerRadius);
      c.fill();
      withShadow(false);
    }
    if (node.stroke) {
      withShadow(shadowPending);
      shadowPending = false;
      const width = 2;
      c.strokeStyle = css(node.stroke);
      c.lineWidth = width;
      roundedRect(c, node.x + width / 2, node.y + width / 2, node.width - width, node.height - width,
        Math.max(0, node.cornerRadius - width / 2));
      c.stroke();
      withShadow(false);
    }
    if (node.runs && node.runs.length) {
      withShadow(shadowPending);
      if (node.role === "icon" || (node.role === "button" && node.runs.length === 1 && symbolFor(node.runs[0].text))) {
        drawIcon(c, node);
      } else {
        drawText(c, node);
      }
      withShadow(false);
    }
  }

  function drawPulses(c) {
    const now = performance.now();
    for (let i = pulses.length - 1; i >= 0; i--) {
      const pulse = pulses[i];
      const p = (now - pulse.start) / 320;
      if (p >= 1) { pulses.splice(i, 1); continue; }
      const strength = { heavy: 1, rigid: 0.9, medium: 0.8, success: 0.8, warning: 0.9, error: 1 }[pulse.style] || 0.6;
      c.save();
      c.globalAlpha = (1 - p) * strength;
      c.strokeStyle = pulse.style === "error" || pulse.style === "warning" ? "#ff453a" : "#0a84ff";
      c.lineWidth = 3;
      if (pulse.rect) {
        applyTransform(c, pulse.rect);
        const grow = 2 + p * 10;
        roundedRect(c, pulse.rect.x - grow, pulse.rect.y - grow, pulse.rect.width + 2 * grow,
          pulse.rect.height + 2 * grow, (pulse.rect.cornerRadius || 0) + grow);
      } else {
        const inset = 2 + p * 6;
        roundedRect(c, inset, inset, view.viewport.width - 2 * inset, view.viewport.height - 2 * inset, SCREEN_RADIUS);
      }
      c.stroke();
      c.restore();
    }
  }

  // --- icons

  function symbolFor(name) {
    if (!name) return null;
    let key = name.replace(/\.fill$/, "");
    while (key) {
      if (SYMBOLS[key]) return SYMBOLS[key];
      const dot = key.lastIndexOf(".");
      if (dot < 0) break;
      key = key.slice(0, dot).replace(/\.fill$/, "");
    }
    return null;
  }

  function drawIcon(c, node) {
    const run = node.runs[0];
    const glyph = symbolFor(run.text) || "\u25C6";
    const style = TEXT_STYLES[run.style] || TEXT_STYLES.body;
    const size = Math.min(style.size * 1.1, Math.min(node.width, node.height) * 0.9);
    c.font = fontFor(run, size);
    c.fillStyle = css(run.color);
    c.textAlign = "center";
    c.textBaseline = "middle";
    c.fillText(glyph, node.x + node.width / 2, node.y + node.height / 2 + size * 0.04);
  }

  // --- text

  function fontFor(run, size) {
    return (WEIGHTS[run.weight] || 400) + " " + size.toFixed(2) + "px " + FONT_FAMILY;
  }

  const layoutCache = new Map();

  function textPadding(node) {
    if (node.role === "card") return node.runs.every((run) => run.alignment === "center") ? 20 : 16;
    if (node.role === "bar" || node.role === "chip" || node.role === "button" || node.role === "row") return 4;
    return 0;
  }

  // Lays the runs out in the node's rect: a run ending (or the next starting) in a space continues the line
  // (SwiftUI's Text + Text: "Test " + "3"); other runs are stacked as paragraphs when that fits the height, else
  // they share one line. Text is always drawn at its style's size: the seeds set no minimumScaleFactor, and SwiftUI
  // does not shrink text, it truncates it. Paragraphs wrap at spaces (a word longer than the line breaks between
  // characters), in the browser's own font, to at most the run's `lineLimit` lines and as many as the node's
  // height holds; the last line of a paragraph cut short ends in "…" (SwiftUI's tail truncation). So every text
  // of one style has one size, whatever its length: "Sunny" as large as "Cloudy", a prompt as large with its
  // answer below it as without.
  function layoutText(node) {
    const key = node.width + "|" + node.height + "|" + node.role + "|" +
      node.runs.map((run) => run.text + "\u0001" + run.style + run.weight + run.alignment + (run.lineLimit || "") +
        (run.rollingFrom || "") + "\u0001" + (run.lines || []).join("\u0003")).join("\u0002");
    let layout = layoutCache.get(key);
    if (layout) return layout;
    const pad = textPadding(node);
    // Relative to the node's origin: nodes with the same size and text share a layout.
    const box = { x: pad, y: pad, width: Math.max(1, node.width - 2 * pad), height: Math.max(1, node.height - 2 * pad) };
    if (node.role !== "card") { box.y = 0; box.height = node.height; }
    // The server sized the node with its own text metrics (docs/protocol.md, "Text"), which differ a little from
    // the browser's font: a line may overhang its node by this much before it is cut.
    box.slack = Math.min(6, Math.max(3, box.width * 0.06));
    const groups = [];
    node.runs.forEach((run) => {
      const last = groups[groups.length - 1];
      const joins = last && (/\s$/.test(last[last.length - 1].text) || /^\s/.test(run.text));
      if (joins) last.push(run); else groups.push([run]);
    });
    let stacked = groups;
    const naturalHeight = groups.reduce((sum, group) => sum + Math.max(...group.map((run) => styleOf(run).line)), 0);
    if (groups.length > 1 && naturalHeight > node.height * 1.15) stacked = [groups.flat()];
    layout = layoutParagraphs(stacked, box);
    // Vertical placement: a card's leading text sits at the top, everything else is centred.
    const topAligned = node.role === "card" && !node.runs.every((run) => run.alignment === "center");
    layout.top = topAligned ? box.y : box.y + (box.height - layout.height) / 2;
    layout.box = box;
    if (layoutCache.size > 2000) layoutCache.clear();
    layoutCache.set(key, layout);
    return layout;
  }

  function styleOf(run) { return TEXT_STYLES[run.style] || TEXT_STYLES.body; }

  function measure(run, text) {
    ctx.font = fontFor(run, styleOf(run).size);
    return ctx.measureText(text).width;
  }

  // Rolling digits keep their slots: each character of the old and new text, right-aligned against each other.
  function rollingSlots(run) {
    const next = Array.from(run.text), old = Array.from(run.rollingFrom || run.text);
    const length = Math.max(next.length, old.length);
    const slots = [];
    for (let i = 0; i < length; i++) {
      const ni = i - (length - next.length), oi = i - (length - old.length);
      const n = ni >= 0 ? next[ni] : "", o = oi >= 0 ? old[oi] : "";
      slots.push({ next: n, old: o, index: ni, width: Math.max(n ? measure(run, n) : 0, o ? measure(run, o) : 0) });
    }
    return slots;
  }

  function textToken(run, text) {
    return { run, text, space: /^\s+$/.test(text), width: measure(run, text) };
  }

  // The last line of a paragraph cut short: the line's text and what follows, character by character as far as
  // fits with "…" after it (SwiftUI's tail truncation), trailing spaces dropped.
  function truncatedLine(tokens, room) {
    const line = { tokens: [], width: 0 };
    const last = tokens.find((token) => !token.space) || tokens[0];
    const ellipsis = textToken(last.run, "\u2026");
    let cut = false;
    for (const token of tokens) {
      if (line.width + token.width + ellipsis.width <= room) { line.tokens.push(token); line.width += token.width; continue; }
      cut = true;
      if (!token.slots && !token.space) {
        let text = "";
        for (const ch of Array.from(token.text)) {
          if (line.width + measure(token.run, text + ch) + ellipsis.width > room) break;
          text += ch;
        }
        if (text) { const part = textToken(token.run, text); line.tokens.push(part); line.width += part.width; }
      }
      break;
    }
    if (!cut) return null;
    while (line.tokens.length && line.tokens[line.tokens.length - 1].space) line.width -= line.tokens.pop().width;
    const mark = textToken((line.tokens[line.tokens.length - 1] || last).run, "\u2026");
    line.tokens.push(mark);
    line.width += mark.width;
    return line;
  }

  function layoutParagraphs(paragraphs, box) {
    const lines = [];
    let height = 0, truncated = false, overhang = box.slack;
    paragraphs.forEach((runs, index) => {
      // Room for a line: the node's width and the slack, and at least what each of the server's own lines of these
      // runs takes in the browser's font. The server sized the node for its lines ("Snow" in a chip of its own
      // width): a word the server did not cut is not cut here either, and one it cut ("Su…") is cut about as much.
      let room = box.width + box.slack;
      for (const run of runs) for (const line of run.lines || []) room = Math.max(room, measure(run, line) + 0.5);
      overhang = Math.max(overhang, room - box.width);
      // Tokens: words and spaces of plain runs; a numeric run is one token (its digits roll in place).
      const tokens = [];
      for (const run of runs) {
        if (run.numeric || run.rollingFrom) {
          const slots = rollingSlots(run);
          tokens.push({ run, text: run.text, slots, width: slots.reduce((sum, slot) => sum + slot.width, 0) });
        } else {
          for (const part of run.text.split(/(\s+)/)) {
            if (!part) continue;
            const token = textToken(run, part);
            if (token.space || token.width <= room) { tokens.push(token); continue; }
            // A word longer than the line breaks between characters.
            let piece = "";
            for (const ch of Array.from(part)) {
              if (piece && measure(run, piece + ch) > room) { tokens.push(textToken(run, piece)); piece = ""; }
              piece += ch;
            }
            if (piece) tokens.push(textToken(run, piece));
          }
        }
      }
      const lineHeight = Math.max(...runs.map((run) => styleOf(run).line));
      // How many lines: the runs' lineLimit, and what the node's height holds (at least one line each paragraph).
      const limits = runs.map((run) => run.lineLimit).filter((n) => n > 0);
      const later = paragraphs.length - 1 - index;
      const fits = Math.max(1, Math.floor((box.height + 2 - height) / lineHeight + 1e-6) - later);
      const most = Math.min(fits, limits.length ? Math.min(...limits) : Infinity);
      const wrapped = [];  // each line: the index of its first token
      let width = 0, count = 0;
      tokens.forEach((token, i) => {
        if (count && !token.space && width + token.width > room) { width = 0; count = 0; }
        if (!count && token.space) return;
        if (!count) wrapped.push(i);
        count++;
        width += token.width;
      });
      if (!wrapped.length) wrapped.push(0);
      const kept = Math.min(wrapped.length, most);
      for (let l = 0; l < kept; l++) {
        const from = wrapped[l], to = l + 1 < wrapped.length ? wrapped[l + 1] : tokens.length;
        let line = null;
        if (l === kept - 1 && kept < wrapped.length) {
          line = truncatedLine(tokens.slice(from), room);
          truncated = true;
        }
        if (!line) {
          line = { tokens: tokens.slice(from, to), width: 0 };
          while (line.tokens.length && line.tokens[line.tokens.length - 1].space) line.tokens.pop();
          line.width = line.tokens.reduce((sum, token) => sum + token.width, 0);
        }
        const lh = line.tokens.length ? Math.max(...line.tokens.map((t) => styleOf(t.run).line)) : lineHeight;
        lines.push({ ...line, height: lh, alignment: runs[0].alignment });
        height += lh;
      }
    });
    return { lines, scale: 1, truncated, height, overhang };
  }

  function drawText(c, node) {
    const layout = layoutText(node);
    const box = layout.box;
    c.save();
    // Text stays in its node's rect (a little slack for descenders, overhangs and the browser's wider glyphs).
    c.beginPath();
    c.rect(node.x - 2 - layout.overhang, node.y - 3, node.width + 4 + 2 * layout.overhang, node.height + 6);
    c.clip();
    c.textBaseline = "middle";
    c.textAlign = "left";
    // The current runs by identity of content, for the rolling state (layout is cached without it).
    const liveRuns = node.runs;
    let y = node.y + layout.top;
    const drawn = { sizes: [], lines: [] };  // what this node's text was drawn as (the browser test reads it)
    for (const line of layout.lines) {
      drawn.lines.push(line.tokens.map((token) => token.text).join(""));
      let x = node.x + box.x;
      if (line.alignment === "center") x = node.x + box.x + (box.width - line.width) / 2;
      else if (line.alignment === "trailing") x = node.x + box.x + box.width - line.width;
      const mid = y + line.height / 2;
      for (const token of line.tokens) {
        const run = liveRuns.find((r) => r.text === token.run.text && r.style === token.run.style) || token.run;
        const size = styleOf(run).size * layout.scale;
        c.font = fontFor(run, size);
        c.fillStyle = css(run.color);
        if (!token.space) drawn.sizes.push({ style: run.style, weight: run.weight, size: round(size, 3) });
        if (token.slots) drawRolling(c, run, token.slots, x, mid, line.height, size);
        else if (!token.space) c.fillText(token.text, x, mid);
        x += token.width;
      }
      y += line.height;
    }
    drawnText.set(node.id, drawn);
    c.restore();
  }

  // Each changed digit rolls vertically by its own progress: the old digit leaves, the new one arrives from the
  // side the value moves towards (up when it grows), both clipped to the line.
  function drawRolling(c, run, slots, x, mid, lineHeight, size) {
    const progress = run.digitProgress || [];
    const rolling = run.rollingFrom !== undefined && progress.length > 0;
    const up = rolling ? Number(run.text.replace(/[^0-9.-]/g, "")) >= Number(run.rollingFrom.replace(/[^0-9.-]/g, "")) : true;
    for (const slot of slots) {
      const p = slot.index >= 0 && slot.index < progress.length ? progress[slot.index] : rolling ? Math.min(...progress) : 1;
      if (!rolling || slot.next === slot.old || p >= 1) {
        if (slot.next) c.fillText(slot.next, x + (slot.width - c.measureText(slot.next).width) / 2, mid);
      } else {
        const travel = size * 1.05 * (up ? -1 : 1);
        c.save();
        c.beginPath();
        c.rect(x - 1, mid - lineHeight / 2, slot.width + 2, lineHeight);
        c.clip();
        const alpha = c.globalAlpha;
        if (slot.old) {
          c.globalAlpha = alpha * (1 - p);
          c.fillText(slot.old, x + (slot.width - c.measureText(slot.old).width) / 2, mid + travel * p);
        }
        if (slot.next) {
          c.globalAlpha = alpha * p;
          c.fillText(slot.next, x + (slot.width - c.measureText(slot.next).width) / 2, mid - travel * (1 - p));
        }
        c.restore();
      }
      x += slot.width;
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Sizing: the phone screen is the design size when the window has room, else what fits (the scene reflows).
  //
  // Seed 003 (Flashzilla) unchecks Portrait in the app's Device Orientation settings: the app runs only in
  // landscape. That is a setting of the app, not of its views, so frames do not carry it; the page knows it by
  // scene name. Such a scene gets a landscape phone (844 × 390 points, an iPhone on its side). In a phone's browser
  // held upright it is what an iPhone shows when a landscape-only app opens while held upright: the app laid out
  // in landscape and shown sideways (turned a quarter, its top towards the left edge, as with the home indicator
  // on the right), so the person turns the phone; turned, the window is landscape and the screen is upright.
  const LANDSCAPE_ONLY = new Set(["flashcards"]);
  const LANDSCAPE = { width: 844, height: 390 };

  function screenFor(name, availW, availH) {
    const phone = availW < DESIGN.width + 2 * BEZEL;  // the window is as narrow as a phone held upright
    if (!LANDSCAPE_ONLY.has(name)) {
      // A narrow window (a phone's browser) gets a screen as wide as it is, at least as tall as a small phone.
      const viewport = phone
        ? { width: Math.round(availW - 2 * BEZEL),
            height: Math.round(Math.max(568, Math.min(DESIGN.height, availH - 2 * BEZEL))) }
        : { ...DESIGN };
      return { viewport, rotated: false };
    }
    const rotated = phone && availH > availW;
    const along = rotated ? availH : availW, across = rotated ? availW : availH;  // room along the screen's axes
    // A phone's window (upright, or on its side and so short) gets a screen of its size, at least a small phone's
    // landscape (568 × 320); a desktop window the landscape phone, scaled down when it is smaller.
    const viewport = rotated || across < LANDSCAPE.height + 2 * BEZEL
      ? { width: Math.round(Math.max(568, Math.min(LANDSCAPE.width, along - 2 * BEZEL))),
          height: Math.round(Math.max(320, Math.min(LANDSCAPE.height, across - 2 * BEZEL))) }
      : { ...LANDSCAPE };
    return { viewport, rotated };
  }

  function fit(name = scene.opening || scene.name) {
    const stage = document.getElementById("stage");
    const availW = Math.max(200, stage.clientWidth - 24), availH = Math.max(300, stage.clientHeight - 24);
    const { viewport, rotated } = screenFor(name, availW, availH);
    const along = rotated ? availH : availW, across = rotated ? availW : availH;
    const scale = Math.min(1, across / (viewport.height + 2 * BEZEL), along / (viewport.width + 2 * BEZEL));
    const dpr = window.devicePixelRatio || 1;
    const cssW = (viewport.width + 2 * BEZEL) * scale, cssH = (viewport.height + 2 * BEZEL) * scale;
    canvas.style.width = cssW + "px";
    canvas.style.height = cssH + "px";
    canvas.style.borderRadius = (SCREEN_RADIUS + BEZEL) * scale + "px";
    canvas.style.transform = rotated ? "rotate(-90deg)" : "";
    canvas.width = Math.round(cssW * dpr);
    canvas.height = Math.round(cssH * dpr);
    view.scale = scale;
    view.dpr = canvas.width / cssW;
    view.css = { width: cssW, height: cssH };
    view.rotated = rotated;
    const changed = viewport.width !== view.viewport.width || viewport.height !== view.viewport.height;
    view.viewport = viewport;
    dirty = false;
    invalidate();
    return changed;
  }

  // Client (CSS) coordinates and screen points, through the screen's quarter turn when it is shown sideways
  // (CSS rotate(-90deg) about the canvas's centre takes an offset (x, y) from the centre to (y, −x)).
  function clientToPoints(clientX, clientY) {
    const r = canvas.getBoundingClientRect();
    let dx = clientX - (r.left + r.width / 2), dy = clientY - (r.top + r.height / 2);
    if (view.rotated) [dx, dy] = [-dy, dx];
    return { x: (dx + view.css.width / 2) / view.scale - BEZEL, y: (dy + view.css.height / 2) / view.scale - BEZEL };
  }

  function pointsToClient(x, y) {
    const r = canvas.getBoundingClientRect();
    let dx = (x + BEZEL) * view.scale - view.css.width / 2, dy = (y + BEZEL) * view.scale - view.css.height / 2;
    if (view.rotated) [dx, dy] = [dy, -dx];
    return { x: r.left + r.width / 2 + dx, y: r.top + r.height / 2 + dy };
  }

  // The window (or the toolbar above the stage) changed size: refit at once, and tell the server (debounced) when
  // the screen's size in points changed.
  let resizeTimer = null;
  let resizePending = false;
  new ResizeObserver(() => {
    if (fit()) resizePending = true;
    if (!resizePending || !debug.ready) return;
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      resizePending = false;
      request("viewport.resize", { width: view.viewport.width, height: view.viewport.height, t: round(now(), 4) })
        .catch(() => {});
    }, 80);
  }).observe(document.getElementById("stage"));

  // ---------------------------------------------------------------------------------------------------------
  // Input

  function now() { return (performance.now() - t0) / 1000; }

  function modifiersOf(event) {
    const list = [];
    if (event.shiftKey) list.push("shift");
    if (event.ctrlKey) list.push("control");
    if (event.altKey) list.push("alt");
    if (event.metaKey) list.push("command");
    return list;
  }

  function toPoints(event) { return clientToPoints(event.clientX, event.clientY); }

  const fingers = new Map();  // pointerId → small finger number for the protocol
  function fingerOf(event) {
    if (event.pointerType === "mouse") return 0;
    if (!fingers.has(event.pointerId)) {
      const used = new Set(fingers.values());
      let n = 0;
      while (used.has(n)) n++;
      fingers.set(event.pointerId, n);
    }
    return fingers.get(event.pointerId);
  }

  function buttonBits(event, phase) {
    if (event.pointerType !== "mouse") return 1;
    if (phase === "down" || phase === "up") return { 0: 1, 1: 4, 2: 2 }[event.button] || 1;
    return event.buttons & 7 || 1;
  }

  function sendPointer(phase, event) {
    if (!debug.ready) return;
    const p = toPoints(event);
    const params = { phase, x: round(p.x), y: round(p.y), t: round(now(), 4), pointer: fingerOf(event),
      buttons: buttonBits(event, phase) };
    const modifiers = modifiersOf(event);
    if (modifiers.length) params.modifiers = modifiers;
    request("input.pointer", params).catch(() => {});
  }

  function round(v, digits = 2) { const f = 10 ** digits; return Math.round(v * f) / f; }

  const down = new Set();
  canvas.addEventListener("pointerdown", (event) => {
    canvas.focus({ preventScroll: true });
    down.add(event.pointerId);
    try { canvas.setPointerCapture(event.pointerId); } catch (error) { /* synthetic pointer */ }
    sendPointer("down", event);
    event.preventDefault();
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!down.has(event.pointerId)) return;  // hover is not input for the scenes
    const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
    sendPointer("move", events.length ? events[events.length - 1] : event);
  });
  const release = (phase) => (event) => {
    if (!down.delete(event.pointerId)) return;
    sendPointer(phase, event);
    if (event.pointerType !== "mouse") fingers.delete(event.pointerId);
  };
  canvas.addEventListener("pointerup", release("up"));
  canvas.addEventListener("pointercancel", release("cancel"));
  canvas.addEventListener("lostpointercapture", (event) => { if (down.has(event.pointerId)) release("cancel")(event); });
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());

  canvas.addEventListener("wheel", (event) => {
    event.preventDefault();
    if (!debug.ready) return;
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? view.viewport.height : 1 / view.scale;
    const p = toPoints(event);
    const [wx, wy] = view.rotated ? [-event.deltaY, event.deltaX] : [event.deltaX, event.deltaY];
    const params = { dx: round(wx * unit), dy: round(wy * unit), x: round(p.x), y: round(p.y), t: round(now(), 4) };
    const modifiers = modifiersOf(event);
    if (modifiers.length) params.modifiers = modifiers;
    request("input.wheel", params).catch(() => {});
  }, { passive: false });

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    // Typing in the toolbar is not scene input; a key on the accessibility tree's nodes that they do not take is.
    if (target !== canvas && target !== document.body && !a11yRoot.contains(target)) return;
    if (event.metaKey || event.ctrlKey && event.key.length === 1) return;  // browser shortcuts stay
    let key = KEYS[event.key];
    // Tab on the canvas goes to the scene when it takes it (its `keys`); otherwise, and past the ends of the
    // accessibility tree, it is the browser's (to the tree, out of it).
    if (event.key === "Tab") key = !scene.takesTab || target !== canvas ? null : event.shiftKey ? "backtab" : "tab";
    if (!key && event.key.length === 1 || (!key && [...event.key].length === 1)) key = event.key;
    if (!key || !debug.ready) return;
    event.preventDefault();
    const params = { key, t: round(now(), 4) };
    const modifiers = modifiersOf(event).filter((m) => !(m === "shift" && key.length === 1));
    if (modifiers.length) params.modifiers = modifiers;
    request("input.key", params).catch(() => {});
  });

  // ---------------------------------------------------------------------------------------------------------
  // Accessibility: a parallel ARIA DOM built from the server's accessibility tree (docs/protocol.md,
  // "Accessibility"). `scene.open` carries the whole tree, `a11y.update` the changed nodes, the removed ids and the
  // focus; the page keeps it, mirrors every node as an invisible element (role, aria-label, aria-selected, …) in
  // reading order, lets the DOM focus follow the tree's focus while the person is in it, and maps keys on a node to
  // its actions (`a11y.action`). Keys it does not map go to the scene as `input.key`, as from the canvas.

  // AccessKit roles (camelCase, as the protocol names them) → ARIA roles.
  const ARIA_ROLES = {
    window: "application", group: "group", list: "list", listItem: "listitem", listBox: "listbox",
    listBoxOption: "option", button: "button", slider: "slider", heading: "heading", label: "note", image: "img",
    dialog: "dialog", scrollView: "region", grid: "grid", gridCell: "gridcell",
  };
  const a11yRoot = document.getElementById("a11y");
  const a11yLive = document.getElementById("a11y-live");
  const a11y = {
    nodes: new Map(),     // id → node, as the server last described it
    root: null,           // the root's id
    focus: null,          // the tree's focus
    elements: new Map(),  // id → its element
    implied: new Map(),   // "parent|role" → an implied list box or list (see layoutA11y)
    focusRequests: 0,     // a11y.action focus requests not answered yet
  };
  // The container ARIA requires around a role (browsers demote the role without it).
  const CONTEXT_ROLES = { option: "listbox", listitem: "list" };
  debug.a11y = {
    tree: () => a11y.root ? { root: a11y.root, focus: a11y.focus, nodes: a11yOrder().map((id) => a11y.nodes.get(id)) } : null,
    updates: 0,
    announcements: [],   // what the live region said, in order
    element: (id) => a11y.elements.get(id) || null,
    focused: () => { const el = document.activeElement; return el && el.dataset && el.dataset.node || null; },
  };

  // The tree's ids in reading order: depth-first from the root, a node before its children.
  function a11yOrder() {
    const out = [];
    const visit = (id) => {
      const node = a11y.nodes.get(id);
      if (!node) return;
      out.push(id);
      for (const child of node.children || []) visit(child);
    };
    if (a11y.root) visit(a11y.root);
    return out;
  }

  // The nodes a person can land on with the keys: the ones offering an action now, in reading order.
  function navigable() {
    return a11yOrder().filter((id) => { const n = a11y.nodes.get(id); return n.actions && n.actions.length && !n.disabled; });
  }

  // A custom action's access key, derived from its name rather than its place, so that one action has one key
  // wherever it is offered ("move up" is Alt+Shift+U on every card, whichever other actions the card has): the
  // initial of the name's last word, else of an earlier word, else a later letter of a word, among the letters the
  // node's earlier actions did not take. Alt+1…9 (by place) still work, unannounced.
  function accessKeys(node) {
    const taken = new Set();
    return (node.customActions || []).map((action) => {
      const words = action.description.toUpperCase().split(/[^A-Z]+/).filter(Boolean).reverse();
      const letters = [...words.map((word) => word[0]), ...words.flatMap((word) => [...word.slice(1)])];
      const letter = letters.find((candidate) => !taken.has(candidate));
      if (!letter) return null;
      taken.add(letter);
      return "Alt+Shift+" + letter;
    });
  }

  function describe(node) {
    const parts = [];
    if (node.stateDescription) parts.push(node.stateDescription);
    const keys = accessKeys(node);
    (node.customActions || []).forEach((action, i) => parts.push((keys[i] ? keys[i] + " " : "") + action.description));
    return parts.join("; ");
  }

  function setAttribute(element, name, value) {
    if (value === undefined || value === null || value === "") element.removeAttribute(name);
    else if (element.getAttribute(name) !== String(value)) element.setAttribute(name, String(value));
  }

  function renderA11yNode(node) {
    let element = a11y.elements.get(node.id);
    if (!element) {
      element = document.createElement("div");
      element.dataset.node = node.id;
      element.id = "a11y-" + node.id;
      a11y.elements.set(node.id, element);
    }
    setAttribute(element, "role", ARIA_ROLES[node.role] || "group");
    setAttribute(element, "aria-label", node.name);
    setAttribute(element, "aria-description", describe(node));
    // An option without a selection state would be "selected" by Chromium while it has the focus (selection
    // follows focus in a single-select list box): it says false, as the engine does by leaving it out.
    setAttribute(element, "aria-selected", node.selected ?? (node.role === "listBoxOption" ? false : undefined));
    setAttribute(element, "aria-expanded", node.expanded);
    setAttribute(element, "aria-disabled", node.disabled ? "true" : null);
    setAttribute(element, "aria-posinset", node.positionInSet);
    setAttribute(element, "aria-setsize", node.sizeOfSet);
    setAttribute(element, "aria-valuetext", node.value);
    if (node.role === "dialog") setAttribute(element, "aria-modal", "false");
    if (node.role === "heading") setAttribute(element, "aria-level", 1);
    const keys = [];
    if (node.actions && node.actions.includes("customAction")) {
      keys.push(...accessKeys(node).filter(Boolean));
      (node.customActions || []).slice(0, 9).forEach((_, i) => keys.push("Alt+" + (i + 1)));
    }
    setAttribute(element, "aria-keyshortcuts", keys.join(" "));
    return element;
  }

  // Puts every element under its parent, in the tree's order, and drops the ones the tree no longer holds.
  function layoutA11y() {
    const order = a11yOrder();
    const present = new Set(order);
    for (const [id, element] of a11y.elements) {
      if (!present.has(id)) { element.remove(); a11y.elements.delete(id); }
    }
    for (const id of order) {
      const node = a11y.nodes.get(id);
      const element = a11y.elements.get(id) || renderA11yNode(node);
      const want = [];
      for (const child of node.children || []) {
        const childElement = a11y.elements.get(child);
        if (!childElement) continue;
        // An option or list item whose parent is not a list box or list would be demoted by the browser (ARIA
        // requires that context): it goes into an unnamed implied container, one per parent and role.
        const context = CONTEXT_ROLES[childElement.getAttribute("role")];
        if (context && element.getAttribute("role") !== context) {
          const key = id + "|" + context;
          let wrapper = a11y.implied.get(key);
          if (!wrapper) {
            wrapper = document.createElement("div");
            wrapper.setAttribute("role", context);
            wrapper.dataset.implied = id;
            a11y.implied.set(key, wrapper);
          }
          if (!want.includes(wrapper)) { want.push(wrapper); wrapper.replaceChildren(); }
          wrapper.append(childElement);
        } else {
          want.push(childElement);
        }
      }
      want.forEach((child, i) => { if (element.children[i] !== child) element.insertBefore(child, element.children[i] || null); });
      while (element.children.length > want.length) element.lastElementChild.remove();
      if (id === a11y.root && element.parentNode !== a11yRoot) a11yRoot.append(element);
    }
    for (const [key, wrapper] of a11y.implied) if (!wrapper.isConnected || !wrapper.children.length) a11y.implied.delete(key);
    // One element takes Tab (roving tabindex): the focused node, else the first one offering an action.
    const stops = navigable();
    const tabStop = stops.includes(a11y.focus) ? a11y.focus : stops[0];
    for (const [id, element] of a11y.elements) {
      const target = stops.includes(id);
      setAttribute(element, "tabindex", id === tabStop ? 0 : target ? -1 : null);
    }
  }

  // scene.open's `accessibility`: the whole tree (or none, for a server without it).
  function openA11y(tree) {
    for (const element of a11y.elements.values()) element.remove();
    a11y.elements.clear();
    for (const wrapper of a11y.implied.values()) wrapper.remove();
    a11y.implied.clear();
    a11y.nodes = new Map();
    a11y.root = null;
    a11y.focus = null;
    a11yLive.textContent = "";
    debug.a11y.announcements = [];
    if (!tree) return;
    for (const node of tree.nodes) { a11y.nodes.set(node.id, { ...node }); renderA11yNode(node); }
    a11y.root = tree.root;
    a11y.focus = tree.focus;
    layoutA11y();
  }

  function applyA11yUpdate(update) {
    if (!a11y.root) return;
    debug.a11y.updates++;
    const wasInTree = a11yRoot.contains(document.activeElement);
    const onCanvas = document.activeElement === canvas;
    const before = new Map();
    for (const node of update.nodes) before.set(node.id, a11y.nodes.get(node.id));
    const removedNames = update.removed.map((id) => a11y.nodes.get(id)).filter((n) => n && n.name && n.role !== "window");
    for (const id of update.removed) a11y.nodes.delete(id);
    for (const node of update.nodes) { a11y.nodes.set(node.id, { ...node }); renderA11yNode(node); }
    const focusChanged = update.focus !== a11y.focus;
    a11y.focus = update.focus;
    layoutA11y();
    // The keyboard focus follows the tree's when the person is in the scene (on the canvas, whose keys moved it, or
    // in the tree); an element that left with the focus hands it to the tree's focus or the first node with actions.
    const target = a11y.elements.get(a11y.focus);
    const lost = wasInTree && !a11yRoot.contains(document.activeElement);
    const follow = focusChanged && (onCanvas || wasInTree && a11y.focusRequests === 0);
    if (target && (follow || lost)) target.focus({ preventScroll: true });
    else if (lost) { const first = a11y.elements.get(navigable()[0]); if (first) first.focus({ preventScroll: true }); }
    announce(update, before, removedNames, focusChanged);
  }

  // The polite live region says once what changed that moving the focus does not read out: the focused node's new
  // state, place or expansion, a slider's value, and the nodes that left, by name. (A node that takes the focus is
  // read by the screen reader as it gets it.)
  function announce(update, before, removedNames, focusChanged) {
    const parts = [];
    for (const node of update.nodes) {
      const old = before.get(node.id);
      if (!old) continue;
      if (node.id === a11y.focus && !focusChanged || node.role === "slider") {
        if (old.stateDescription !== node.stateDescription && node.stateDescription) parts.push(node.name + ": " + node.stateDescription);
        else if (old.positionInSet !== node.positionInSet && node.positionInSet) {
          parts.push(node.name + ", " + node.positionInSet + " of " + node.sizeOfSet);
        } else if (old.value !== node.value && node.value) parts.push(node.value);
        else if (old.expanded !== node.expanded && node.expanded !== undefined) parts.push(node.name + (node.expanded ? ", expanded" : ", collapsed"));
      }
    }
    if (removedNames.length && removedNames.length <= 3 && !update.nodes.some((n) => n.role === "dialog")) {
      for (const node of removedNames) if (node.role !== "dialog") parts.push(node.name + " removed");
    }
    if (!parts.length) return;
    const text = parts.join(". ");
    debug.a11y.announcements.push(text);
    a11yLive.textContent = text;
  }

  // While the page's own focus requests are in flight, the keyboard focus is ahead of the updates that answer them
  // (↓ pressed quickly): those updates do not pull it back.
  function a11yAction(node, action, customAction) {
    const params = { node, action, t: round(now(), 4) };
    if (customAction !== undefined) params.customAction = customAction;
    if (action === "focus") a11y.focusRequests++;
    return request("a11y.action", params).catch(() => {}).finally(() => {
      if (action === "focus") a11y.focusRequests--;
    });
  }

  function offers(node, action) { return !!(node && !node.disabled && node.actions && node.actions.includes(action)); }

  // A node the person lands on that the scene can focus gets the scene's focus too.
  a11yRoot.addEventListener("focusin", (event) => {
    const id = event.target.dataset && event.target.dataset.node;
    const node = id && a11y.nodes.get(id);
    if (node && id !== a11y.focus && offers(node, "focus")) a11yAction(id, "focus");
  });

  // Keys on a node: ↑ ↓ (and Tab) move between the nodes offering actions, or change a slider; ← → change a
  // slider; Enter and Space perform the node's default (or expand / collapse); Escape collapses what is expanded;
  // Alt+Shift+letter performs the custom action whose access key it is (`accessKeys`), Alt+1…9 the node's custom
  // actions by place. Every other key goes on to the scene (input.key).
  a11yRoot.addEventListener("keydown", (event) => {
    const id = event.target.dataset && event.target.dataset.node;
    const node = id && a11y.nodes.get(id);
    if (!node || !debug.ready || event.metaKey || event.ctrlKey) return;
    const stops = navigable();
    const move = (step) => {
      const i = stops.indexOf(id);
      const next = stops[i < 0 ? 0 : i + step];
      if (next === undefined) return false;
      a11y.elements.get(next).focus({ preventScroll: true });
      return true;
    };
    let handled = true;
    const digit = /^Digit([1-9])$/.exec(event.code);
    const letter = /^Key([A-Z])$/.exec(event.code);
    if (event.altKey && event.shiftKey && letter) {
      const index = accessKeys(node).indexOf("Alt+Shift+" + letter[1]);
      const action = index >= 0 ? node.customActions[index] : undefined;
      if (action && offers(node, "customAction")) a11yAction(id, "customAction", action.id);
      else handled = false;
    } else if (event.altKey && digit) {
      const action = (node.customActions || [])[Number(digit[1]) - 1];
      if (action && offers(node, "customAction")) a11yAction(id, "customAction", action.id);
    } else if (event.altKey) {
      handled = false;
    } else if (["ArrowUp", "ArrowRight"].includes(event.key) && (offers(node, "increment") || offers(node, "decrement"))) {
      if (offers(node, "increment")) a11yAction(id, "increment");
    } else if (["ArrowDown", "ArrowLeft"].includes(event.key) && (offers(node, "increment") || offers(node, "decrement"))) {
      if (offers(node, "decrement")) a11yAction(id, "decrement");
    } else if (event.key === "ArrowDown" || event.key === "Tab" && !event.shiftKey) {
      handled = move(1);
    } else if (event.key === "ArrowUp" || event.key === "Tab" && event.shiftKey) {
      handled = move(-1);
    } else if (event.key === "Enter" || event.key === " ") {
      if (offers(node, "default")) a11yAction(id, "default");
      else if (offers(node, "expand")) a11yAction(id, "expand");
      else if (offers(node, "collapse")) a11yAction(id, "collapse");
      else handled = false;
    } else if (event.key === "Escape") {
      const open = [id, ...a11yOrder().reverse()].find((other) => offers(a11y.nodes.get(other), "collapse"));
      if (open) a11yAction(open, "collapse");
      else handled = false;
    } else {
      handled = false;
    }
    if (event.key === "Tab" && !handled) return;  // leaving the tree: the browser moves on
    if (handled) { event.preventDefault(); event.stopPropagation(); }
  });

  // ---------------------------------------------------------------------------------------------------------
  // Scenes, decks, and the toolbar

  // The footer is for the person using the page: the scene's name and what it responds to (its keys, from
  // `scene.open`'s `keys`, or on a touch screen its summary), and a real error when there is one. What the server
  // reports as it goes (gestures, including the ones the recognizers did not pick, which end "failed"; haptics,
  // which the canvas shows as a ring; deck changes) is protocol detail: with `?debug=1` in the URL the footer logs
  // it instead, for developers.
  const DEBUG_FOOTER = /^(1|true|yes|)$/.test(new URLSearchParams(location.search).get("debug") ?? "no");

  function showEvent(text) {
    if (!DEBUG_FOOTER) return;
    const span = document.getElementById("status-event");
    if (span.className === "error") return;  // an error stays until the next scene opens
    span.textContent = " · " + text;
  }

  function showError(text) {
    const span = document.getElementById("status-event");
    span.textContent = " · " + text;
    span.className = "error";
    document.getElementById("status").title = text;
  }

  function showHint(result, deck) {
    const details = (debug.sceneDetails || []).find((d) => d.name === result.scene);
    const keys = (result.keys || []).map((k) => k.label + " " + k.summary).join(" · ");
    const touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    let hint = touch || !keys ? (details && details.summary) || "" : keys;
    if (view.rotated) hint = "Turn your phone sideways: " + result.title + " is landscape-only. " + hint;
    document.getElementById("status-scene").textContent = result.title + (deck ? " · deck " + deck : "");
    document.getElementById("status-hint").textContent = hint ? " · " + hint : "";
    const event = document.getElementById("status-event");
    event.textContent = ""; event.className = "";
    document.getElementById("status").title = hint;
  }

  async function openScene(name, options = {}) {
    const params = { scene: name };
    if (options.deck) params.deck = options.deck;
    if (options.options) params.options = options.options;
    // A scene of another orientation (landscape-only flashcards) gets its screen before it opens, so its first
    // frame is laid out for it (viewport.resize needs an open scene; before the first, initialize had the size).
    scene.opening = name;
    let result;
    try {
      fit(name);
      const sent = scene.viewport;
      if (scene.name && (sent.width !== view.viewport.width || sent.height !== view.viewport.height)) {
        await request("viewport.resize", { width: view.viewport.width, height: view.viewport.height, t: round(now(), 4) });
      }
      result = await request("scene.open", params);
    } finally {
      scene.opening = null;
    }
    scene.name = result.scene;
    scene.title = result.title;
    scene.actions = result.actions;
    scene.takesTab = (result.keys || []).some((k) => /\btab\b/.test(k.label));
    scene.seq = null;
    debug.frameLog = [];
    debug.gestures = []; debug.haptics = []; debug.deckChanges = []; debug.deck = null;
    applyFrame(result.frame);
    openA11y(result.accessibility);
    debug.scene = result.scene; debug.title = result.title; debug.actions = result.actions;
    for (const button of document.querySelectorAll("#scenes button")) {
      button.setAttribute("aria-pressed", String(button.dataset.scene === result.scene));
    }
    showHint(result, params.deck);
    document.title = "Cardistry — " + result.title;
    if (location.hash !== "#" + result.scene) history.replaceState(null, "", "#" + result.scene);
    canvas.focus({ preventScroll: true });
    return result;
  }

  function setupDecks() {
    const nameInput = document.getElementById("deck-name");
    const help = document.getElementById("deck-help");
    const deckName = () => nameInput.value.trim();
    const run = async (what, action) => {
      try { help.textContent = await action(); } catch (error) { help.textContent = what + " failed: " + error.message; }
    };
    document.getElementById("deck-open").addEventListener("click", () => run("open", async () => {
      if (!deckName()) return "Type the name of a deck in the store first.";
      await openScene(scene.name || debug.scenes[0], { deck: deckName() });
      return "Opened " + scene.title + " with deck '" + deckName() + "'.";
    }));
    document.getElementById("deck-load").addEventListener("click", () => run("deck.load", async () => {
      const result = await request("deck.load", deckName() ? { name: deckName() } : {});
      return "Loaded deck '" + result.name + "' (revision " + result.revision + ", " + result.order.deck.length + " cards).";
    }));
    document.getElementById("deck-save").addEventListener("click", () => run("deck.save", async () => {
      const result = await request("deck.save", deckName() ? { name: deckName() } : {});
      return "Saved deck '" + result.name + "' (revision " + result.revision + ").";
    }));
    // The stdio protocol takes decks from the server's store by name, so a picked file goes to the bridge, which
    // imports it into that store (`cardistry deck import`); then the scene opens with it by name.
    document.getElementById("deck-file").addEventListener("change", (event) => {
      const file = event.target.files[0];
      if (!file) return;
      const name = file.name.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9._-]/g, "-").slice(0, 64) || "deck";
      const ext = (/\.([A-Za-z]+)$/.exec(file.name) || [null, "tsv"])[1].toLowerCase();
      nameInput.value = name;
      const target = ext === "json" ? scene.name || "deck" : "flashcards";
      run("open", async () => {
        const response = await fetch("/import?name=" + encodeURIComponent(name) + "&ext=" + encodeURIComponent(ext), {
          method: "POST",
          body: await file.arrayBuffer(),
        });
        const result = await response.json().catch(() => ({ error: "the bridge answered " + response.status }));
        if (!response.ok) throw new Error(result.error || "the import failed");
        await openScene(target, { deck: name });
        debug.imported = name;
        return "Imported '" + file.name + "' as deck '" + name + "' and opened " + scene.title + " with it.";
      });
    });
    help.textContent = "Decks live in the server's store (deck.load / deck.save / scene.open with a deck name).";
  }

  async function start() {
    fit(location.hash.slice(1));
    setupDecks();
    await connect();
    const hello = await request("initialize", {
      protocolVersion: "1.0", clientInfo: { name: "web-host", version: "1" },
      viewport: { width: view.viewport.width, height: view.viewport.height },
      clock: "realtime", frames: "delta", fps: 60,
      // The page shows the order in its status line and its debug hooks, for small decks: it asks for the whole
      // order with every change (docs/protocol.md, "Deck orders"); a host of large decks applies the diffs instead.
      deckOrder: "full",
      // The parallel ARIA DOM (section "Accessibility" above), and the browser's prefers-reduced-motion.
      accessibility: true,
      ...(debug.reduceMotion ? { reduceMotion: true } : {}),
    });
    // The server names a glyph for every symbol its scenes use (capabilities.icons): those fill the gaps in the
    // page's own table (which prefers text-style symbols that take the run's colour).
    for (const [name, glyph] of Object.entries((hello.capabilities && hello.capabilities.icons) || {})) {
      const key = name.replace(/\.fill$/, "");
      if (!SYMBOLS[key]) SYMBOLS[key] = glyph;
    }
    const list = await request("scene.list");
    debug.scenes = list.scenes;
    debug.sceneDetails = list.details || [];
    debug.server = hello.serverInfo;
    const nav = document.getElementById("scenes");
    for (const name of list.scenes) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = name;
      button.dataset.scene = name;
      button.setAttribute("aria-pressed", "false");
      button.addEventListener("click", () => openScene(name).catch((error) => reportError(error.message)));
      nav.append(button);
    }
    const wanted = location.hash.slice(1);
    await openScene(list.scenes.includes(wanted) ? wanted : list.scenes[0]);
    debug.ready = true;
    const sent = debug.frame.viewport;
    if (sent.width !== view.viewport.width || sent.height !== view.viewport.height) {  // resized while starting
      await request("viewport.resize", { width: view.viewport.width, height: view.viewport.height, t: round(now(), 4) });
    }
  }

  window.addEventListener("error", (event) => debug.errors.push({ message: String(event.message) }));
  start().catch((error) => reportError("start failed: " + error.message));
})();
