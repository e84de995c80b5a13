// duckchess serve: the page's entry. It decides no rule: every legal target, verdict,
// judge line, check and end of game comes from the API (api.js), which runs the judge's
// own code, on the server or in the page's workers. Here the controls are wired to the
// modules that do the work, the tabs switch, and the page starts: the person's
// remembered choices, then the game in the address.
//
// The modules, by job: shared.js (the state and small helpers), api.js (the server or
// the workers), board.js (the board, its marks and arrows, the keyboard, the fonts),
// game.js (the game, who plays, the computer), replay.js (a judge input stepped
// through), analysis.js (the engine's view and the analysis) and graph.js (its graph).

import { $, START, ui, game, replay, newSeed, remember, remembered, say } from './shared.js';
import { api, local, wasmModule } from './api.js';
import { applyGeometry, applyLetters, cjkDrawable, draw, setStartPieces, wireBoard } from './board.js';
import {
  DEFAULT_LEVEL, DEFAULT_PLAYERS, computerMove, hint, load, loadGame, playable,
  playersChosen, readFile, readFragment, readPlayers, render, resign, saveGame, setGame,
  setPlayers, showThink, undo,
} from './game.js';
import { goTo, runReplay } from './replay.js';
import {
  applyEngineView, cancelAnalysis, evalWords, goPosition, graphKey, renderAll, runAnalysis,
  watchGraph,
} from './analysis.js';
import { drawGraph } from './graph.js';

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

// An action of a control: its failure is said on the page, never lost.
function guard(action) {
  return () => {
    say('');
    Promise.resolve().then(action).catch((e) => say(e.message, true));
  };
}

function wire() {
  $('new').addEventListener('click', guard(() => {
    ui.paused = false;
    game.seed = newSeed();
    return load(START, [], null);
  }));
  $('undo').addEventListener('click', guard(undo));
  $('resign').addEventListener('click', guard(resign));
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
      else setPlayers(ui.computerPlayers || DEFAULT_PLAYERS);
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
  $('load').addEventListener('change', guard(loadGame));
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
  watchGraph();
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
  setStartPieces(fresh.pieces);
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

// A handle on the page's state and a few of its functions, for the browser's developer
// tools and for the tests, which drive the page through WebDriver and cannot reach into
// a module otherwise. The page itself never uses it.
window.duckchess = { ui, game, local, wasmModule, renderAll, drawGraph, evalWords };

main().catch((e) => say(e.message, true));
