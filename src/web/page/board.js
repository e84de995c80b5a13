// The board: its two drawings (a roomy one like the contest's toy and a compact one for
// small screens), the rows and columns named on its edges, the pieces, the marks (the
// selection and its targets, the last move, an attacked captain, the replay's blocking
// square), the side marker, the arrows of the engine's line and of a hint, the words a
// screen reader says of each square, the keyboard's cursor, and whether this machine
// can draw the Chinese names at all.

import {
  $, el, ui, game, replay, same, colorOf, nameOf, glyph, announce, remembered, uciSquare,
  moveText, uciMove,
} from './shared.js';
import { clicked, playable } from './game.js';
import { store, shownPosition } from './analysis.js';

// Every Chinese character the page shows: all must be drawable, or letters are used.
const ZH_GLYPHS = '王士象马车鸭兵红蓝胜新降鸭棋';
// The side markers of the toy, and their words in letters mode.
const MARKS = { red: '红', blue: '蓝', wins: '胜' };

// The two drawings of the board (SVG units; 60 between lines). Both name the rows and
// columns on all four edges in one numbering, the judge's (`xs ys xt yt`): the rows 0-9
// on the left and the right, the columns 0-8 at the top and the bottom, so that a row
// reads the same from either side. UCI's names (files a-i, ranks 1-10) are in the
// labels' tooltips and the engine's line, not on the edges. The roomy drawing is the
// toy's, with the side marker on the right; the compact one keeps the labels in narrow
// gutters, and its side marker moves under the board.
const WIDE = {
  name: 'wide', width: 680, height: 700, left: 80, top: 70, step: 60,
  rowLeftX: 28, rowRightX: 610, colTopY: 24, colBottomY: 70 + 540 + 48, markerX: 650,
};
const COMPACT = {
  name: 'compact', width: 568, height: 642, left: 44, top: 52, step: 60,
  rowLeftX: 9, rowRightX: 559, colTopY: 16, colBottomY: 52 + 540 + 36, markerX: null,
};
// The roomy drawing is used when it can be at least this wide on the screen (px).
const WIDE_MIN_PX = 560;
// Coordinate labels are never smaller than this on the screen (px).
const LABEL_PX = 13;
// A piece's disc (its radius, and half its stroke: SVG units).
const PIECE_R = 24;
const PIECE_EDGE = PIECE_R + 1.25;
// The ring a hint draws around the piece it moves (radius, half its stroke).
const RING_R = 29;
const RING_EDGE = RING_R + 1.5;

// ---- fonts ----------------------------------------------------------------------------

// Whether this machine can draw every Chinese character the page uses. A character no
// font has is drawn as the "missing glyph" (a box, or nothing), the same picture as a
// code point that is no character at all; a real glyph differs from it.
export function cjkDrawable() {
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
  const alike = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
  return [...ZH_GLYPHS].every((ch) => !alike(picture(ch), missing));
}

