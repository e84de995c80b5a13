// The game in the game tab: the start position and the moves, kept in the address after
// '#' so that a reload or a copied link restores it; who plays each side; a click that
// selects a piece or plays a move; the computer's moves and a hint at the chosen level;
// undo, resign, save and load; and the words about the game under the board and in the
// move list. Every verdict comes from the API.

import {
  $, START, ui, game, replay, analysis, remember, glyph, nameOf, colorOf, plural, moveText, same,
  say, announce,
} from './shared.js';
import { api } from './api.js';
import { draw, squareLabel } from './board.js';
import { follow, renderEngine, sameGame, verdictNodes } from './analysis.js';

// The level the computer plays at until the person picks another.
export const DEFAULT_LEVEL = '3';
// Who plays red and blue until the person picks otherwise: the visitor red, the
// computer blue, so that a first move gets an answer.
export const DEFAULT_PLAYERS = { red: 'human', blue: 'ai' };

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

export function readFragment() {
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

// ---- the page's words ---------------------------------------------------------------

// Draws the board and says what is on it: the side to move, the move list with each
// command, the judge's line and the verdicts of an analysis, the captured pieces.
export function render() {
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
      piece.textContent = glyph(letter);
      piece.title = nameOf(letter);
      span.appendChild(piece);
    }
  }
  $('undo').disabled = game.moves.length === 0 && !game.resigned;
  $('resign').disabled = s.over || !!game.resigned;
  $('ai-now').disabled = s.over || !!game.resigned || s.stuck;
  $('hint').disabled = s.over || !!game.resigned || s.stuck || viewing;
}

// ---- who plays ------------------------------------------------------------------------

export function player(side) {
  return $('player-' + side).value;
}

// Who plays each side: 'red blue' as kept in storage ("human ai"), read back, or null.
export function readPlayers(text) {
  const [red, blue] = (text || '').split(' ');
  const valid = (p) => p === 'human' || p === 'ai';
  return valid(red) && valid(blue) ? { red, blue } : null;
}

// Sets the menus, and the opponent's buttons from them: the computer when it plays a
// side, a person when both are people. The last set with the computer in it is what
// "the computer" brings back.
export function setPlayers(players) {
  for (const side of ['red', 'blue']) $('player-' + side).value = players[side];
  const computer = players.red === 'ai' || players.blue === 'ai';
  $('opponent-ai').checked = computer;
  $('opponent-human').checked = !computer;
  if (computer) ui.computerPlayers = { red: players.red, blue: players.blue };
}

// The players changed: kept for the next visit, and the computer starts if it is to
// move, or stops thinking if it no longer plays the side to move.
export function playersChosen() {
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

function level() {
  return Number($('level').value);
}

// The thinking time matters at full strength only: the weaker levels count nodes.
export function showThink() {
  $('think-label').hidden = level() !== 8;
}

// ---- playing ----------------------------------------------------------------------------

export function playable() {
  const s = game.state;
  return s && !s.over && !game.resigned;
}

export async function load(start, moves, resigned) {
  const generation = ++ui.generation;
  stopComputer();
  const state = await api('/api/state', { start, moves });
  if (generation !== ui.generation) return;
  setGame(state, resigned);
}

export function setGame(state, resigned) {
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

export async function clicked(x, y) {
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

export async function computerMove() {
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

export async function undo() {
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

export function resign() {
  ui.generation++;
  stopComputer();
  game.resigned = game.state.side;
  writeFragment();
  render();
}

// The computer's move at the chosen level, drawn on the board and said, not played.
export async function hint() {
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

// ---- files ------------------------------------------------------------------------------

export async function saveGame() {
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

// A saved game from the file picker: the computer waits, so that the person sees it.
export async function loadGame() {
  const text = await readFile($('load'));
  $('load').value = '';
  ui.generation++;
  stopComputer();
  ui.paused = true;
  const state = await api('/api/load', text, true);
  setGame(state, null);
  say(`loaded: ${state.moves.length} moves`);
}

export function readFile(input) {
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
