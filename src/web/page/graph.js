// The analysis graph: the evaluation after each move (red ahead above the middle line),
// the inaccuracies, mistakes, blunders and missed wins marked by shape and symbol, the
// position on the board as a vertical line, and the words a screen reader gets for it
// as a slider. It is drawn at the size its box has on the screen, one unit a pixel.

import { $, el, moveText } from './shared.js';
import { SYMBOLS, scale, evalText, evalWords } from './analysis.js';

// How much the graph draws, by the room a move has on it: a short game gets a point
// on every position and every verdict marked with its shape and symbol; a long one
// (under GRAPH_ROOMY pixels a move) a thinner line, no points, smaller marks on its
// mistakes, blunders and missed wins only (its inaccuracies stay in the move list and
// the table), and the symbols of its blunders and missed wins only, each where it does
// not crowd the one before.
const GRAPH_ROOMY = 12;
// The least room between two symbols on one side of the line (px): a short game's, a
// long one's.
const GRAPH_LABEL_GAP = [16, 30];
// The narrowest drawing (px): a narrower box shrinks it rather than crowd it further.
const GRAPH_MIN_WIDTH = 240;

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

// The graph of the store `st` (its moves, positions and reviews), with position
// `shownAt` marked. Its drawing is as wide as its box (one unit a pixel), so that its
// words keep their size and its line uses the whole panel, however wide.
export function drawGraph(st, shownAt) {
  const svg = $('graph');
  svg.textContent = '';
  const width = Math.max(GRAPH_MIN_WIDTH, Math.round(svg.clientWidth) || 600);
  const height = Math.round(Math.min(260, Math.max(170, width * 0.3)));
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const total = st.moves.length + 1;
  const [left, right, top, bottom] = [40, width - 10, 14, height - 24];
  const mid = (top + bottom) / 2;
  const x = (k) => (total > 1 ? left + (right - left) * k / (total - 1) : (left + right) / 2);
  const y = (v) => mid - v / 1000 * (mid - top);
  const step = total > 1 ? (right - left) / (total - 1) : right - left;
  const roomy = step >= GRAPH_ROOMY;
  svg.classList.toggle('crowded', !roomy);
  $('graph-key-marks').textContent = roomy
    ? 'Marks: ?! inaccuracy, ▲ ? mistake, ◆ ?? blunder, ■ × missed win.'
    : 'Marks: ▲ mistake, ◆ ?? blunder, ■ × missed win (in a game this long the inaccuracies are in the list only).';
  el('rect', { class: 'graph-bg', x: 0, y: 0, width, height }, svg);
  const labels = el('g', { 'aria-hidden': 'true' }, svg);
  for (const [v, text] of [[1000, '+10'], [0, '0'], [-1000, '−10']]) {
    el('text', { class: 'graph-label', x: 4, y: y(v) + 4 }, labels).textContent = text;
  }
  el('text', { class: 'graph-label', x: left, y: height - 6 }, labels).textContent = 'start';
  el('text', { class: 'graph-label', x: right, y: height - 6, 'text-anchor': 'end' }, labels)
    .textContent = `move ${total - 1}`;
  for (const v of [300, -300]) {
    el('line', { class: 'graph-horse', x1: left, x2: right, y1: y(v), y2: y(v) }, svg);
  }
  el('line', { class: 'graph-axis', x1: left, x2: right, y1: mid, y2: mid }, svg);
  const hits = el('g', {}, svg);
  for (let k = 0; k < total; k++) {
    el('rect', { class: 'graph-hit', x: x(k) - step / 2, y: 0, width: step, height, 'data-index': k }, hits);
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