// Letters when the person chose them, or, until they choose, when the machine has no
// font for the Chinese names; the note beside the box says which.
export function applyLetters() {
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

// ---- the drawing ----------------------------------------------------------------------

// The drawing that suits the window: the roomy one when it can be wide enough. The
// room is the page's less what the style keeps for the panel beside the board.
function pickGeometry() {
  const style = getComputedStyle(document.documentElement);
  const pad = parseFloat(style.getPropertyValue('--pad')) || 0;
  const under = parseFloat(style.getPropertyValue('--under')) || 0;
  const aside = parseFloat(style.getPropertyValue('--aside-min')) || 0;
  const width = document.documentElement.clientWidth - 2 * pad - (aside ? aside + pad : 0);
  const height = window.innerHeight - under - 2 * pad;
  const wide = Math.min(width, height * WIDE.width / WIDE.height);
  return wide >= WIDE_MIN_PX ? WIDE : COMPACT;
}

export function applyGeometry() {
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
    const title = `row ${x}, as the judge numbers it (xs or xt); rank ${x + 1} in UCI`;
    label(g.rowLeftX, py, 'row left', x, title);
    label(g.rowRightX, py, 'row right', x, title);
  }
  for (let y = 0; y < 9; y++) {
    const [px] = point(0, y);
    const title = `column ${y}, as the judge numbers it (ys or yt); file ${uciSquare(0, y)[0]} in UCI`;
    label(px, g.colTopY, 'col top', y, title);
    label(px, g.colBottomY, 'col bottom', y, title);
  }
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

// The pieces of the start position, as the API gave them, for the replay's first step.
let startPieces = [];
export function setStartPieces(pieces) {
  startPieces = pieces;
}

// What the board shows now: the game, or the current step of a replay.
export function shown() {
  if (ui.tab === 'replay') {
    const step = replay.index > 0 ? replay.steps[replay.index - 1] : null;
    return {
      pieces: step ? step.pieces : startPieces,
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

export function draw() {
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
    el('circle', { class: 'disc', cx: px, cy: py, r: PIECE_R }, g);
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

// ---- arrows: the engine's line and a hint ---------------------------------------------

// Where an arrow's label goes: the middle of a cell of the grid at a corner of the
// moving piece's square, a spot no piece can cover (the four pieces around it leave
// it 17 units clear), so that the label hides neither the piece nor its neighbours.
// The corner most square to the arrow is taken (beside its start, off its path; of
// two, the one behind it), inside the grid (clear of the edges' labels), and not one
// another label took.
function labelSpot(x, y, ux, uy, taken) {
  const g = ui.geometry;
  const [px, py] = point(x, y);
  let best = null;
  for (const [dx, dy] of [[1, -1], [-1, -1], [1, 1], [-1, 1]]) {
    const cx = px + dx * g.step / 2, cy = py + dy * g.step / 2;
    if (cx < g.left || cx > g.left + 8 * g.step || cy < g.top || cy > g.top + 9 * g.step) continue;
    const key = `${cx},${cy}`;
    const along = dx * ux + dy * uy;
    const cost = Math.abs(along) + (along > 0 ? 0.01 : 0) + (taken.has(key) ? 10 : 0);
    if (!best || cost < best.cost - 1e-9) best = { cx, cy, cost, key };
  }
  taken.add(best.key);
  return best;
}

// An arrow for a move on the board, from the rim of the moving piece (or of the ring a
// hint draws around it) to the target, and its label beside the piece: a number in a
// disc for the engine's line, the word in a tag for a hint. Nothing of it covers the
// moving piece.
function arrow(parent, move, cls, label, taken) {
  const [x1, y1] = point(move[0], move[1]);
  const [x2, y2] = point(move[2], move[3]);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const ring = cls === 'hint';
  // The shaft's round cap reaches half its width (at most 3.5) behind its start.
  const from = (ring ? RING_EDGE : PIECE_EDGE) + 5;
  const [sx, sy] = [x1 + ux * from, y1 + uy * from];
  const [ex, ey] = [x2 - ux * 8, y2 - uy * 8];
  const head = 16;
  const [bx, by] = [ex - ux * head, ey - uy * head];
  const g = el('g', { class: `arrow ${cls}`, 'data-move': moveText(move) }, parent);
  el('title', {}, g).textContent = `${ring ? 'hint' : `the engine's move ${label}`}: ${moveText(move)} (${uciMove(move)} in UCI)`;
  if (ring) el('circle', { class: 'ring', cx: x1, cy: y1, r: RING_R }, g);
  el('line', { x1: sx, y1: sy, x2: bx, y2: by }, g);
  el('polygon', {
    points: `${ex},${ey} ${bx - uy * 10},${by + ux * 10} ${bx + uy * 10},${by - ux * 10}`,
  }, g);
  const spot = labelSpot(move[0], move[1], ux, uy, taken);
  if (ring) {
    el('rect', { class: 'badge', x: spot.cx - 16, y: spot.cy - 8, width: 32, height: 16, rx: 8 }, g);
  } else {
    el('circle', { class: 'badge', cx: spot.cx, cy: spot.cy, r: 10 }, g);
  }
  el('text', { x: spot.cx, y: spot.cy, class: ring ? 'word' : '' }, g).textContent = label;
}

// The engine's line (numbered, when its view is on) and a hint on the board.
function drawArrows(svg) {
  const arrows = el('g', { class: 'arrows', 'aria-hidden': 'true' }, svg);
  const taken = new Set();
  if (ui.tab === 'game' && ui.hint && ui.view === null && ui.hint.at === game.moves.length) {
    arrow(arrows, ui.hint.move, 'hint', 'hint', taken);
  }
  if ($('engine-view').checked) {
    const p = store().positions[shownPosition()];
    if (p) p.line.slice(0, 3).forEach((m, i) => arrow(arrows, m, i === 0 ? 'best' : 'next', String(i + 1), taken));
  }
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
export function squareLabel(x, y) {
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

export function wireBoard() {
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
