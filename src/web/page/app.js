// duckchess serve: the page. It decides no rule: every legal target, verdict, judge
// line, check and end of game comes from the server (/api/*), which runs the judge's
// own code. The game is the start position plus the list of moves; it lives in the
// address after '#', so a reload or a copied link restores it.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const START = 'rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r';
const CHINESE = { K: '王', G: '士', E: '象', H: '马', R: '车', D: '鸭', S: '兵' };
const NAMES = { K: 'captain', G: 'guard', E: 'elephant', H: 'horse', R: 'car', D: 'duck', S: 'soldier' };
// Board geometry (SVG units): spacing between lines and the top-left intersection.
const STEP = 60, LEFT = 80, TOP = 70;

const $ = (id) => document.getElementById(id);

// What the page holds: the game (start, moves, resignation), the server's answer about
// it, the selection, and the view.
const game = { start: START, moves: [], resigned: null, state: null };
const ui = {
  selected: null, targets: [], flipped: false, letters: false, tab: 'game',
  paused: false, generation: 0, pending: 0, scheduled: false,
};
const replay = { steps: [], index: 0, invalid: [] };

// ---- talking to the server -------------------------------------------------------

async function api(path, body, asText) {
  ui.pending++;
  document.body.dataset.busy = '1';
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': asText ? 'text/plain; charset=utf-8' : 'application/json' },
      body: asText ? body : JSON.stringify(body),
    });
    const type = response.headers.get('Content-Type') || '';
    const answer = type.startsWith('application/json') ? await response.json() : await response.text();
    if (!response.ok) {
      throw new Error(answer && answer.error ? answer.error : `${response.status} ${response.statusText}`);
    }
    return answer;
  } finally {
    ui.pending--;
    if (ui.pending === 0) document.body.dataset.busy = '0';
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
  history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname);
}

