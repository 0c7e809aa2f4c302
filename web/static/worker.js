// wifodds engine worker, for the static site (`wifodds site`): loads Go's
// wasm loader and the engine built from the same source as the server, and
// answers the page's calls one at a time. The page talks to it through
// the same adapter as the server, so nothing else knows which answers.
importScripts('wasm_exec.js');

const waiting = [];
let ready = false;
let failed = null; // the load's error: every call gets it

function answer({ id, request }) {
  let r;
  try {
    r = globalThis.wifoddsAnswer(request);
  } catch (e) {
    r = { status: 500, body: JSON.stringify({ error: 'the engine failed: ' + e.message }) };
  }
  postMessage({ id, status: r.status, body: r.body });
}

function fail({ id }) {
  postMessage({ id, status: 500, body: JSON.stringify({ error: 'the engine did not load: ' + failed }) });
}

onmessage = (e) => {
  if (failed) fail(e.data);
  else if (ready) answer(e.data);
  else waiting.push(e.data);
};

(async () => {
  const go = new Go();
  const res = await fetch('wifodds.wasm');
  if (!res.ok) throw new Error(`wifodds.wasm: ${res.status} ${res.statusText}`);
  const { instance } = await WebAssembly.instantiate(await res.arrayBuffer(), go.importObject);
  go.run(instance); // runs main until it waits for calls: wifoddsAnswer is set
  ready = true;
  for (const m of waiting.splice(0)) answer(m);
})().catch((e) => {
  failed = e.message;
  for (const m of waiting.splice(0)) fail(m);
});
