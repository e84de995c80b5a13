// duckchess serve: the page. It decides no rule: every legal target, verdict, judge
// line, check and end of game comes from the API (/api/*), which runs the judge's own
// code: the server's, or, when the page is opened from plain static files, the same
// routes built to WebAssembly and run in the browser's workers (see 'without a
// server' below). The game is the start position plus the list of moves; it lives in
// the address after '#', so a reload or a copied link restores it.
//
// For people: the board follows the screen (two drawings, a roomy one like the toy's
// and a compact one for small screens), plays by keyboard (a cursor moved by the arrow
// keys) with a spoken description of every square, and turns the Chinese names into
// letters by itself on a machine that cannot draw them.
//
// The engine's view: a hint (the computer's move, drawn, not played), the evaluation
// bar and the best line as arrows, and the analysis of a game or a replay, asked for a
// few positions at a time (/api/analyze) so that its progress shows and a cancel is
// simply not asking again; the verdicts are the server's.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const START = 'rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r';
const CHINESE = { K: '王', G: '士', E: '象', H: '马', R: '车', D: '鸭', S: '兵' };
const NAMES = { K: 'captain', G: 'guard', E: 'elephant', H: 'horse', R: 'car', D: 'duck', S: 'soldier' };
// Every Chinese character the page shows: all must be drawable, or letters are used.
const ZH_GLYPHS = '王士象马车鸭兵红蓝胜新降鸭棋';
// The side markers of the toy, and their words in letters mode.
const MARKS = { red: '红', blue: '蓝', wins: '胜' };
// The level the computer plays at until the person picks another.
const DEFAULT_LEVEL = '3';
// Who plays red and blue until the person picks otherwise: the visitor red, the
// computer blue, so that a first move gets an answer.
const DEFAULT_PLAYERS = { red: 'human', blue: 'ai' };

// The two drawings of the board (SVG units; 60 between lines). Both name the rows
// and columns on all four edges in the two notations people type: the judge's numbers
// (`xs ys xt yt`: the row x 0-9 on the left, the column y 0-8 at the top) and the
// engine's files and ranks (UCI's `e4e5`: the file a-i at the bottom, the rank 1-10 on
// the right); `duckchess play` takes both. The roomy one is the toy's, with the side
// marker on the right; the compact one keeps the labels in narrow gutters, and its
// side marker moves under the board.
const WIDE = {
  name: 'wide', width: 680, height: 700, left: 80, top: 70, step: 60,
  rowLabelX: 28, rankLabelX: 606, colLabelY: 24, fileLabelY: 70 + 540 + 48, markerX: 650,
};
const COMPACT = {
  name: 'compact', width: 578, height: 642, left: 44, top: 52, step: 60,
  rowLabelX: 9, rankLabelX: 564, colLabelY: 16, fileLabelY: 52 + 540 + 38, markerX: null,
};
// The engine's names of the columns 0-8 (UCI files).
const FILES = 'abcdefghi';
// The roomy drawing is used when it can be at least this wide on the screen (px).
const WIDE_MIN_PX = 560;
// Coordinate labels are never smaller than this on the screen (px).
const LABEL_PX = 13;

const $ = (id) => document.getElementById(id);

// The person's choices (players, level, letters, ...), kept in the browser's storage
// between visits. Where the browser refuses storage (it throws: cookies blocked, some
// private windows), the page works the same and forgets them.
function remembered(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (e) {
    return null;
  }
}

function remember(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch (e) {
    // Not kept: the choice holds until the page is left.
  }
}

// What the page holds: the game (start, moves, resignation, the seed of the computer's
// choices), the server's answer about it, the selection, and the view.
const game = { start: START, moves: [], resigned: null, seed: newSeed(), state: null };
const ui = {
  selected: null, targets: [], flipped: false, letters: false, cjk: true, tab: 'game',
  paused: false, generation: 0, pending: 0, scheduled: false, geometry: WIDE,
  cursor: [0, 4], pointer: false, thinking: null, computerPlayers: DEFAULT_PLAYERS,
  // An earlier position of the game on the board (its number and its state), or null
  // for the game itself; a hint (the move and the position it is for).
  view: null, viewState: null, hint: null,
};
// positionOf[i]: the position after command i (the legal commands before it counted);
// commandOf[p]: the command that made position p.
const replay = { steps: [], index: 0, invalid: [], positionOf: [0], commandOf: [0] };

// The analysis of each tab's game: the game it is of, each position's analysis (the
// server's eval, best move and line) and each move's verdict, by position number.
const analysis = { game: newStore(), replay: newStore() };
// The thinking a request of the whole analysis asks for, about (ms): progress shows
// often, and a cancelled request ends soon.
const CHUNK_MS = 1200;

function newStore() {
  return {
    start: START, moves: [], positions: [], reviews: [], generation: 0,
    // cancel stops the loop; cancelled says so on the page (a person's cancel).
    running: false, cancel: false, cancelled: false, controller: null, error: '', live: null,
    failed: null,
  };
}

function newSeed() {
  return Math.floor(Math.random() * 1e9);
}

// ---- talking to the API: the server, or the page's own workers --------------------

// One request: the answer, or an Error with the server's reason (and its status).
async function send(path, body, asText, signal) {
  if ((await transport()) === 'browser') {
    return local.send(path, asText ? body : JSON.stringify(body), signal);
  }
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': asText ? 'text/plain; charset=utf-8' : 'application/json' },
    body: asText ? body : JSON.stringify(body),
    signal,
  });
  const type = response.headers.get('Content-Type') || '';
  const answer = type.startsWith('application/json') ? await response.json() : await response.text();
  if (!response.ok) {
    const error = new Error(answer && answer.error ? answer.error : `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return answer;
}

// A request the page waits for: the board takes no click meanwhile. The computer may
// be busy a moment with another page's search: its move is asked for again then.
async function api(path, body, asText, signal) {
  ui.pending++;
  document.body.dataset.busy = '1';
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send(path, body, asText, signal);
      } catch (e) {
        if (e.status !== 503 || path !== '/api/ai' || attempt >= 10 || (signal && signal.aborted)) throw e;
        await sleep(300);
      }
    }
  } finally {
    ui.pending--;
    if (ui.pending === 0) document.body.dataset.busy = '0';
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A request in the background (the analysis), which never holds up play: when the
// computer is busy (503) it asks again a little later, for up to half a minute.
async function background(path, body, signal) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(path, body, false, signal);
    } catch (e) {
      if (e.status !== 503 || attempt >= 60 || (signal && signal.aborted)) throw e;
      await sleep(500);
    }
  }
}

// ---- without a server: the same routes in the browser -------------------------------
// Served by `duckchess serve`, the page asks the server. Opened from plain static files
// (the site scripts/site.sh writes), nothing answers the API there: the same routes,
// built to WebAssembly from the same Rust code (duckchess.wasm), answer in Web Workers
// (worker.js). One worker a lane: the rules and the judge, the computer's moves, the
// analysis, so that no search holds up a click or another search. Each request has a
// deadline, its thinking time plus a grace as on the server; a worker that passes it,
// or whose request is cancelled (a new game, a cancelled analysis), is ended, and the
// next request starts another.
const local = { mode: null, module: null, lanes: {}, next: 1, send: localSend };
// The lane of each route (the others go to 'rules').
const LANES = { '/api/ai': 'moves', '/api/analyze': 'analysis' };
// Past its thinking time, how long a search may take to answer (ms): the server's
// grace (1 s), and a second more for the worker's start.
const LOCAL_GRACE_MS = 2000;
// How long a new worker may take to get the module (fetched and compiled), on top of
// its request's own deadline (ms).
const LOAD_MS = 30000;
// The thinking time a request names, clamped as the server clamps it (ms).
const THINK_MS = [10, 5000];
// The most thinking one analysis request does (the server's budget, ms).
const ANALYSIS_BUDGET_MS = 3000;
// The deadline of a request that does not search (ms): a whole replay takes far less.
const RULES_MS = 20000;

// Who answers the API, as api.json beside the page says: 'server' where `duckchess
// serve` serves the page (it answers api.json itself), 'browser' in the static site
// (whose api.json says so) and wherever the file cannot be read.
function transport() {
  if (!local.mode) {
    local.mode = (async () => {
      if (location.protocol === 'file:') {
        // Browsers start no worker and load no module for a page opened as a file.
        throw new Error('this page runs its engine in the browser, which browsers allow only ' +
          'for a page from a web server: serve its folder with any web server (for example ' +
          'python3 -m http.server in it) and open the address it gives, or run duckchess serve');
      }
      let mode = 'browser';
      try {
        const response = await fetch('api.json');
        if (response.ok && (await response.json()).api === 'server') mode = 'server';
      } catch (e) {
        // No answer: the page's own workers answer.
      }
      document.body.dataset.api = mode;
      return mode;
    })();
  }
  return local.mode;
}

// The compiled module, fetched and compiled once and handed to every worker.
function wasmModule() {
  if (!local.module) {
    local.module = (async () => {
      const response = await fetch('duckchess.wasm');
      if (!response.ok) throw new Error(`cannot load duckchess.wasm: ${response.status} ${response.statusText}`);
      const type = response.headers.get('Content-Type') || '';
      try {
        if (type.startsWith('application/wasm')) return await WebAssembly.compileStreaming(response);
        return await WebAssembly.compile(await response.arrayBuffer());
      } catch (e) {
        // Kept: the same browser will not compile it the next time either.
        const error = new Error('this browser cannot run the page\'s module (it needs WebAssembly ' +
          'with SIMD: Chrome 91, Firefox 89, Safari 16.4 or later): ' + e.message);
        error.lasting = true;
        throw error;
      }
    })();
    // A failed download may be tried again; a module this browser cannot compile not.
    local.module.catch((e) => { if (!e.lasting) local.module = null; });
  }
  return local.module;
}

// How long `path` may take in a worker (ms).
function deadline(path, text) {
  if (path === '/api/analyze') return ANALYSIS_BUDGET_MS + LOCAL_GRACE_MS;
  if (path !== '/api/ai') return RULES_MS;
  let think = 1000;
  try {
    const asked = JSON.parse(text).think;
    if (typeof asked === 'number') think = asked;
  } catch (e) {
    // The route answers a bad body itself.
  }
  return Math.min(THINK_MS[1], Math.max(THINK_MS[0], think)) + LOCAL_GRACE_MS;
}

function httpError(status, message) {
  const error = new Error(message);
  error.status = status;
  return error;
}

function abortError() {
  return new DOMException('the request was cancelled', 'AbortError');
}

// A request to the lane of `path`: its answer as the server's (JSON or text), or an
// Error with the reason and the status.
function localSend(path, text, signal) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) {
      reject(abortError());
      return;
    }
    const request = { id: local.next++, path, text, resolve, reject, signal, lane: LANES[path] || 'rules' };
    if (signal) signal.addEventListener('abort', () => cancelLocal(request, abortError()), { once: true });
    const l = laneOf(request.lane);
    l.queue.push(request);
    pump(l);
  });
}