function readFragment() {
  const found = { start: START, moves: [], resigned: null };
  for (const part of location.hash.replace(/^#/, '').split('&')) {
    const [key, value] = part.split('=');
    if (key === 'moves' && value) {
      found.moves = value.split('.').map((m) => m.split('').map(Number));
    } else if (key === 'start' && value) {
      found.start = decodeURIComponent(value);
    } else if (key === 'resigned' && (value === 'red' || value === 'blue')) {
      found.resigned = value;
    }
  }
  return found;
}

// ---- drawing ------------------------------------------------------------------------

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// The point of square (x, y): row 9 at the top unless the board is flipped.
function point(x, y) {
  const col = ui.flipped ? 8 - y : y;
  const row = ui.flipped ? x : 9 - x;
  return [LEFT + col * STEP, TOP + row * STEP];
}

function drawGrid(svg) {
  el('rect', { class: 'wood', x: 0, y: 0, width: 640, height: 700 }, svg);
  const right = LEFT + 8 * STEP, bottom = TOP + 9 * STEP;
  el('rect', { class: 'frame', x: LEFT - 8, y: TOP - 8, width: 8 * STEP + 16, height: 9 * STEP + 16 }, svg);
  const grid = el('g', { class: 'grid' }, svg);
  for (let r = 0; r < 10; r++) {
    el('line', { x1: LEFT, y1: TOP + r * STEP, x2: right, y2: TOP + r * STEP }, grid);
  }
  for (let c = 0; c < 9; c++) {
    const x = LEFT + c * STEP;
    if (c === 0 || c === 8) {
      el('line', { x1: x, y1: TOP, x2: x, y2: bottom }, grid);
    } else {
      // The middle band between rows 4 and 5 has no inner lines, as on the toy.
      el('line', { x1: x, y1: TOP, x2: x, y2: TOP + 4 * STEP }, grid);
      el('line', { x1: x, y1: TOP + 5 * STEP, x2: x, y2: bottom }, grid);
    }
  }
  const labels = el('g', { class: 'labels' }, svg);
  for (let x = 0; x < 10; x++) {
    const [, py] = point(x, 0);
    el('text', { x: 28, y: py }, labels).textContent = x;
  }
  for (let y = 0; y < 9; y++) {
    const [px] = point(0, y);
    el('text', { x: px, y: 24 }, labels).textContent = y;
    el('text', { x: px, y: bottom + 48 }, labels).textContent = y;
  }
}

function glyph(letter) {
  const upper = letter.toUpperCase();
  return ui.letters ? letter : CHINESE[upper];
}

function colorOf(letter) {
  return letter === letter.toUpperCase() ? 'red' : 'blue';
}

function brackets(parent, x, y, cls) {
  const [px, py] = point(x, y);
  const h = 25, a = 10;
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
  const s = game.state;
  return {
    pieces: s ? s.pieces : [],
    last: s ? s.last : null,
    checked: s ? s.checked : [],
    highlight: [],
    tried: null,
    side: s && !s.over && !game.resigned ? s.side : null,
  };
}

let startCache = null;
function startPieces() {
  return startCache || [];
}

function draw() {
  const svg = $('board');
  svg.textContent = '';
  drawGrid(svg);
  const view = shown();
  const under = el('g', { class: 'under' }, svg);
  if (view.last) {
    for (const [x, y] of [view.last.slice(0, 2), view.last.slice(2)]) {
      const [px, py] = point(x, y);
      el('rect', { class: 'last', x: px - 27, y: py - 27, width: 54, height: 54, rx: 6, 'data-x': x, 'data-y': y }, under);
    }
  }
  for (const [x, y] of view.checked) {
    const [px, py] = point(x, y);
    el('circle', { class: 'checked', cx: px, cy: py, r: 29, 'data-x': x, 'data-y': y }, under);
  }
  const pieces = el('g', { class: 'pieces' + (ui.letters ? ' letters' : '') }, svg);
  const onLast = (x, y) => view.last && ((view.last[0] === x && view.last[1] === y) || (view.last[2] === x && view.last[3] === y));
  for (const [x, y, letter] of view.pieces) {
    const [px, py] = point(x, y);
    const g = el('g', { class: `piece ${colorOf(letter)}`, 'data-x': x, 'data-y': y, 'data-piece': letter }, pieces);
    // The disc hides the grid lines under the name; on the last move's square it takes
    // that square's colour.
    el('circle', { class: onLast(x, y) ? 'disc on-last' : 'disc', cx: px, cy: py, r: 24 }, g);
    const t = el('text', { x: px, y: py }, g);
    t.textContent = glyph(letter);
    el('title', {}, g).textContent = `${colorOf(letter)} ${NAMES[letter.toUpperCase()]} (${x}, ${y})`;
  }
  const over = el('g', { class: 'over' }, svg);
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
  drawSide(svg, view.side);
  const hits = el('g', { class: 'hits' }, svg);
  for (let x = 0; x < 10; x++) {
    for (let y = 0; y < 9; y++) {
      const [px, py] = point(x, y);
      const r = el('rect', { class: 'hit', x: px - 30, y: py - 30, width: 60, height: 60, 'data-x': x, 'data-y': y }, hits);
      r.addEventListener('click', () => clicked(x, y));
    }
  }
}

// The marker of the side to move, as the toy has it: 红 or 蓝 beside that side's home
// rows; 胜 beside the winner when the game is over.
function drawSide(svg, side) {
  const s = game.state;
  let color = side, text = side === 'red' ? '红' : '蓝';
  if (ui.tab === 'game' && s && (s.over || game.resigned)) {
    color = s.winner || (game.resigned === 'red' ? 'blue' : 'red');
    text = '胜';
  }
  if (!color || ui.tab !== 'game') return;
  const home = color === 'red' ? 0 : 9;
  const [, py] = point(home < 5 ? 1 : 8, 0);
  const t = el('text', { class: `marker ${color}`, id: 'side-marker', x: 605, y: py, 'data-side': color }, svg);
  t.textContent = text;
}

function pieceName(letter) {
  return glyph(letter);
}

function render() {
  draw();
  $('lost').hidden = ui.tab !== 'game';
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
    li.append(cmd, ' ', line, why);
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
      piece.title = `${side} ${NAMES[letter.toUpperCase()]}`;
      span.appendChild(piece);
    }
  }
  $('undo').disabled = game.moves.length === 0 && !game.resigned;
  $('resign').disabled = s.over || !!game.resigned;
  $('ai-now').disabled = s.over || !!game.resigned || s.stuck;
}

function say(text, isError) {
  $('message').textContent = text || '';
  $('message').className = isError ? 'error' : '';
}

// ---- the game -----------------------------------------------------------------------

function player(side) {
  return $('player-' + side).value;
}

function playable() {
  const s = game.state;
  return s && !s.over && !game.resigned;
}

async function load(start, moves, resigned) {
  const generation = ++ui.generation;
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
  writeFragment();
  render();
  maybeComputer();
}

