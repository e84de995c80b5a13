// The page opened as a file (file://): browsers run no module script there (nor a
// worker, nor WebAssembly fetched beside it), so app.js never starts. This one classic
// script, which they do run, says how to serve the page instead. Anywhere else it does
// nothing.
'use strict';

if (location.protocol === 'file:') {
  const message = document.getElementById('message');
  message.textContent = 'this page runs its engine in the browser, which browsers allow only ' +
    'for a page from a web server: serve its folder with any web server (for example ' +
    'python3 -m http.server in it) and open the address it gives, or run duckchess serve';
  message.className = 'error';
}