function laneOf(name) {
  if (!local.lanes[name]) {
    local.lanes[name] = { name, worker: null, ready: null, current: null, timer: 0, queue: [] };
  }
  return local.lanes[name];
}

// Sends the lane's next request when it has none in flight, starting its worker first.
// The request's deadline runs from here: a module that never arrives fails it too.
function pump(l) {
  if (l.current || !l.queue.length) return;
  const request = l.queue.shift();
  l.current = request;
  let ms = deadline(request.path, request.text);
  if (!l.worker) {
    let worker;
    try {
      worker = new Worker('worker.js');
    } catch (e) {
      // No worker may start here (a page's policy, say): the request fails, and the
      // next one tries again.
      l.current = null;
      request.reject(httpError(500, `the page cannot start its worker: ${e.message}`));
      pump(l);
      return;
    }
    l.worker = worker;
    worker.onmessage = (e) => answered(l, worker, e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      failLane(l, worker, httpError(500, `the page's worker failed: ${e.message || 'it did not start'}`));
    };
    l.ready = wasmModule().then((module) => worker.postMessage({ module }));
    ms += LOAD_MS;
  }
  const worker = l.worker;
  l.timer = setTimeout(() => {
    // 504, not the server's 503: nothing here is busy with another page, so asking
    // again would only overrun again.
    failLane(l, worker, httpError(504, `the computer did not answer within ${ms} ms`));
  }, ms);
  l.ready.then(() => {
    if (l.current !== request || l.worker !== worker) return;
    worker.postMessage({ id: request.id, path: request.path, body: request.text });
  }, (e) => failLane(l, worker, httpError(500, e.message)));
}

function answered(l, worker, message) {
  const request = l.current;
  if (l.worker !== worker || !request || request.id !== message.id) return;
  clearTimeout(l.timer);
  l.current = null;
  let answer = message.body;
  if (message.type.startsWith('application/json')) {
    try {
      answer = JSON.parse(message.body);
    } catch (e) {
      answer = { error: `a broken answer: ${e.message}` };
    }
  }
  if (message.status >= 200 && message.status < 300) request.resolve(answer);
  else request.reject(httpError(message.status, answer && answer.error ? answer.error : `${message.status}`));
  pump(l);
}

// Ends the lane's worker (a search past its deadline, a failure): its request fails
// with `error`, the ones waiting go to a new worker.
function failLane(l, worker, error) {
  if (l.worker !== worker) return;
  worker.terminate();
  clearTimeout(l.timer);
  l.worker = null;
  const request = l.current;
  l.current = null;
  if (request) request.reject(error);
  pump(l);
}

// A request cancelled: dropped if it waits, its worker ended if it runs.
function cancelLocal(request, error) {
  const l = local.lanes[request.lane];
  if (!l) return;
  if (l.current === request) {
    failLane(l, l.worker, error);
  } else {
    const i = l.queue.indexOf(request);
    if (i >= 0) {
      l.queue.splice(i, 1);
      request.reject(error);
    }
  }
}

function gameBody(extra) {
  const body = { moves: game.moves };
  if (game.start !== START) body.start = game.start;
  return Object.assign(body, extra || {});
}

// ---- the address --------------------------------------------------------------------

function writeFragment() {
  const parts = [];
  if (game.moves.length) parts.push('moves=' + game.moves.map((m) => m.join('')).join('.'));
  if (game.start !== START) parts.push('start=' + encodeURIComponent(game.start));
  if (game.resigned) parts.push('resigned=' + game.resigned);
  // The seed rides along once there is a game to restore, so that a reload or a link
  // brings the same answers from a weakened computer.
  if (parts.length) parts.push('seed=' + game.seed);
  history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname);
}