async function clicked(x, y) {
  if (ui.tab !== 'game' || !playable() || ui.pending > 0) return;
  if (player(game.state.side) === 'ai' && !ui.paused) return;
  try {
    if (ui.selected) {
      const [sx, sy] = ui.selected;
      if (sx === x && sy === y) {
        ui.selected = null;
        ui.targets = [];
        draw();
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
  } else {
    ui.selected = null;
    ui.targets = [];
    say(`${move.join(' ')}: ${answer.line}: ${answer.text.replace(/^invalid: /, '')}`);
    draw();
  }
}

async function computerMove() {
  const generation = ui.generation;
  render();
  const answer = await api('/api/ai', gameBody({ think: Number($('think').value) }));
  if (generation !== ui.generation) return;
  if (!answer.move) {
    say('the computer has no move');
    return;
  }
  await play(answer.move);
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

// ---- replaying a judge input ---------------------------------------------------------

async function runReplay() {
  const answer = await api('/api/replay', $('replay-text').value, true);
  replay.steps = answer.steps;
  replay.invalid = answer.invalid;
  const problems = [answer.error, answer.note].filter(Boolean);
  $('replay-error').textContent = problems.join('; ');
  const list = $('replay-steps');
  list.textContent = '';
  answer.steps.forEach((step, i) => {
    const li = document.createElement('li');
    li.dataset.index = i + 1;
    li.className = step.legal ? 'legal' : 'invalid';
    li.textContent = `${step.command.join(' ')} ⇒ ${step.line}`;
    li.title = step.text;
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
    a.addEventListener('click', () => goTo(n));
    inv.append(a, ' ');
  }
  goTo(0);
}

function goTo(n) {
  replay.index = Math.max(0, Math.min(replay.steps.length, n | 0));
  const step = replay.index > 0 ? replay.steps[replay.index - 1] : null;
  $('replay-pos').textContent = `command ${replay.index} of ${replay.steps.length}` +
    (replay.index === 0 ? ' (the start position)' : '');
  $('replay-command').textContent = step ? step.command.join(' ') : '';
  $('replay-line').textContent = step ? step.line : '';
  $('replay-reason').textContent = step ? step.text : '';
  $('replay-current').className = step ? (step.legal ? 'legal' : 'invalid') : '';
  $('replay-goto').value = replay.index;
  for (const li of $('replay-steps').children) {
    li.classList.toggle('current', Number(li.dataset.index) === replay.index);
  }
  // Scroll the list alone (scrollIntoView would scroll the page too).
  const list = $('replay-steps');
  const current = list.querySelector('.current');
  if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2;
  render();
}

function showTab(tab) {
  ui.tab = tab;
  $('tab-game').classList.toggle('on', tab === 'game');
  $('tab-replay').classList.toggle('on', tab === 'replay');
  $('panel-game').hidden = tab !== 'game';
  $('panel-replay').hidden = tab !== 'replay';
  render();
}

// ---- wiring ---------------------------------------------------------------------------

function guard(action) {
  return () => {
    say('');
    Promise.resolve().then(action).catch((e) => say(e.message, true));
  };
}

function wire() {
  $('new').addEventListener('click', guard(() => { ui.paused = false; return load(START, [], null); }));
  $('undo').addEventListener('click', guard(undo));
  $('resign').addEventListener('click', guard(() => {
    ui.generation++;
    game.resigned = game.state.side;
    writeFragment();
    render();
  }));
  $('ai-now').addEventListener('click', guard(() => {
    if (!playable() || ui.pending > 0) return null;
    ui.paused = false;
    return computerMove();
  }));
  for (const side of ['red', 'blue']) {
    $('player-' + side).addEventListener('change', () => { ui.paused = false; render(); maybeComputer(); });
  }
  $('flip').addEventListener('click', () => {
    ui.flipped = !ui.flipped;
    localStorage.setItem('duckchess.flipped', ui.flipped ? '1' : '');
    draw();
  });
  $('letters').addEventListener('change', () => {
    ui.letters = $('letters').checked;
    localStorage.setItem('duckchess.letters', ui.letters ? '1' : '');
    render();
  });
  $('save').addEventListener('click', guard(saveGame));
  $('load').addEventListener('change', guard(async () => {
    const text = await readFile($('load'));
    $('load').value = '';
    ui.generation++;
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
    if (ui.tab !== 'replay' || e.target.tagName === 'TEXTAREA' || e.target.tagName === 'INPUT') return;
    if (e.key === 'ArrowLeft') goTo(replay.index - 1);
    if (e.key === 'ArrowRight') goTo(replay.index + 1);
  });
  window.addEventListener('hashchange', guard(() => {
    const f = readFragment();
    return load(f.start, f.moves, f.resigned);
  }));
}

async function main() {
  document.body.dataset.busy = '0';
  ui.flipped = localStorage.getItem('duckchess.flipped') === '1';
  ui.letters = localStorage.getItem('duckchess.letters') === '1';
  $('letters').checked = ui.letters;
  wire();
  const fresh = await api('/api/state', {});
  startCache = fresh.pieces;
  const f = readFragment();
  try {
    await load(f.start, f.moves, f.resigned);
  } catch (e) {
    setGame(fresh, null);
    say(`the game in the address cannot be restored: ${e.message}`, true);
  }
  document.body.dataset.ready = '1';
}

main().catch((e) => say(e.message, true));
