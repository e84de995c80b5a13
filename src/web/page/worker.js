// duckchess: one Web Worker of the page opened from static files. It runs the API's
// routes (the same Rust code as `duckchess serve`, built to WebAssembly) one request at
// a time; the page gives it the compiled module first, then requests, and ends it when
// a request is cancelled or passes its deadline.
'use strict';

let module = null;
let instance = null;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The module's one import: the clock its searches are bounded by.
function start() {
  instance = new WebAssembly.Instance(module, {
    duckchess: { now_ms: () => performance.now() },
  });
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.module) {
    module = message.module;
    return;
  }
  try {
    if (!instance) start();
    const api = instance.exports;
    const path = encoder.encode(message.path);
    const body = encoder.encode(message.body);
    // The length as a BigInt (the module's is 64 bits wide): no length wraps around.
    // A request over the module's limit gets no buffer (0), and its answer is 413.
    const at = api.dc_input(BigInt(path.length + body.length)) >>> 0;
    if (at !== 0) {
      const input = new Uint8Array(api.memory.buffer, at, path.length + body.length);
      input.set(path, 0);
      input.set(body, path.length);
    }
    const status = api.dc_call(path.length);
    const output = new Uint8Array(api.memory.buffer, api.dc_output() >>> 0, api.dc_output_len() >>> 0);
    const text = decoder.decode(output);
    const newline = text.indexOf('\n');
    self.postMessage({
      id: message.id, status, type: text.slice(0, newline), body: text.slice(newline + 1),
    });
  } catch (e) {
    // A failure inside the module leaves its memory as it was: the next request
    // starts a fresh instance.
    instance = null;
    self.postMessage({
      id: message.id, status: 500, type: 'application/json',
      body: JSON.stringify({ error: `the page's module failed: ${e.message}` }),
    });
  }
};