function readFragment() {
  const found = { start: START, moves: [], resigned: null, seed: null };
  for (const part of location.hash.replace(/^#/, '').split('&')) {
    const [key, value] = part.split('=');
    if (key === 'moves' && value) {
      found.moves = value.split('.').map((m) => m.split('').map(Number));
    } else if (key === 'start' && value) {
      found.start = decodeURIComponent(value);
    } else if (key === 'resigned' && (value === 'red' || value === 'blue')) {
      found.resigned = value;
    } else if (key === 'seed' && /^\d{1,15}$/.test(value || '')) {
      found.seed = Number(value);
    }
  }
  return found;
}

// ---- fonts ----------------------------------------------------------------------------

// Whether this machine can draw every Chinese character the page uses. A character no
// font has is drawn as the "missing glyph" (a box, or nothing), the same picture as a
// code point that is no character at all; a real glyph differs from it.
function cjkDrawable() {
  let context;
  try {
    const canvas = document.createElement('canvas');
    canvas.width = 48;
    canvas.height = 48;
    context = canvas.getContext('2d', { willReadFrequently: true });
  } catch (e) {
    context = null;
  }
  if (!context) return true; // cannot tell: trust the fonts
  const family = getComputedStyle(document.documentElement).getPropertyValue('--cjk');
  const picture = (text) => {
    context.clearRect(0, 0, 48, 48);
    context.font = `40px ${family}`;
    context.fillStyle = '#000';
    context.textBaseline = 'middle';
    context.fillText(text, 4, 24);
    return context.getImageData(0, 0, 48, 48).data;
  };
  const missing = picture('\uFFFF');
  const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
  return [...ZH_GLYPHS].every((ch) => !same(picture(ch), missing));
}

// Letters when the person chose them, or, until they choose, when the machine has no
// font for the Chinese names; the note beside the box says which.
function applyLetters() {
  const chosen = remembered('duckchess.letters');
  ui.letters = chosen === '1' || (chosen !== '0' && !ui.cjk);
  $('letters').checked = ui.letters;
  document.body.classList.toggle('no-cjk', !ui.cjk);
  document.body.classList.toggle('letters-on', ui.letters);
  const note = $('font-note');
  note.hidden = ui.cjk;
  note.textContent = ui.letters
    ? '(no font for the Chinese names on this machine: letters shown)'
    : '(no font for the Chinese names on this machine: they may show as boxes)';
}

// ---- drawing ------------------------------------------------------------------------

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// The drawing that suits the window: the roomy one when it can be wide enough.
function pickGeometry() {
  const style = getComputedStyle(document.documentElement);
  const pad = parseFloat(style.getPropertyValue('--pad')) || 0;
  const under = parseFloat(style.getPropertyValue('--under')) || 0;
  const width = document.documentElement.clientWidth - 2 * pad;
  const height = window.innerHeight - under - 2 * pad;
  const wide = Math.min(width, height * WIDE.width / WIDE.height);
  return wide >= WIDE_MIN_PX ? WIDE : COMPACT;
}

function applyGeometry() {
  const g = pickGeometry();
  ui.geometry = g;
  document.documentElement.style.setProperty('--aspect', String(g.width / g.height));
  document.body.classList.toggle('compact', g === COMPACT);
  $('board').setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
}

// The point of square (x, y): row 9 at the top unless the board is flipped.
function point(x, y) {
  const g = ui.geometry;
  const col = ui.flipped ? 8 - y : y;
  const row = ui.flipped ? x : 9 - x;
  return [g.left + col * g.step, g.top + row * g.step];
}

function drawGrid(svg) {
  const g = ui.geometry;
  el('rect', { class: 'wood', x: 0, y: 0, width: g.width, height: g.height }, svg);
  const right = g.left + 8 * g.step, bottom = g.top + 9 * g.step;
  el('rect', { class: 'frame', x: g.left - 8, y: g.top - 8, width: 8 * g.step + 16, height: 9 * g.step + 16 }, svg);
  const grid = el('g', { class: 'grid' }, svg);
  for (let r = 0; r < 10; r++) {
    el('line', { x1: g.left, y1: g.top + r * g.step, x2: right, y2: g.top + r * g.step }, grid);
  }
  for (let c = 0; c < 9; c++) {
    const x = g.left + c * g.step;
    if (c === 0 || c === 8) {
      el('line', { x1: x, y1: g.top, x2: x, y2: bottom }, grid);
    } else {
      // The middle band between rows 4 and 5 has no inner lines, as on the toy.
      el('line', { x1: x, y1: g.top, x2: x, y2: g.top + 4 * g.step }, grid);
      el('line', { x1: x, y1: g.top + 5 * g.step, x2: x, y2: bottom }, grid);
    }
  }
  // Labels at least LABEL_PX on the screen, however small the board is drawn.
  const scale = (svg.clientWidth || g.width) / g.width;
  const size = Math.max(15, LABEL_PX / scale);
  const labels = el('g', { class: 'labels', 'aria-hidden': 'true', 'font-size': size.toFixed(1) }, svg);
  const label = (x, y, cls, text, title) => {
    const t = el('text', { x, y, class: cls }, labels);
    t.textContent = text;
    el('title', {}, t).textContent = title;
  };
  for (let x = 0; x < 10; x++) {
    const [, py] = point(x, 0);
    label(g.rowLabelX, py, 'row', x, `row ${x}, as the judge numbers it (xs or xt)`);
    label(g.rankLabelX, py, 'rank', x + 1, `rank ${x + 1}, as the engine names it (UCI)`);
  }
  for (let y = 0; y < 9; y++) {
    const [px] = point(0, y);
    label(px, g.colLabelY, 'col', y, `column ${y}, as the judge numbers it (ys or yt)`);
    label(px, g.fileLabelY, 'file', FILES[y], `file ${FILES[y]}, as the engine names it (UCI)`);
  }
}

function glyph(letter) {
  return ui.letters ? letter : CHINESE[letter.toUpperCase()];
}

function colorOf(letter) {
  return letter === letter.toUpperCase() ? 'red' : 'blue';
}

function nameOf(letter) {
  return `${colorOf(letter)} ${NAMES[letter.toUpperCase()]}`;
}

function brackets(parent, x, y, cls) {
  const [px, py] = point(x, y);
  const h = 27, a = 10;
  const d = [
    `M${px - h},${py - h + a}V${py - h}H${px - h + a}`,
    `M${px + h - a},${py - h}H${px + h}V${py - h + a}`,
    `M${px - h},${py + h - a}V${py + h}H${px - h + a}`,
    `M${px + h - a},${py + h}H${px + h}V${py + h - a}`,
  ].join('');
  el('path', { d, class: cls, 'data-x': x, 'data-y': y }, parent);
}

// What the board shows now: the game, or the current step of a replay.
function shown() {
  if (ui.tab === 'replay') {
    const step = replay.index > 0 ? replay.steps[replay.index - 1] : null;
    return {
      pieces: step ? step.pieces : startPieces(),
      last: step && step.legal ? step.move : null,
      checked: step ? step.checked : [],
      highlight: step ? step.highlight : [],
      tried: step && !step.legal ? step.move : null,
      side: null,
    };
  }
  const s = ui.view !== null && ui.viewState ? ui.viewState : game.state;
  return {
    pieces: s ? s.pieces : [],
    last: s ? s.last : null,
    checked: s ? s.checked : [],
    highlight: [],
    tried: null,
    side: s && !s.over && !game.resigned && ui.view === null ? s.side : null,
  };
}

let startCache = null;
function startPieces() {
  return startCache || [];
}

const same = (a, x, y) => a[0] === x && a[1] === y;

function draw() {
  const svg = $('board');
  svg.textContent = '';
  drawGrid(svg);
  const view = shown();
  const under = el('g', { class: 'under' }, svg);
  if (view.last) {
    for (const [x, y] of [view.last.slice(0, 2), view.last.slice(2)]) {
      const [px, py] = point(x, y);
      el('rect', { class: 'last', x: px - 29, y: py - 29, width: 58, height: 58, rx: 6, 'data-x': x, 'data-y': y }, under);
    }
  }
  for (const [x, y] of view.checked) {
    const [px, py] = point(x, y);
    el('circle', { class: 'checked', cx: px, cy: py, r: 29, 'data-x': x, 'data-y': y }, under);
  }
  const pieces = el('g', { class: 'pieces' + (ui.letters ? ' letters' : ''), 'aria-hidden': 'true' }, svg);
  for (const [x, y, letter] of view.pieces) {
    const [px, py] = point(x, y);
    // Red pieces are rings, blue ones filled discs: the side shows in the shape too,
    // not only in the colour.
    const g = el('g', { class: `piece ${colorOf(letter)}`, 'data-x': x, 'data-y': y, 'data-piece': letter }, pieces);
    el('circle', { class: 'disc', cx: px, cy: py, r: 24 }, g);
    const t = el('text', { x: px, y: py + (ui.letters ? 1 : 0) }, g);
    t.textContent = glyph(letter);
    el('title', {}, g).textContent = `${nameOf(letter)} (${x}, ${y})`;
  }
  const over = el('g', { class: 'over', 'aria-hidden': 'true' }, svg);
  for (const [x, y] of view.highlight) {
    const [px, py] = point(x, y);
    el('circle', { class: 'highlight', cx: px, cy: py, r: 27, 'data-x': x, 'data-y': y }, over);
  }
  if (view.tried) {
    for (const [x, y] of [view.tried.slice(0, 2), view.tried.slice(2)]) brackets(over, x, y, 'tried');
  }
  if (ui.tab === 'game') {
    if (ui.selected) brackets(over, ui.selected[0], ui.selected[1], 'selected');
    for (const [x, y] of ui.targets) brackets(over, x, y, 'target');
  }
  drawArrows(svg);
  drawSide(svg);
  // The keyboard's cursor: a dark square with a white one inside, seen on any piece.
  const keys = el('g', { class: 'keys', 'aria-hidden': 'true' }, svg);
  const [cx, cy] = point(ui.cursor[0], ui.cursor[1]);
  el('rect', { class: 'cursor', x: cx - 30, y: cy - 30, width: 60, height: 60, rx: 4 }, keys);
  el('rect', { class: 'cursor-inner', x: cx - 26.5, y: cy - 26.5, width: 53, height: 53, rx: 3 }, keys);
  const hits = el('g', { class: 'hits' }, svg);
  for (let x = 0; x < 10; x++) {
    for (let y = 0; y < 9; y++) {
      const [px, py] = point(x, y);
      const r = el('rect', {
        class: 'hit', id: `sq-${x}-${y}`, role: 'button', 'aria-label': squareLabel(x, y),
        x: px - 30, y: py - 30, width: 60, height: 60, 'data-x': x, 'data-y': y,
      }, hits);
      r.addEventListener('click', () => {
        ui.cursor = [x, y];
        clicked(x, y);
      });
    }
  }
  svg.setAttribute('aria-activedescendant', `sq-${ui.cursor[0]}-${ui.cursor[1]}`);
}

// The side marker, as the toy has it: 红 or 蓝 beside that side's home rows, 胜 beside
// the winner when the game is over; in letters mode the words. The compact drawing
// has no room beside the board: the marker goes under it, before the status.
function marker() {
  const s = game.state;
  if (ui.tab !== 'game' || !s) return null;
  if (s.over || game.resigned) {
    const color = s.winner || (game.resigned === 'red' ? 'blue' : 'red');
    return { color, text: ui.letters ? 'wins' : MARKS.wins };
  }
  return { color: s.side, text: ui.letters ? s.side : MARKS[s.side] };
}

function drawSide(svg) {
  const m = marker();
  const chip = $('turn-marker');
  chip.textContent = m ? m.text : '';
  chip.className = m ? `chip ${m.color}${ui.letters ? '' : ' zh'}` : 'chip';
  const g = ui.geometry;
  if (!m || g.markerX === null) return;
  const home = m.color === 'red' ? 1 : 8;
  const [, py] = point(home, 0);
  const t = el('text', {
    class: `marker ${m.color}${ui.letters ? ' word' : ''}`, id: 'side-marker',
    x: g.markerX, y: py, 'data-side': m.color, 'aria-hidden': 'true',
  }, svg);
  t.textContent = m.text;
}

// ---- words for a screen reader --------------------------------------------------------

// "2, 2", "2, 2 and 2, 0", "1, 0, 2, 2 and 2, 0".
function squares(list) {
  const names = list.map(([x, y]) => `${x}, ${y}`);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

// The legal targets of the piece on (x, y), from the server's list of legal moves.
function legalFrom(x, y) {
  const s = game.state;
  if (!s || !s.legal || game.resigned) return [];
  return s.legal.filter((m) => m[0] === x && m[1] === y).map((m) => [m[2], m[3]]);
}

// What a screen reader says of square (x, y): the piece and, when it may move now,
// its legal targets; the selection and the marks on the square.
function squareLabel(x, y) {
  const view = shown();
  const found = view.pieces.find((p) => p[0] === x && p[1] === y);
  let text = found ? `${nameOf(found[2])} on ${x}, ${y}` : `empty square ${x}, ${y}`;
  const s = game.state;
  if (ui.tab === 'game' && s && found && colorOf(found[2]) === s.side && playable() && ui.view === null) {
    const targets = legalFrom(x, y);
    text += targets.length ? `; legal targets ${squares(targets)}` : '; no legal move';
  }
  if (ui.tab === 'game' && ui.selected) {
    const [sx, sy] = ui.selected;
    if (sx === x && sy === y) {
      text += '; selected';
    } else if (ui.targets.some((t) => same(t, x, y))) {
      const mover = view.pieces.find((p) => p[0] === sx && p[1] === sy);
      const who = mover ? `the ${nameOf(mover[2])}` : 'the selected piece';
      text += found ? `; ${who} can take it` : `; ${who} can move here`;
    }
  }
  if (view.last && (same(view.last, x, y) || same(view.last.slice(2), x, y))) text += '; last move';
  if (view.checked.some((c) => same(c, x, y))) text += '; attacked';
  return text;
}

function announce(text) {
  $('announce').textContent = text;
}

// ---- the page -------------------------------------------------------------------------

function pieceName(letter) {
  return glyph(letter);
}

function render() {
  draw();
  $('under-game').hidden = ui.tab !== 'game';
  $('under-replay').hidden = ui.tab !== 'replay';
  renderEngine();
  if (ui.tab === 'replay') {
    const step = replay.index > 0 ? replay.steps[replay.index - 1] : null;
    let status = 'red to move';
    if (step && step.over) status = `game over: ${step.winner} wins`;
    else if (step) status = `${step.side} to move` + (step.check ? ' · check' : '');
    $('status').textContent = status;
    $('status').className = step && step.check ? 'check' : '';
    return;
  }
  const s = game.state;
  if (!s) return;
  const viewing = ui.view !== null;
  $('viewing').hidden = !viewing;
  if (viewing) {
    $('viewing-text').textContent = ui.view === 0
      ? `the start position (the game has ${plural(game.moves.length, 'move')})`
      : `the position after move ${ui.view} of ${game.moves.length}`;
  }
  let status;
  if (game.resigned) {
    status = `${game.resigned} resigns: ${game.resigned === 'red' ? 'blue' : 'red'} wins`;
  } else if (s.over) {
    status = `game over: ${s.winner} wins`;
  } else if (s.stuck) {
    status = `${s.side} to move has no legal move`;
  } else {
    status = `${s.side} to move` + (s.check ? ' · check' : '');
    if (player(s.side) === 'ai' && !ui.paused) status += ' · the computer is thinking…';
  }
  $('status').textContent = status;
  $('status').className = s.check ? 'check' : '';
  const list = $('moves');
  list.textContent = '';
  s.history.forEach((h, i) => {
    const li = document.createElement('li');
    li.dataset.index = i + 1;
    const cmd = document.createElement('code');
    cmd.className = 'cmd';
    cmd.textContent = h.move.join(' ');
    const line = document.createElement('code');
    line.className = 'line';
    line.textContent = h.line;
    const why = document.createElement('div');
    why.className = 'why';
    why.textContent = h.text;
    li.append(cmd, ' ', line);
    const review = analysis.game.reviews[i + 1];
    if (review && sameGame(analysis.game)) li.append(...verdictNodes(review));
    li.append(why);
    if (viewing && ui.view === i + 1) li.setAttribute('aria-current', 'step');
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
  for (const side of ['red', 'blue']) {
    const span = $('lost-' + side);
    span.textContent = '';
    for (const letter of s.lost[side]) {
      const piece = document.createElement('span');
      piece.className = 'lost-piece ' + side;
      piece.textContent = pieceName(letter);
      piece.title = nameOf(letter);
      span.appendChild(piece);
    }
  }
  $('undo').disabled = game.moves.length === 0 && !game.resigned;
  $('resign').disabled = s.over || !!game.resigned;
  $('ai-now').disabled = s.over || !!game.resigned || s.stuck;
  $('hint').disabled = s.over || !!game.resigned || s.stuck || viewing;
}

function say(text, isError) {
  $('message').textContent = text || '';
  $('message').className = isError ? 'error' : '';
}

// ---- the game -----------------------------------------------------------------------

function player(side) {
  return $('player-' + side).value;
}

// Who plays each side: 'red blue' as kept in storage ("human ai"), read back, or null.
function readPlayers(text) {
  const [red, blue] = (text || '').split(' ');
  const valid = (p) => p === 'human' || p === 'ai';
  return valid(red) && valid(blue) ? { red, blue } : null;
}

// Sets the menus, and the opponent's buttons from them: the computer when it plays a
// side, a person when both are people. The last set with the computer in it is what
// "the computer" brings back.
function setPlayers(players) {
  for (const side of ['red', 'blue']) $('player-' + side).value = players[side];
  const computer = players.red === 'ai' || players.blue === 'ai';
  $('opponent-ai').checked = computer;
  $('opponent-human').checked = !computer;
  if (computer) ui.computerPlayers = { red: players.red, blue: players.blue };
}

// The players changed: kept for the next visit, and the computer starts if it is to
// move, or stops thinking if it no longer plays the side to move.
function playersChosen() {
  setPlayers({ red: player('red'), blue: player('blue') });
  remember('duckchess.players', `${player('red')} ${player('blue')}`);
  ui.paused = false;
  const s = game.state;
  if (ui.thinking && s && player(s.side) !== 'ai') {
    ui.generation++;
    stopComputer();
  }
  render();
  maybeComputer();
}

function playable() {
  const s = game.state;
  return s && !s.over && !game.resigned;
}

async function load(start, moves, resigned) {
  const generation = ++ui.generation;
  stopComputer();
  const state = await api('/api/state', { start, moves });
  if (generation !== ui.generation) return;
  setGame(state, resigned);
}

function setGame(state, resigned) {
  game.start = state.start;
  game.moves = state.moves;
  game.resigned = resigned || null;
  game.state = state;
  ui.selected = null;
  ui.targets = [];
  ui.hint = null;
  ui.view = null;
  ui.viewState = null;
  follow(analysis.game, game.start, game.moves);
  writeFragment();
  render();
  maybeComputer();
}

async function clicked(x, y) {
  if (ui.tab !== 'game' || !playable() || ui.pending > 0 || ui.view !== null) return;
  if (player(game.state.side) === 'ai' && !ui.paused) return;
  try {
    if (ui.selected) {
      const [sx, sy] = ui.selected;
      if (sx === x && sy === y) {
        ui.selected = null;
        ui.targets = [];
        draw();
        announce('selection cancelled');
        return;
      }
      const own = game.state.pieces.some(([px, py, l]) => px === x && py === y && colorOf(l) === game.state.side);
      if (!own) {
        await play([sx, sy, x, y]);
        return;
      }
    }
    const generation = ui.generation;
    const answer = await api('/api/targets', gameBody({ from: [x, y] }));
    if (generation !== ui.generation) return;
    if (answer.reason) {
      ui.selected = null;
      ui.targets = [];
      say(answer.reason);
    } else {
      ui.selected = [x, y];
      ui.targets = answer.targets;
      say(answer.targets.length ? '' : 'this piece has no legal move');
    }
    draw();
    announce(answer.reason || squareLabel(x, y));
  } catch (e) {
    say(e.message, true);
  }
}

// Plays one command: the server answers with the judge's line and the new game.
async function play(move) {
  const generation = ui.generation;
  const answer = await api('/api/play', gameBody({ move }));
  if (generation !== ui.generation) return;
  ui.paused = false;
  if (answer.legal) {
    say('');
    setGame(answer.state, null);
    // The status line speaks for itself (it is a live region): say the move.
    announce(answer.text);
  } else {
    ui.selected = null;
    ui.targets = [];
    say(`${move.join(' ')}: ${answer.line}: ${answer.text.replace(/^invalid: /, '')}`);
    draw();
    announce($('message').textContent);
  }
}

function level() {
  return Number($('level').value);
}

// The computer's move in the game's position at the chosen level, or null (also when
// the search was stopped: the game changed meanwhile, which the caller sees).
async function askComputer() {
  const thinking = new AbortController();
  ui.thinking = thinking;
  try {
    const answer = await api('/api/ai', gameBody({
      think: Number($('think').value), level: level(), seed: game.seed,
    }), false, thinking.signal);
    return answer.move;
  } catch (e) {
    if (e.name === 'AbortError') return null;
    throw e;
  } finally {
    if (ui.thinking === thinking) ui.thinking = null;
  }
}

// A search no longer wanted (a new game, another loaded) is stopped: the server stops
// a search whose client went, and the page ends the worker of its own.
function stopComputer() {
  if (ui.thinking) ui.thinking.abort();
  ui.thinking = null;
}

async function computerMove() {
  const generation = ui.generation;
  render();
  const move = await askComputer();
  if (generation !== ui.generation) return;
  if (!move) {
    say('the computer has no move');
    return;
  }
  await play(move);
}

// Starts the computer when it is to move. A request still in flight (a stale answer
// after New game or Undo, say) is waited out first, so a new game the computer opens
// never stalls.
function maybeComputer() {
  if (ui.scheduled) return;
  ui.scheduled = true;
  const tick = () => {
    const s = game.state;
    if (!playable() || s.stuck || ui.paused || player(s.side) !== 'ai') {
      ui.scheduled = false;
      return;
    }
    if (ui.pending > 0) {
      setTimeout(tick, 100);
      return;
    }
    ui.scheduled = false;
    computerMove().catch((e) => say(e.message, true));
  };
  // Let the page draw the last move before the computer starts.
  setTimeout(tick, 50);
}

async function undo() {
  if (game.resigned) {
    await load(game.start, game.moves, null);
    return;
  }
  let moves = game.moves.slice(0, -1);
  // Against the computer, take back its reply too, so a person is to move again.
  const sideAfter = (n) => {
    const first = game.start.trim().endsWith(' b') ? 'blue' : 'red';
    const other = first === 'red' ? 'blue' : 'red';
    return n % 2 === 0 ? first : other;
  };
  if (moves.length > 0 && player(sideAfter(moves.length)) === 'ai' && player(sideAfter(moves.length - 1)) === 'human') {
    moves = moves.slice(0, -1);
  }
  ui.paused = player(sideAfter(moves.length)) === 'ai';
  await load(game.start, moves, null);
}

async function saveGame() {
  const text = await api('/api/save', gameBody());
  const blob = new Blob([text], { type: 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = 'duckchess-game.txt';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files && input.files[0];
    if (!file) return reject(new Error('no file chosen'));
    if (file.size > 256 * 1024) return reject(new Error(`${file.name} is larger than 256 KiB`));
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(new Error(`cannot read ${file.name}`));
    reader.readAsText(file);
  });
}

// ---- the keyboard ----------------------------------------------------------------------

// Arrow keys move the cursor as the board is seen (up is up, flipped or not), Enter or
// Space does what a click on the cursor's square does, Escape drops the selection.
function boardKey(e) {
  const steps = { ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const board = $('board');
  board.classList.add('kbd');
  if (e.key in steps) {
    e.preventDefault();
    let [dx, dy] = steps[e.key];
    if (ui.flipped) [dx, dy] = [-dx, -dy];
    const x = Math.max(0, Math.min(9, ui.cursor[0] + dx));
    const y = Math.max(0, Math.min(8, ui.cursor[1] + dy));
    ui.cursor = [x, y];
    draw();
    announce(squareLabel(x, y));
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    if (ui.tab === 'game') clicked(ui.cursor[0], ui.cursor[1]);
  } else if (e.key === 'Escape') {
    if (ui.selected) {
      e.preventDefault();
      ui.selected = null;
      ui.targets = [];
      draw();
      announce('selection cancelled');
    }
  }
}

function wireBoard() {
  const board = $('board');
  board.addEventListener('keydown', boardKey);
  board.addEventListener('pointerdown', () => {
    ui.pointer = true;
    board.classList.remove('kbd');
  });
  // Reached by Tab (not by a click): show the cursor and say where it is.
  board.addEventListener('focus', () => {
    if (!ui.pointer) {
      board.classList.add('kbd');
      announce(`${squareLabel(ui.cursor[0], ui.cursor[1])}. ${$('board-help').textContent.replace(/\s+/g, ' ').trim()}`);
    }
    ui.pointer = false;
  });
}

// ---- replaying a judge input ---------------------------------------------------------

async function runReplay() {
  const text = $('replay-text').value;
  const [answer, judged, checked] = await Promise.all([
    api('/api/replay', text, true), api('/api/judge', text, true), api('/api/validate', text, true),
  ]);
  // The judge's own run: its output byte for byte, what it says on standard error, and
  // the strict format check of `duckchess validate`.
  $('judge-output').textContent = judged.output;
  $('judge-stderr').textContent = judged.error ? `the judge stops: ${judged.error}`
    : judged.note ? `the judge notes: ${judged.note}` : '';
  const verdict = validateWords(checked, judged);
  $('validate-verdict').textContent = verdict.text;
  $('validate-verdict').className = verdict.className;
  replay.steps = answer.steps;
  replay.invalid = answer.invalid;
  replay.positionOf = [0];
  replay.commandOf = [0];
  const moves = [];
  answer.steps.forEach((step, i) => {
    if (step.legal) {
      moves.push(step.move);
      replay.commandOf.push(i + 1);
    }
    replay.positionOf.push(moves.length);
  });
  // A new input is a new game: its analysis starts again.
  follow(analysis.replay, START, moves, true);
  const problems = [answer.error, answer.note].filter(Boolean);
  $('replay-error').textContent = problems.join('; ');
  const list = $('replay-steps');
  list.textContent = '';
  answer.steps.forEach((step, i) => {
    const li = document.createElement('li');
    li.dataset.index = i + 1;
    li.className = step.legal ? 'legal' : 'invalid';
    li.textContent = `${(step.written || step.command).join(' ')} ⇒ ${step.line}`;
    li.title = step.text;
    li.dataset.position = replay.positionOf[i + 1];
    li.addEventListener('click', () => goTo(i + 1));
    list.appendChild(li);
  });
  const inv = $('replay-invalid');
  inv.textContent = answer.invalid.length ? '' : 'none';
  for (const n of answer.invalid) {
    const a = document.createElement('button');
    a.type = 'button';
    a.className = 'link';
    a.dataset.index = n;
    a.textContent = n;
    a.setAttribute('aria-label', `command ${n}`);
    a.addEventListener('click', () => goTo(n));
    inv.append(a, ' ');
  }
  goTo(0);
  // On a small screen the input was typed below the board: bring the board back, with
  // the step buttons and the current command under it.
  const table = $('table').getBoundingClientRect();
  if (table.top < 0) window.scrollBy(0, table.top);
}

// What the page says of `validate`'s verdict. An input the judge reads whole but the
// strict format refuses (the statement's own sample, which has no final newline) is
// no failure: a note says so; red is for an input the judge stops on.
function validateWords(checked, judged) {
  if (checked.ok) return { text: `validate: ok: ${plural(checked.commands, 'command')}`, className: '' };
  if (judged.error) return { text: `validate: ${checked.error}`, className: 'error' };
  return {
    text: 'note: the judge reads this input; only the strict format of official data, ' +
      `which validate checks, refuses it: ${checked.error}`,
    className: 'note',
  };
}

function goTo(n) {
  replay.index = Math.max(0, Math.min(replay.steps.length, n | 0));
  const step = replay.index > 0 ? replay.steps[replay.index - 1] : null;
  $('replay-pos').textContent = `command ${replay.index} of ${replay.steps.length}` +
    (replay.index === 0 ? ' (the start position)' : '');
  $('replay-command').textContent = step ? (step.written || step.command).join(' ') : '';
  $('replay-line').textContent = step ? step.line : '';
  $('replay-reason').textContent = step ? step.text : '';
  $('replay-current').className = step ? (step.legal ? 'legal' : 'invalid') : '';
  $('replay-goto').value = replay.index;
  markReplaySteps();
  for (const li of $('replay-steps').children) {
    const current = Number(li.dataset.index) === replay.index;
    li.classList.toggle('current', current);
    if (current) li.setAttribute('aria-current', 'step');
    else li.removeAttribute('aria-current');
  }
  // Scroll the list alone (scrollIntoView would scroll the page too).
  const list = $('replay-steps');
  const current = list.querySelector('.current');
  if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2;
  render();
}

function showTab(tab) {
  ui.tab = tab;
  for (const name of ['game', 'replay']) {
    const button = $('tab-' + name);
    button.classList.toggle('on', tab === name);
    button.setAttribute('aria-selected', String(tab === name));
    $('panel-' + name).hidden = tab !== name;
  }
  render();
}

// ---- the engine's view ------------------------------------------------------------------

function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

// The store of the tab on screen.
function store() {
  return analysis[ui.tab];
}

// Keeps a store on the game it is of: a game that goes on keeps the analysis of the
// moves it shares with the analysed one, anything else starts again.
function follow(st, start, moves, fresh) {
  let common = 0;
  if (!fresh && st.start === start) {
    while (common < st.moves.length && common < moves.length &&
           st.moves[common].join() === moves[common].join()) common++;
  }
  if (fresh || st.start !== start || common < st.moves.length) {
    st.generation++;
    st.positions.length = Math.min(st.positions.length, fresh || st.start !== start ? 0 : common + 1);
    st.reviews.length = Math.min(st.reviews.length, st.positions.length);
    if (fresh || st.start !== start) {
      // Another game altogether: an analysis under way ends, its words go.
      st.cancel = true;
      st.cancelled = false;
      st.error = '';
      if (st.controller) st.controller.abort();
    }
  }
  st.start = start;
  st.moves = moves.slice();
}

// Whether the game tab's store is of the game on the board (it always is, once follow
// has run; the check keeps a stale answer from being drawn).
function sameGame(st) {
  return st.start === game.start;
}

// The number of the position on the board.
function shownPosition() {
  if (ui.tab === 'replay') return replay.positionOf[replay.index] || 0;
  return ui.view !== null ? ui.view : game.moves.length;
}

// The first position the store has no analysis of.
function firstMissing(st) {
  for (let p = 0; p <= st.moves.length; p++) if (!st.positions[p]) return p;
  return st.moves.length + 1;
}

// Asks the server for positions from..from+count-1 of the store's game, and keeps what
// comes back (unless the game changed meanwhile). Returns the answer.
async function analyse(st, from, count, signal) {
  const generation = st.generation;
  const body = { moves: st.moves, from, count, movetime: Number($('analysis-time').value) };
  if (st.start !== START) body.start = st.start;
  if (from > 0 && st.positions[from - 1]) body.prior = st.positions[from - 1];
  const answer = await background('/api/analyze', body, signal);
  if (generation !== st.generation) return null;
  answer.positions.forEach((p, i) => { st.positions[from + i] = p; });
  // The page sends the moves themselves: a move's command is its number.
  for (const m of answer.moves) st.reviews[m.command] = m;
  return answer;
}

// The whole analysis of the tab's game, a few positions a request, with its progress;
// it goes on while the game grows, and stops when cancelled.
async function runAnalysis() {
  const tab = ui.tab;
  const st = analysis[tab];
  if (st.running) return;
  st.generation++;
  st.positions = [];
  st.reviews = [];
  st.running = true;
  st.cancel = false;
  st.cancelled = false;
  st.error = '';
  document.body.dataset.analysing = '1';
  renderAll();
  announce(`analysing ${plural(st.moves.length + 1, 'position')}`);
  try {
    while (!st.cancel) {
      const from = firstMissing(st);
      if (from > st.moves.length) break;
      st.controller = new AbortController();
      const count = Math.max(1, Math.min(4, Math.floor(CHUNK_MS / Number($('analysis-time').value))));
      await analyse(st, from, count, st.controller.signal).catch((e) => {
        if (e.name !== 'AbortError') throw e;
      });
      renderAll();
    }
  } catch (e) {
    st.error = e.message;
  } finally {
    st.running = false;
    st.controller = null;
    document.body.dataset.analysing = '0';
    renderAll();
  }
  if (!st.cancel && !st.error) announce(`analysis done. ${summaryText(st).join('. ')}`);
}

function cancelAnalysis() {
  const st = store();
  st.cancel = true;
  st.cancelled = true;
  if (st.controller) st.controller.abort();
  announce('analysis cancelled');
}

// Redraws everything that shows the analysis.
function renderAll() {
  render();
  markReplaySteps();
}

// "+0.22", "#+3" (red takes the captain within 3 plies), as `analyze` writes them.
function evalText(e) {
  if (!e) return '';
  if ('mate' in e) return `#${e.winner === 'red' ? '+' : '-'}${e.mate}`;
  const sign = e.cp < 0 ? '-' : '+';
  return sign + (Math.abs(e.cp) / 100).toFixed(2);
}

// The same in words, for the bar's caption and screen readers.
function evalWords(e) {
  if ('mate' in e) {
    return e.mate === 0 ? `${e.winner} has taken the captain`
      : `${e.winner} takes the captain within ${plural(e.mate, 'ply')}`;
  }
  if (Math.abs(e.cp) < 20) return 'equal';
  return `${e.cp > 0 ? 'red' : 'blue'} is ahead`;
}

// A score on the graph's and the bar's scale: -1000 to 1000 (10.00 either way, a forced
// capture of the captain at the ends).
function scale(e) {
  if ('mate' in e) return e.winner === 'red' ? 1000 : -1000;
  return Math.max(-1000, Math.min(1000, e.cp));
}

function moveText(m) {
  return m ? m.join(' ') : '';
}

const SYMBOLS = { inaccuracy: '?!', mistake: '?', blunder: '??', 'missed win': '×' };

// The verdict of a move in a move list: symbol and word, and the better move.
function verdictNodes(review) {
  const v = document.createElement('span');
  v.className = `verdict v-${review.verdict.replace(' ', '-')}`;
  const symbol = SYMBOLS[review.verdict];
  v.textContent = symbol ? `${symbol} ${review.verdict}` : review.verdict;
  const nodes = [' ', v];
  if (review.verdict !== 'best' && review.best) {
    const better = document.createElement('span');
    better.className = 'better';
    better.textContent = ` · better: ${review.best_piece || ''} ${moveText(review.best)}`;
    nodes.push(better);
  }
  return nodes;
}

function markReplaySteps() {
  const st = analysis.replay;
  for (const li of $('replay-steps').children) {
    for (const old of li.querySelectorAll('.verdict, .better')) old.remove();
    const i = Number(li.dataset.index);
    const step = replay.steps[i - 1];
    const review = step && step.legal ? st.reviews[replay.positionOf[i]] : null;
    if (review) li.append(...verdictNodes(review));
  }
}

// Per side: its moves, average loss and verdicts, from the server's verdicts.
function summaryText(st) {
  const out = [];
  for (const side of ['red', 'blue']) {
    const mine = st.reviews.filter((r) => r && r.side === side);
    if (!mine.length) continue;
    const loss = mine.reduce((sum, r) => sum + r.loss, 0) / mine.length;
    const counts = ['best', 'good', 'inaccuracy', 'mistake', 'blunder', 'missed win']
      .map((v) => [v, mine.filter((r) => r.verdict === v).length])
      .filter(([, n]) => n > 0)
      .map(([v, n]) => `${n} ${n === 1 || v === 'best' || v === 'good' ? v : v === 'inaccuracy' ? 'inaccuracies' : v + 's'}`);
    out.push(`${side}: ${plural(mine.length, 'move')}, average loss ${(loss / 100).toFixed(2)}: ${counts.join(', ')}`);
  }
  return out;
}

// The evaluation bar, the analysis panel and the graph; asks for the evaluation of the
// position on the board when the engine's view is on and it is not known yet.
// The evaluation bar takes room under the board: the board leaves it (see --under).
function applyEngineView() {
  document.documentElement.classList.toggle('engine-on', $('engine-view').checked);
}

function renderEngine() {
  const st = store();
  const p = shownPosition();
  const known = st.positions[p];
  const on = $('engine-view').checked;
  $('evalbar').hidden = !on;
  if (on) {
    if (known) {
      const share = 50 + 50 * Math.tanh(scale(known.eval) / 600);
      $('evalbar-red').style.width = `${share.toFixed(1)}%`;
      const mover = known.best && shown().pieces.find(([x, y]) => same(known.best, x, y));
      const best = known.best ? `; best: ${mover ? nameOf(mover[2]) + ' ' : ''}${moveText(known.best)}` : '';
      $('evalbar-text').textContent = `engine: ${evalText(known.eval)}, ${evalWords(known.eval)}${best}`;
    } else {
      $('evalbar-red').style.width = '50%';
      $('evalbar-text').textContent = 'engine: thinking…';
      liveEval(st, p);
    }
  }
  renderAnalysis(st, p);
}

// The evaluation of one position, for the bar and the arrows (one request at a time;
// when it comes back, the page asks for the position then on the board).
function liveEval(st, p) {
  const key = `${st.generation}:${p}`;
  if (st.running || st.live !== null || st.failed === key) return;
  st.live = p;
  analyse(st, p, 1).catch((e) => {
    // Not asked again for this position: the bar says why.
    st.failed = key;
    $('evalbar-text').textContent = `engine: ${e.message}`;
  }).finally(() => {
    st.live = null;
    if (store() === st && $('engine-view').checked && st.failed !== key) render();
  });
}

function renderAnalysis(st, p) {
  const total = st.moves.length + 1;
  const label = ui.tab === 'game' ? 'Analyse the game' : 'Analyse the input';
  $('analyse').textContent = label;
  $('analyse').disabled = st.running || (ui.tab === 'replay' && replay.steps.length === 0);
  $('analysis-cancel').hidden = !st.running;
  const done = st.positions.filter(Boolean).length;
  $('analysis-progress-row').hidden = !st.running;
  $('analysis-progress').max = total;
  $('analysis-progress').value = done;
  let status = '';
  if (st.running) status = `analysing: ${done} of ${plural(total, 'position')}`;
  else if (st.error) status = `the analysis stopped: ${st.error}`;
  else if (st.cancelled) status = `cancelled after ${done} of ${plural(total, 'position')}`;
  else if (ui.tab === 'game' && game.state && (game.state.over || game.resigned) && !st.reviews.some(Boolean)) {
    status = 'The game is over: analyse it to see where it turned.';
  }
  $('analysis-status').textContent = status;
  $('analysis-status').className = st.error ? 'note error' : 'note';
  const any = st.reviews.some(Boolean);
  $('graph-box').hidden = !any;
  if (!any) return;
  $('analysis-summary').textContent = summaryText(st).join(' · ');
  drawGraph(st, p);
  const rows = $('graph-rows');
  rows.textContent = '';
  st.reviews.forEach((r, k) => {
    if (!r) return;
    const tr = document.createElement('tr');
    const cells = [
      `${k}`, `${r.piece} ${moveText(r.move)}`, evalText(r.before), evalText(r.after),
      r.verdict, r.verdict === 'best' ? '' : `${r.best_piece || ''} ${moveText(r.best)}`,
    ];
    for (const text of cells) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    rows.appendChild(tr);
  });
}

// How much the graph draws, by the room a move has on it: a short game gets a point
// on every position and every verdict marked with its shape and symbol; a long one
// (under GRAPH_ROOMY units a move: past about 45 moves) a thinner line, no points,
// smaller marks on its mistakes, blunders and missed wins only (its inaccuracies stay
// in the move list and the table), and the symbols of its blunders and missed wins
// only, each where it does not crowd the one before.
const GRAPH_ROOMY = 12;
// The least room between two symbols on one side of the line (units): a short game's,
// a long one's.
const GRAPH_LABEL_GAP = [16, 30];

// What the graph marks at position k: the verdict of the move into it, or null.
function graphMark(st, k, roomy) {
  const r = st.reviews[k];
  if (!r || !SYMBOLS[r.verdict]) return null;
  if (!roomy && r.verdict === 'inaccuracy') return null;
  return r.verdict;
}

// Whether a mark gets its symbol beside it.
function graphLabelled(verdict, roomy) {
  return roomy || verdict === 'blunder' || verdict === 'missed win';
}

// The graph: the evaluation after each move (red ahead above the middle), the mistakes
// marked by shape and symbol, the position on the board as a vertical line.
function drawGraph(st, shownAt) {
  const svg = $('graph');
  svg.textContent = '';
  const total = st.moves.length + 1;
  const [left, right, top, bottom] = [40, 590, 14, 166];
  const mid = (top + bottom) / 2;
  const x = (k) => (total > 1 ? left + (right - left) * k / (total - 1) : (left + right) / 2);
  const y = (v) => mid - v / 1000 * (mid - top);
  const width = total > 1 ? (right - left) / (total - 1) : right - left;
  const roomy = width >= GRAPH_ROOMY;
  svg.classList.toggle('crowded', !roomy);
  $('graph-key-marks').textContent = roomy
    ? 'Marks: ?! inaccuracy, ▲ ? mistake, ◆ ?? blunder, ■ × missed win.'
    : 'Marks: ▲ mistake, ◆ ?? blunder, ■ × missed win (in a game this long the inaccuracies are in the list only).';
  el('rect', { class: 'graph-bg', x: 0, y: 0, width: 600, height: 190 }, svg);
  const labels = el('g', { 'aria-hidden': 'true' }, svg);
  for (const [v, text] of [[1000, '+10'], [0, '0'], [-1000, '−10']]) {
    el('text', { class: 'graph-label', x: 4, y: y(v) + 4 }, labels).textContent = text;
  }
  el('text', { class: 'graph-label', x: left, y: 184 }, labels).textContent = 'start';
  el('text', { class: 'graph-label', x: right, y: 184, 'text-anchor': 'end' }, labels)
    .textContent = `move ${total - 1}`;
  for (const v of [300, -300]) {
    el('line', { class: 'graph-horse', x1: left, x2: right, y1: y(v), y2: y(v) }, svg);
  }
  el('line', { class: 'graph-axis', x1: left, x2: right, y1: mid, y2: mid }, svg);
  const hits = el('g', {}, svg);
  for (let k = 0; k < total; k++) {
    el('rect', { class: 'graph-hit', x: x(k) - width / 2, y: 0, width, height: 190, 'data-index': k }, hits);
  }
  // The line, broken where a position is not analysed yet.
  let d = '';
  let drawing = false;
  for (let k = 0; k < total; k++) {
    const p = st.positions[k];
    if (!p) { drawing = false; continue; }
    d += `${drawing ? 'L' : 'M'}${x(k).toFixed(1)},${y(scale(p.eval)).toFixed(1)}`;
    drawing = true;
  }
  el('path', { class: 'graph-line', d }, svg);
  el('line', { class: 'graph-cursor', x1: x(shownAt), x2: x(shownAt), y1: top - 8, y2: bottom + 8 }, svg);
  const points = el('g', {}, svg);
  // Where the last symbol above and below the line was written (a long game's, on
  // either side: they would crowd each other across the line).
  const lastLabel = { above: -Infinity, below: -Infinity };
  for (let k = 0; k < total; k++) {
    const p = st.positions[k];
    if (!p) continue;
    const px = x(k), py = y(scale(p.eval));
    const verdict = graphMark(st, k, roomy);
    if (!verdict) {
      if (roomy) el('circle', { class: 'point', cx: px, cy: py, r: 3.5, 'data-index': k }, points);
      continue;
    }
    // A shape for each kind, and its symbol beside it: not told by colour alone. A
    // long game's are smaller, so that neighbours overlap less.
    const cls = `point mark v-${verdict.replace(' ', '-')}`;
    const u = roomy ? 1 : 0.6;
    if (verdict === 'inaccuracy') {
      el('circle', { class: cls, cx: px, cy: py, r: 5, 'data-index': k }, points);
    } else if (verdict === 'mistake') {
      el('polygon', { class: cls, points: `${px},${py - 7 * u} ${px + 7 * u},${py + 5 * u} ${px - 7 * u},${py + 5 * u}`, 'data-index': k }, points);
    } else if (verdict === 'blunder') {
      el('polygon', { class: cls, points: `${px},${py - 8 * u} ${px + 8 * u},${py} ${px},${py + 8 * u} ${px - 8 * u},${py}`, 'data-index': k }, points);
    } else {
      el('rect', { class: cls, x: px - 6 * u, y: py - 6 * u, width: 12 * u, height: 12 * u, 'data-index': k }, points);
    }
    if (!graphLabelled(verdict, roomy)) continue;
    const side = py > mid - 20 ? 'above' : 'below';
    const last = roomy ? lastLabel[side] : Math.max(lastLabel.above, lastLabel.below);
    if (px - last < GRAPH_LABEL_GAP[roomy ? 0 : 1]) continue;
    lastLabel[side] = px;
    el('text', {
      class: `mark-label v-${verdict.replace(' ', '-')}`, x: px, y: side === 'above' ? py - 12 : py + 20,
      'data-index': k, 'aria-hidden': 'true',
    }, points).textContent = SYMBOLS[verdict];
  }
  svg.setAttribute('aria-valuemax', String(total - 1));
  svg.setAttribute('aria-valuenow', String(shownAt));
  svg.setAttribute('aria-valuetext', graphWords(st, shownAt));
}

// What the graph says of position k, for a screen reader.
function graphWords(st, k) {
  const p = st.positions[k];
  const r = st.reviews[k];
  const where = k === 0 ? 'the start' : `after move ${k}` + (r ? `, ${r.piece} ${moveText(r.move)}` : '');
  if (!p) return `${where}: not analysed yet`;
  return `${where}: ${evalText(p.eval)}, ${evalWords(p.eval)}` + (r ? `; ${r.verdict}` : '');
}

// Shows position k of the tab's game: a replay steps there; the game shows an earlier
// position (asked for from the server) until "Back to the game".
async function goPosition(k) {
  const st = store();
  k = Math.max(0, Math.min(st.moves.length, k));
  if (ui.tab === 'replay') {
    goTo(replay.commandOf[k] || 0);
    return;
  }
  if (k === game.moves.length) {
    ui.view = null;
    ui.viewState = null;
    render();
    return;
  }
  const generation = ui.generation;
  const state = await api('/api/state', { start: game.start, moves: game.moves.slice(0, k) });
  if (generation !== ui.generation) return;
  ui.view = k;
  ui.viewState = state;
  ui.selected = null;
  ui.targets = [];
  render();
}

function graphKey(e) {
  const k = shownPosition();
  const steps = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageUp: 10, PageDown: -10 };
  let to = null;
  if (e.key in steps) to = k + steps[e.key];
  else if (e.key === 'Home') to = 0;
  else if (e.key === 'End') to = store().moves.length;
  if (to === null) return;
  e.preventDefault();
  goPosition(to).then(() => announce($('graph').getAttribute('aria-valuetext'))).catch((err) => say(err.message, true));
}

// An arrow for a move on the board: from the edge of the moving piece to the target,
// labelled where it starts (so that even a one-square move shows its number).
function arrow(parent, move, cls, label) {
  const [x1, y1] = point(move[0], move[1]);
  const [x2, y2] = point(move[2], move[3]);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const [sx, sy] = [x1 + ux * 20, y1 + uy * 20];
  const [ex, ey] = [x2 - ux * 8, y2 - uy * 8];
  const head = 16;
  const [bx, by] = [ex - ux * head, ey - uy * head];
  const g = el('g', { class: `arrow ${cls}`, 'data-move': move.join(' ') }, parent);
  el('line', { x1: sx, y1: sy, x2: bx, y2: by }, g);
  el('polygon', {
    points: `${ex},${ey} ${bx - uy * 10},${by + ux * 10} ${bx + uy * 10},${by - ux * 10}`,
  }, g);
  el('circle', { cx: sx, cy: sy, r: label.length > 1 ? 19 : 10 }, g);
  el('text', { x: sx, y: sy }, g).textContent = label;
}

// The engine's line (numbered, when its view is on) and a hint on the board.
function drawArrows(svg) {
  const arrows = el('g', { class: 'arrows', 'aria-hidden': 'true' }, svg);
  if ($('engine-view').checked) {
    const p = store().positions[shownPosition()];
    if (p) p.line.slice(0, 3).forEach((m, i) => arrow(arrows, m, i === 0 ? 'best' : 'next', String(i + 1)));
  }
  if (ui.tab === 'game' && ui.hint && ui.view === null && ui.hint.at === game.moves.length) {
    arrow(arrows, ui.hint.move, 'hint', 'hint');
  }
}

// The computer's move at the chosen level, drawn on the board and said, not played.
async function hint() {
  if (!playable() || ui.pending > 0 || ui.view !== null) return;
  const generation = ui.generation;
  const move = await askComputer();
  if (generation !== ui.generation) return;
  if (!move) {
    say('the computer has no move to suggest');
    return;
  }
  ui.hint = { move, at: game.moves.length };
  const piece = game.state.pieces.find(([x, y]) => same(move, x, y));
  const text = `hint: ${piece ? nameOf(piece[2]) + ' ' : ''}${moveText(move)} (the computer's move at level ${level()})`;
  say(text);
  draw();
  announce(text);
}

// ---- wiring ---------------------------------------------------------------------------

function guard(action) {
  return () => {
    say('');
    Promise.resolve().then(action).catch((e) => say(e.message, true));
  };
}

// The thinking time matters at full strength only: the weaker levels count nodes.
function showThink() {
  $('think-label').hidden = level() !== 8;
}

function wire() {
  $('new').addEventListener('click', guard(() => {
    ui.paused = false;
    game.seed = newSeed();
    return load(START, [], null);
  }));
  $('undo').addEventListener('click', guard(undo));
  $('resign').addEventListener('click', guard(() => {
    ui.generation++;
    stopComputer();
    game.resigned = game.state.side;
    writeFragment();
    render();
  }));
  $('ai-now').addEventListener('click', guard(() => {
    if (!playable() || ui.pending > 0) return null;
    ui.paused = false;
    return computerMove();
  }));
  $('hint').addEventListener('click', guard(hint));
  $('engine-view').addEventListener('change', () => {
    remember('duckchess.engine', $('engine-view').checked ? '1' : '0');
    applyEngineView();
    applyGeometry();
    render();
  });
  $('analyse').addEventListener('click', guard(runAnalysis));
  $('analysis-cancel').addEventListener('click', cancelAnalysis);
  $('analysis-time').addEventListener('change', () => {
    remember('duckchess.analysis-time', $('analysis-time').value);
  });
  $('view-live').addEventListener('click', guard(() => goPosition(game.moves.length)));
  $('graph').addEventListener('click', (e) => {
    const hit = e.target.closest('[data-index]');
    if (hit) goPosition(Number(hit.dataset.index)).catch((err) => say(err.message, true));
  });
  $('graph').addEventListener('keydown', graphKey);
  for (const side of ['red', 'blue']) {
    $('player-' + side).addEventListener('change', () => playersChosen());
  }
  for (const choice of ['ai', 'human']) {
    $('opponent-' + choice).addEventListener('change', () => {
      if (choice === 'human') setPlayers({ red: 'human', blue: 'human' });
      else setPlayers(ui.computerPlayers);
      playersChosen();
    });
  }
  $('level').addEventListener('change', () => {
    remember('duckchess.level', $('level').value);
    showThink();
  });
  $('flip').addEventListener('click', () => {
    ui.flipped = !ui.flipped;
    remember('duckchess.flipped', ui.flipped ? '1' : '');
    draw();
  });
  $('letters').addEventListener('change', () => {
    remember('duckchess.letters', $('letters').checked ? '1' : '0');
    applyLetters();
    render();
  });
  $('save').addEventListener('click', guard(saveGame));
  $('load').addEventListener('change', guard(async () => {
    const text = await readFile($('load'));
    $('load').value = '';
    ui.generation++;
    stopComputer();
    ui.paused = true;
    const state = await api('/api/load', text, true);
    setGame(state, null);
    say(`loaded: ${state.moves.length} moves`);
  }));
  $('tab-game').addEventListener('click', () => showTab('game'));
  $('tab-replay').addEventListener('click', () => showTab('replay'));
  $('replay-file').addEventListener('change', guard(async () => {
    $('replay-text').value = await readFile($('replay-file'));
    $('replay-file').value = '';
    return runReplay();
  }));
  $('replay-run').addEventListener('click', guard(runReplay));
  $('replay-first').addEventListener('click', () => goTo(0));
  $('replay-prev').addEventListener('click', () => goTo(replay.index - 1));
  $('replay-next').addEventListener('click', () => goTo(replay.index + 1));
  $('replay-last').addEventListener('click', () => goTo(replay.steps.length));
  $('replay-go').addEventListener('click', () => goTo(Number($('replay-goto').value)));
  $('replay-goto').addEventListener('keydown', (e) => { if (e.key === 'Enter') goTo(Number($('replay-goto').value)); });
  document.addEventListener('keydown', (e) => {
    const target = e.target;
    if (ui.tab !== 'replay' || target.tagName === 'TEXTAREA' || target.tagName === 'INPUT' ||
        target.tagName === 'SELECT' || target.id === 'board' || target.id === 'graph') return;
    if (e.key === 'ArrowLeft') goTo(replay.index - 1);
    if (e.key === 'ArrowRight') goTo(replay.index + 1);
  });
  window.addEventListener('hashchange', guard(() => {
    const f = readFragment();
    if (f.seed !== null) game.seed = f.seed;
    return load(f.start, f.moves, f.resigned);
  }));
  let resizing = 0;
  window.addEventListener('resize', () => {
    cancelAnimationFrame(resizing);
    resizing = requestAnimationFrame(() => {
      applyGeometry();
      draw();
    });
  });
  wireBoard();
}

async function main() {
  document.body.dataset.busy = '0';
  ui.flipped = remembered('duckchess.flipped') === '1';
  ui.cjk = cjkDrawable();
  applyLetters();
  setPlayers(readPlayers(remembered('duckchess.players')) || DEFAULT_PLAYERS);
  $('level').value = remembered('duckchess.level') || DEFAULT_LEVEL;
  if (!$('level').value) $('level').value = DEFAULT_LEVEL;
  $('engine-view').checked = remembered('duckchess.engine') === '1';
  applyEngineView();
  $('analysis-time').value = remembered('duckchess.analysis-time') || '300';
  if (!$('analysis-time').value) $('analysis-time').value = '300';
  document.body.dataset.analysing = '0';
  showThink();
  applyGeometry();
  wire();
  const fresh = await api('/api/state', {});
  startCache = fresh.pieces;
  const f = readFragment();
  if (f.seed !== null) game.seed = f.seed;
  try {
    await load(f.start, f.moves, f.resigned);
  } catch (e) {
    setGame(fresh, null);
    say(`the game in the address cannot be restored: ${e.message}`, true);
  }
  // The cursor starts on the captain of the side to move.
  const s = game.state;
  const captain = s && s.pieces.find(([, , l]) => l === (s.side === 'red' ? 'K' : 'k'));
  if (captain) {
    ui.cursor = [captain[0], captain[1]];
    draw();
  }
  document.body.dataset.ready = '1';
  // The moment the board is ready, for the browser's tools and the site's benchmark.
  performance.mark('duckchess-ready');
}

main().catch((e) => say(e.message, true));
