// wifodds engine worker, for the static site (`wifodds site`): loads Go's
// wasm loader and the engine built from the same source as the server, and
// answers the page's calls one at a time. The page talks to it through
// the same adapter as the server, so nothing else knows which answers.
importScripts('wasm_exec.js');

const waiting = [];
let ready = false;
let failed = null; // the load's error: every call gets it

// answer answers one call, with how long the engine took (ms), which the
// page's adapter records for the browser test.
function answer({ id, command, request }) {
  let r;
  const start = performance.now();
  try {
    r = globalThis.wifoddsAnswer(request);
  } catch (e) {
    r = { status: 500, body: JSON.stringify({ error: 'the engine failed: ' + e.message }) };
  }
  const ms = performance.now() - start;
  postMessage({ id, status: r.status, body: r.body, ms });
  if (command === 'run' && r.status === 200 && (ms < warmQuick || (!ranOnce && ms < warmFirst))) warmWith(request);
  if (command === 'run') ranOnce = true;
}

function fail({ id }) {
  postMessage({ id, status: 500, body: JSON.stringify({ error: 'the engine did not load: ' + failed }) });
}

// Warm-up. The browser runs a WebAssembly function in its baseline
// compiler until the function has run often, and only then optimises it,
// so the first answers after a load ran 3–10 times slower than later ones
// (docs/performance.md). Once the page has had a quick run (an exact
// answer), the worker asks it again while idle, a bounded number of times,
// and drops the answers: the functions the player's edits run are
// optimised before the next edit. Only runs count: the page's first call,
// the schema, is quick too, and replaying it would spend the replays on
// nothing the player waits for. The page's first run counts as quick
// within warmFirst, since it also compiles every function it reaches; a
// replay slower than warmQuick stops until the next quick run (that run
// was not an exact one). Each replay is a timer task, and the browser
// spaces nested timers by 4 ms, so a call from the page comes in between
// two replays, waiting at most for the one under way. (Replays chained by
// messages on a MessageChannel ran back to back and kept a call from the
// page waiting for dozens.)
const warmCalls = 150; // replays per load: enough to optimise an exact answer's functions
const warmQuick = 20; // ms: replay only a run answered this fast
const warmFirst = 300; // ms: or the page's first run answered this fast
let ranOnce = false;
let warmLeft = warmCalls;
let warmRequest = null;
function warmWith(request) {
  if (warmLeft <= 0) return;
  if (warmRequest === null) setTimeout(warmStep, 0);
  warmRequest = request; // the latest quick run: the page's current combat
}
function warmStep() {
  const start = performance.now();
  try {
    globalThis.wifoddsAnswer(warmRequest, true); // true: no progress messages
  } catch {
    // The engine failed: warming it is pointless, and the page's own
    // call will meet the failure and report it.
    warmRequest = null;
    warmLeft = 0;
    return;
  }
  warmLeft--;
  if (performance.now() - start >= warmQuick) warmRequest = null; // not quick: wait for a quick run
  else if (warmLeft > 0) setTimeout(warmStep, 0);
  if (warmLeft === 0) postMessage({ warmed: warmCalls }); // for the browser test
}

onmessage = (e) => {
  if (failed) fail(e.data);
  else if (ready) answer(e.data);
  else waiting.push(e.data);
};

// instantiate compiles the engine while it downloads when the host labels
// it application/wasm (which streaming compilation requires), and from the
// whole download otherwise.
async function instantiate(go) {
  const res = await fetch('wifodds.wasm');
  if (!res.ok) throw new Error(`wifodds.wasm: ${res.status} ${res.statusText}`);
  if (res.headers.get('Content-Type')?.split(';')[0].trim() === 'application/wasm') {
    return (await WebAssembly.instantiateStreaming(res, go.importObject)).instance;
  }
  return (await WebAssembly.instantiate(await res.arrayBuffer(), go.importObject)).instance;
}

(async () => {
  const go = new Go();
  go.run(await instantiate(go)); // runs main until it waits for calls: wifoddsAnswer is set
  ready = true;
  for (const m of waiting.splice(0)) answer(m);
})().catch((e) => {
  failed = e.message;
  for (const m of waiting.splice(0)) fail(m);
});
