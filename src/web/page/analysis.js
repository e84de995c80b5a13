// The engine's view of a game or a replay: the analysis of every position, asked for a
// few positions at a time (/api/analyze) so that its progress shows and a cancel is
// simply not asking again; the evaluation bar and its words; the verdicts in the move
// lists and the summary per side; a look at an earlier position from the graph. The
// verdicts are the API's; the graph itself is drawn by graph.js.

import {
  $, START, ui, game, replay, analysis, same, plural, moveText, uciMove, nameOf, say, announce,
} from './shared.js';
import { api, background } from './api.js';
import { shown } from './board.js';
import { render } from './game.js';
import { goTo, markReplaySteps } from './replay.js';
import { drawGraph } from './graph.js';

// The thinking a request of the whole analysis asks for, about (ms): progress shows
// often, and a cancelled request ends soon.
const CHUNK_MS = 1200;

// The store of the tab on screen.
export function store() {
  return analysis[ui.tab];
}

// Keeps a store on the game it is of: a game that goes on keeps the analysis of the
// moves it shares with the analysed one, anything else starts again.
export function follow(st, start, moves, fresh) {
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
export function sameGame(st) {
  return st.start === game.start;
}

// The number of the position on the board.
export function shownPosition() {
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
export async function runAnalysis() {
  const st = analysis[ui.tab];
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

export function cancelAnalysis() {
  const st = store();
  st.cancel = true;
  st.cancelled = true;
  if (st.controller) st.controller.abort();
  announce('analysis cancelled');
}

// Redraws everything that shows the analysis.
export function renderAll() {
  render();
  markReplaySteps();
}

// ---- words ----------------------------------------------------------------------------

// "+0.22", "#+3" (red takes the captain within 3 plies), as `analyze` writes them.
export function evalText(e) {
  if (!e) return '';
  if ('mate' in e) return `#${e.winner === 'red' ? '+' : '-'}${e.mate}`;
  const sign = e.cp < 0 ? '-' : '+';
  return sign + (Math.abs(e.cp) / 100).toFixed(2);
}

// The same in words, for the bar's caption and screen readers.
export function evalWords(e) {
  if ('mate' in e) {
    return e.mate === 0 ? `${e.winner} has taken the captain`
      : `${e.winner} takes the captain within ${plural(e.mate, 'ply')}`;
  }
  if (Math.abs(e.cp) < 20) return 'equal';
  return `${e.cp > 0 ? 'red' : 'blue'} is ahead`;
}

// A score on the graph's and the bar's scale: -1000 to 1000 (10.00 either way, a forced
// capture of the captain at the ends).
export function scale(e) {
  if ('mate' in e) return e.winner === 'red' ? 1000 : -1000;
  return Math.max(-1000, Math.min(1000, e.cp));
}

export const SYMBOLS = { inaccuracy: '?!', mistake: '?', blunder: '??', 'missed win': '×' };

// The verdict of a move in a move list: symbol and word, and the better move.
export function verdictNodes(review) {
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

// ---- the evaluation bar and the analysis panel -----------------------------------------

// The evaluation bar takes room under the board: the board leaves it (see --under).
export function applyEngineView() {
  document.documentElement.classList.toggle('engine-on', $('engine-view').checked);
}

// The evaluation bar, the analysis panel and the graph; asks for the evaluation of the
// position on the board when the engine's view is on and it is not known yet. The
// bar names the best move as the judge writes it and, for a UCI program, as UCI does.
export function renderEngine() {
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
      const best = known.best
        ? `; best: ${mover ? nameOf(mover[2]) + ' ' : ''}${moveText(known.best)} (${uciMove(known.best)} in UCI)`
        : '';
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

// The graph follows its box: when the panel's width changes (the window, a scroll bar
// that comes or goes), it is drawn again at the new width, a frame later, so that the
// drawing never feeds back into the size it follows within one layout.
export function watchGraph() {
  let frame = 0;
  const observer = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      const svg = $('graph');
      const drawn = svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
      if (!$('graph-box').hidden && Math.abs(Math.round(svg.clientWidth) - drawn) >= 1) {
        drawGraph(store(), shownPosition());
      }
    });
  });
  observer.observe($('graph'));
}

// ---- looking at a position ---------------------------------------------------------------

// Shows position k of the tab's game: a replay steps there; the game shows an earlier
// position (asked for from the server) until "Back to the game".
export async function goPosition(k) {
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

// The graph as a slider: the arrow keys, Page Up and Down, Home and End.
export function graphKey(e) {
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
