// Talking to the API (/api/*), which decides every rule: the server where `duckchess
// serve` serves the page, or, in the static site, the same routes built to WebAssembly
// (duckchess.wasm) and run in the page's own Web Workers (worker.js), one worker a
// lane so that no search holds up a click or another search. Requests the page waits
// for, background requests (the analysis), and the workers' lanes with their
// deadlines live here.

import { ui, sleep } from './shared.js';

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
export async function api(path, body, asText, signal) {
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

// A request in the background (the analysis), which never holds up play: when the
// computer is busy (503) it asks again a little later, for up to half a minute.
export async function background(path, body, signal) {
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
// Each request has a deadline, its thinking time plus a grace as on the server; a
// worker that passes it, or whose request is cancelled (a new game, a cancelled
// analysis), is ended, and the next request starts another. `deadline` is a property,
// so that a test can shorten it.
export const local = { mode: null, module: null, lanes: {}, next: 1, send: localSend, deadline };
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
// (whose api.json says so) and wherever the file cannot be read. (A page opened as a
// file never gets here: browsers load no module there, and opened-as-file.js says
// how to serve it.)
function transport() {
  if (!local.mode) {
    local.mode = (async () => {
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
export function wasmModule() {
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
  let ms = local.deadline(request.path, request.text);
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
