// What every part of the page shares: the game's constants and the pieces' names, the
// page's state (the game, the view, the replay, the analyses), the person's choices kept
// in the browser's storage, and small helpers for the DOM and for words. It imports
// nothing, so that any module may import it.

const SVG = 'http://www.w3.org/2000/svg';
export const START = 'rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r';
const CHINESE = { K: '王', G: '士', E: '象', H: '马', R: '车', D: '鸭', S: '兵' };
const NAMES = { K: 'captain', G: 'guard', E: 'elephant', H: 'horse', R: 'car', D: 'duck', S: 'soldier' };
// The engine's names of the columns 0-8 (UCI's files; its ranks are the rows plus one).
const FILES = 'abcdefghi';

export const $ = (id) => document.getElementById(id);

// The person's choices (players, level, letters, ...), kept in the browser's storage
// between visits. Where the browser refuses storage (it throws: cookies blocked, some
// private windows), the page works the same and forgets them.
export function remembered(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (e) {
    return null;
  }
}

export function remember(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch (e) {
    // Not kept: the choice holds until the page is left.
  }
}

export function newSeed() {
  return Math.floor(Math.random() * 1e9);
}

// The analysis of one tab's game: the game it is of, each position's analysis (the
// server's eval, best move and line) and each move's verdict, by position number.
function newStore() {
  return {
    start: START, moves: [], positions: [], reviews: [], generation: 0,
    // cancel stops the loop; cancelled says so on the page (a person's cancel).
    running: false, cancel: false, cancelled: false, controller: null, error: '', live: null,
    failed: null,
  };
}

// What the page holds: the game (start, moves, resignation, the seed of the computer's
// choices), the server's answer about it, the selection, and the view.
export const game = { start: START, moves: [], resigned: null, seed: newSeed(), state: null };
export const ui = {
  selected: null, targets: [], flipped: false, letters: false, cjk: true, tab: 'game',
  paused: false, generation: 0, pending: 0, scheduled: false, geometry: null,
  cursor: [0, 4], pointer: false, thinking: null, computerPlayers: null,
  // An earlier position of the game on the board (its number and its state), or null
  // for the game itself; a hint (the move and the position it is for).
  view: null, viewState: null, hint: null,
};
// positionOf[i]: the position after command i (the legal commands before it counted);
// commandOf[p]: the command that made position p.
export const replay = { steps: [], index: 0, invalid: [], positionOf: [0], commandOf: [0] };
// The analyses of the two tabs' games.
export const analysis = { game: newStore(), replay: newStore() };

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export const same = (a, x, y) => a[0] === x && a[1] === y;

export function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

// A move as the judge writes it: "0 1 2 2".
export function moveText(m) {
  return m ? m.join(' ') : '';
}

// A square, and a move, as UCI and `duckchess play` name them: (0, 1) is "b1", the
// move 0 1 2 2 "b1c3". The board's edges use the judge's numbers only; these names
// are for the places that speak to UCI users (the engine's line, the tooltips).
export function uciSquare(x, y) {
  return `${FILES[y]}${x + 1}`;
}

export function uciMove(m) {
  return m ? uciSquare(m[0], m[1]) + uciSquare(m[2], m[3]) : '';
}

export function colorOf(letter) {
  return letter === letter.toUpperCase() ? 'red' : 'blue';
}

export function nameOf(letter) {
  return `${colorOf(letter)} ${NAMES[letter.toUpperCase()]}`;
}

// A piece as the board writes it: its Chinese name, or its letter.
export function glyph(letter) {
  return ui.letters ? letter : CHINESE[letter.toUpperCase()];
}

export function say(text, isError) {
  $('message').textContent = text || '';
  $('message').className = isError ? 'error' : '';
}

// Words for a screen reader (a live region).
export function announce(text) {
  $('announce').textContent = text;
}
