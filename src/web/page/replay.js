// The replay tab: a judge input, pasted or opened, stepped through command by command
// (each with the judge's line and the reason for its verdict), its invalid commands as
// links, the judge's own output byte for byte with what it says on standard error, and
// `validate`'s verdict on the strict format.

import { $, START, replay, analysis, plural } from './shared.js';
import { api } from './api.js';
import { render } from './game.js';
import { follow, verdictNodes } from './analysis.js';

export async function runReplay() {
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

// Steps the replay to command n (0, the start position, to the last).
export function goTo(n) {
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

// The analysis's verdicts on the replay's commands, in the list of all commands.
export function markReplaySteps() {
  const st = analysis.replay;
  for (const li of $('replay-steps').children) {
    for (const old of li.querySelectorAll('.verdict, .better')) old.remove();
    const i = Number(li.dataset.index);
    const step = replay.steps[i - 1];
    const review = step && step.legal ? st.reviews[replay.positionOf[i]] : null;
    if (review) li.append(...verdictNodes(review));
  }
}
