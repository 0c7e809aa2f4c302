// wifodds web app. The page builds a scenario document (the scenario file's
// keys), sends it as the YAML `wifodds run` reads, and draws the JSON the
// engine answers: the server's, or the same engine built to WebAssembly and
// run in a Web Worker (the static site). Every rule is in Go: nothing here
// computes an outcome.

const $ = (sel, el = document) => el.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') e.textContent = v;
    else if (k === 'style') Object.assign(e.style, v); // CSSOM: the page's CSP allows no style attributes
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
};
const pct = (p) => (100 * p).toFixed(2) + '%';
const num = (x) => (Math.round(x * 1000) / 1000).toString();

let schema = null;
let doc = null;
let uploadedCRT = null; // the text of an uploaded CRT file
let uploadedAir = null; // the text of an uploaded air tables file
let tab = 'run';
let timer = null;
let inflight = null;
let uid = 0;

const defaultDoc = () => ({
  kind: 'land', crt: 'standard', table: 'auto', hex: { terrain: 'clear', weather: 'clear' },
  attacker: { units: [
    { type: 'ARM', size: 'corps', factors: 6, nation: 'GE' },
    { type: 'INF', size: 'corps', factors: 4, nation: 'GE' },
  ] },
  defender: { units: [{ type: 'INF', size: 'corps', factors: 3, nation: 'USSR' }] },
  target: { factories: 2 }, aa_units: [], bombers: [{ name: 'B-17', a2a: 3, sb: 3 }],
});

// ---- The fields the form shows, by scenario key ----------------------
const unitMain = [
  ['type', 'select', 'types'], ['size', 'select', 'sizes'], ['factors', 'number', 0.5], ['nation', 'select', 'nations'],
  ['face_down', 'check'], ['supply', 'check', true], ['name', 'text'],
];
const unitMore = [
  ['section', 'number', 1], ['ls', 'check'], ['role', 'select', 'roles'], ['towed', 'check'], ['katyusha', 'check'],
  ['red_circle', 'select', ['', 'dark', 'light']], ['heavy', 'check'], ['division_available', 'check'],
  ['division_factors', 'number', 0.5], ['ski', 'check'], ['white_print', 'check'], ['territorial', 'check'],
  ['bp', 'number', 0.5], ['mech_negated', 'check'], ['isolated', 'check'],
];
const sideFields = {
  attacker: [['hq_support', 'check'], ['ground_support', 'number', 0.5], ['shore_bombardment', 'number', 0.5],
    ['attack_as_mud', 'check'], ['exploiting', 'check']],
  defender: [['hq_support', 'check'], ['ground_support', 'number', 0.5], ['can_retreat', 'check', true], ['ctl', 'number', 1]],
};
const hexFlags = ['city', 'fortress', 'reference_town', 'fortified', 'across_river', 'home_nation', 'supply', 'surprise',
  'adjacent_friendly_corps', 'protected'];
const defaults = { supply: true, can_retreat: true, ctl: 1, size: 'corps', role: 'combat', table: 'auto', crt: 'standard', modifier: 0 };
const aaFields = [['factors', 'number', 1], ['heavy', 'check'], ['name', 'text']];
const bomberFields = [['name', 'text'], ['a2a', 'number', 1], ['sb', 'number', 1], ['carrier', 'check']];
const shipFields = [['name', 'text'], ['factors', 'number', 0.5]];
const aircraftFields = [['name', 'text'], ['a2a', 'number', 1], ['tactical', 'number', 0.5]];
const words = (k) => k.replace(/_/g, ' ');

// ---- Paths in the document --------------------------------------------
function getPath(o, path) {
  for (const k of path.split('.')) { if (o == null) return undefined; o = o[k]; }
  return o;
}
function setPath(o, path, v) {
  const ks = path.split('.');
  for (const k of ks.slice(0, -1)) { if (typeof o[k] !== 'object' || o[k] === null) o[k] = {}; o = o[k]; }
  const last = ks[ks.length - 1];
  if (v === undefined) delete o[last]; else o[last] = v;
}

// An input's value in the document's terms; undefined drops the key (its
// default applies).
function valueOf(input, def) {
  if (input.type === 'checkbox') {
    const on = input.checked;
    return on === (def === true) ? undefined : on;
  }
  if (input.type === 'number') {
    if (input.value.trim() === '') return undefined;
    const n = Number(input.value);
    return Number.isFinite(n) ? n : undefined;
  }
  const s = input.value;
  return s === '' || s === def ? undefined : s;
}

function field(obj, [key, kind, extra], onchange, idp) {
  const id = `${idp}-${key}-${++uid}`;
  let input;
  if (kind === 'select') {
    const opts = Array.isArray(extra) ? extra : schema[extra];
    input = el('select', { id });
    if (extra === 'roles') input.append(el('option', { value: '', text: '(combat)' }));
    for (const o of opts) {
      const v = typeof o === 'string' ? o : o.code;
      const t = typeof o === 'string' ? (o || '(none)') : `${o.code} ${o.name}`;
      if (extra === 'roles' && v === 'combat') continue;
      input.append(el('option', { value: v, text: t }));
    }
    input.value = obj[key] ?? defaults[key] ?? (opts[0] && (opts[0].code ?? opts[0])) ?? '';
  } else if (kind === 'check') {
    input = el('input', { type: 'checkbox', id });
    input.checked = obj[key] ?? extra === true;
  } else if (kind === 'number') {
    input = el('input', { type: 'number', id, step: extra ?? 1, inputmode: 'decimal' });
    if (obj[key] !== undefined) input.value = obj[key];
  } else {
    input = el('input', { type: 'text', id, maxlength: 60 });
    input.value = obj[key] ?? '';
  }
  input.dataset.field = key;
  const handler = () => {
    const def = kind === 'check' ? extra === true : defaults[key];
    const v = valueOf(input, kind === 'select' && key !== 'type' && key !== 'nation' ? defaults[key] ?? '' : def);
    if (v === undefined) delete obj[key]; else obj[key] = v;
    onchange();
  };
  input.addEventListener(kind === 'check' || kind === 'select' ? 'change' : 'input', handler);
  const label = kind === 'check'
    ? el('label', { class: 'inline', for: id }, input, ' ' + words(key))
    : el('label', { for: id }, words(key), input);
  return label;
}

// ---- Rendering the form from the document -------------------------------
function renderForm() {
  for (const input of document.querySelectorAll('[data-key]')) {
    const v = getPath(doc, input.dataset.key);
    if (input.type === 'checkbox') input.checked = !!v;
    else input.value = v ?? (input.tagName === 'SELECT' ? (defaults[input.dataset.key] ?? input.options[0]?.value) : '');
  }
  $('#crt').value = uploadedCRT ? 'upload' : (doc.crt ?? 'standard');
  $('.upload').hidden = !uploadedCRT && $('#crt').value !== 'upload';
  const opts = $('#options');
  opts.replaceChildren();
  for (const o of schema.options) {
    const id = 'opt-' + o;
    const cb = el('input', { type: 'checkbox', id });
    cb.checked = (doc.options ?? []).includes(o);
    cb.addEventListener('change', () => {
      const set = new Set(doc.options ?? []);
      if (cb.checked) set.add(o); else set.delete(o);
      doc.options = schema.options.filter((x) => set.has(x));
      if (!doc.options.length) delete doc.options;
      changed();
    });
    opts.append(el('label', { class: 'inline', for: id }, cb, ' ' + o));
  }
  const flags = $('#hex-flags');
  flags.replaceChildren();
  doc.hex ??= {};
  for (const f of hexFlags) flags.append(field(doc.hex, [f, 'check', f === 'supply'], changed, 'hex'));
  for (const side of ['attacker', 'defender']) renderSide(side);
  renderRows('#aa-rows', 'aa_units', aaFields, 'AA unit');
  renderRows('#bomber-rows', 'bombers', bomberFields, 'Bomber');
  renderRows('#ship-rows', 'naval_strikes', shipFields, 'Ship', doc.attacker);
  renderRows('#aircraft-rows', 'aircraft', aircraftFields, 'Aircraft', doc.attacker);
  $('#dice').value = (doc.dice ?? []).join(', ');
  showKind();
}

function renderSide(side) {
  doc[side] ??= {};
  const box = $('#' + side);
  const sf = $('.side-fields', box);
  sf.replaceChildren(...sideFields[side].map((f) => field(doc[side], f, changed, side)));
  const units = $('.units', box);
  units.replaceChildren();
  (doc[side].units ??= []).forEach((u, i) => units.append(unitCard(side, u, i)));
}

function unitCard(side, u, i) {
  const list = doc[side].units;
  const title = `${side === 'attacker' ? 'Attacking' : 'Defending'} unit ${i + 1}`;
  const head = el('div', { class: 'unit-head' }, el('span', { text: title }),
    el('span', { class: 'actions' },
      el('button', { type: 'button', 'aria-label': `Duplicate ${title.toLowerCase()}`, text: 'Duplicate', onclick: () => { list.splice(i + 1, 0, structuredClone(u)); renderSide(side); changed(); } }),
      el('button', { type: 'button', 'aria-label': `Remove ${title.toLowerCase()}`, text: 'Remove', onclick: () => { list.splice(i, 1); renderSide(side); changed(); } })));
  const main = el('div', { class: 'grid' }, ...unitMain.map((f) => field(u, f, changed, `${side}-${i}`)));
  const more = el('details', {}, el('summary', { text: 'More keys' }),
    el('div', { class: 'grid' }, ...unitMore.map((f) => field(u, f, changed, `${side}-${i}`))));
  return el('div', { class: 'unit', 'data-unit': `${side}-${i}`, role: 'group', 'aria-label': title }, head, main, more);
}

function renderRows(sel, key, fields, noun, holder = doc) {
  const box = $(sel);
  box.replaceChildren();
  (holder[key] ??= []).forEach((r, i) => {
    const head = el('div', { class: 'unit-head' }, el('span', { text: `${noun} ${i + 1}` }),
      el('span', { class: 'actions' }, el('button', { type: 'button', 'aria-label': `Remove ${noun} ${i + 1}`, text: 'Remove', onclick: () => { holder[key].splice(i, 1); renderRows(sel, key, fields, noun, holder); changed(); } })));
    box.append(el('div', { class: 'unit', role: 'group', 'aria-label': `${noun} ${i + 1}` }, head,
      el('div', { class: 'grid' }, ...fields.map((f) => field(r, f, changed, key + i)))));
  });
}

function showKind() {
  const raid = doc.kind === 'bombardment';
  for (const e of document.querySelectorAll('.land-only')) e.hidden = raid;
  for (const e of document.querySelectorAll('.raid-only')) e.hidden = !raid;
  $('.upload').hidden = raid || (!uploadedCRT && $('#crt').value !== 'upload');
  for (const t of ['compare', 'sweep', 'plan']) $('#tab-' + t).disabled = raid;
  if (raid && tab !== 'run') selectTab('run');
}

// ---- The scenario as YAML ----------------------------------------------
const landKeys = ['name', 'kind', 'crt', 'table', 'options', 'modifier', 'air_tables', 'hex', 'attacker', 'defender', 'targets', 'plan', 'dice'];
const raidKeys = ['name', 'kind', 'night', 'intercepted', 'target', 'aa_units', 'bombers', 'air_tables', 'dice'];

function scalar(v) {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = String(v);
  if (/^[A-Za-z][A-Za-z0-9 ._+-]*$/.test(s) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(s) && !/[ .]$/.test(s)) return s;
  return JSON.stringify(s);
}
const isScalar = (v) => v === null || typeof v !== 'object';
const flat = (v) => isScalar(v) || (Array.isArray(v) ? v.every(isScalar) : Object.values(v).every((x) => isScalar(x) || (Array.isArray(x) && x.every(isScalar))));
function flow(v) {
  if (isScalar(v)) return scalar(v);
  if (Array.isArray(v)) return '[' + v.map(flow).join(', ') + ']';
  return '{' + Object.entries(v).map(([k, x]) => `${k}: ${flow(x)}`).join(', ') + '}';
}
function block(obj, ind, keys) {
  const out = [];
  const order = keys ? [...keys, ...Object.keys(obj).filter((k) => !keys.includes(k))] : Object.keys(obj);
  for (const k of order) {
    const v = obj[k];
    if (v === undefined) continue;
    if (flat(v)) { out.push(`${ind}${k}: ${flow(v)}`); continue; }
    if (Array.isArray(v)) {
      out.push(`${ind}${k}:`);
      for (const item of v) {
        if (flat(item)) out.push(`${ind}  - ${flow(item)}`);
        else {
          const inner = block(item, ind + '    ').map((l) => l);
          out.push(inner[0].replace(ind + '    ', ind + '  - '), ...inner.slice(1));
        }
      }
      continue;
    }
    out.push(`${ind}${k}:`, ...block(v, ind + '  '));
  }
  return out;
}

// scenarioDoc is the document as the file has it: only the keys of its
// kind, empty sections dropped.
function scenarioDoc(d = doc) {
  const keys = d.kind === 'bombardment' ? raidKeys : landKeys;
  const out = {};
  for (const k of keys) {
    let v = d[k];
    if (v === undefined || v === '' || (Array.isArray(v) && !v.length && k !== 'bombers')) continue;
    if (typeof v === 'object' && !Array.isArray(v)) {
      v = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && !(Array.isArray(x) && !x.length)));
      if (!Object.keys(v).length && k !== 'attacker') continue;
    }
    out[k] = v;
  }
  if (d.kind !== 'bombardment' && uploadedCRT) delete out.crt;
  if (uploadedAir) delete out.air_tables;
  return out;
}
const toYAML = (d) => block(scenarioDoc(d), '', d.kind === 'bombardment' ? raidKeys : landKeys).join('\n') + '\n';

// ---- The engine: the server, or the engine in a Web Worker ----------------
// The page asks one adapter, engine.call(command, params, request, signal),
// and gets {status, json}: the server's answer to POST /api/run (compare,
// sweep, plan, parse; GET /api/schema), or the same bytes from the engine
// built to WebAssembly and run in a worker (the static site, `wifodds
// site`). Nothing past this section knows which one answered.
function requestOf(d) {
  return { scenario: toYAML(d), crt: d.kind === 'bombardment' ? null : uploadedCRT, air_tables: uploadedAir };
}

function serverEngine() {
  const body = (req) => {
    if (!req.crt && !req.air_tables) return { body: req.scenario, headers: { 'Content-Type': 'application/yaml' } };
    const f = new FormData();
    f.append('scenario', new Blob([req.scenario], { type: 'application/yaml' }), 'scenario.yaml');
    if (req.crt) f.append('crt', new Blob([req.crt], { type: 'application/yaml' }), 'crt.yaml');
    if (req.air_tables) f.append('air_tables', new Blob([req.air_tables], { type: 'application/yaml' }), 'air_tables.yaml');
    return { body: f, headers: {} };
  };
  return {
    onProgress: null, // the server sends no progress: the spinner shows it is at work
    cancel() {}, // aborting the fetch cancels the server's computation
    async call(command, params = {}, req = null, signal = undefined) {
      if (command === 'schema') {
        const res = await fetch('/api/schema');
        return { status: res.status, json: await res.json() };
      }
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) for (const x of [].concat(v)) q.append(k, x);
      const res = await fetch(`/api/${command}?${q}`, { method: 'POST', signal, ...body(req) });
      return { status: res.status, json: await res.json() };
    },
  };
}

function workerEngine() {
  let worker = null;
  let next = 1;
  let busySince = 0; // when the worker started on the call it is working on; 0: idle
  const pending = new Map();
  const start = () => {
    worker = new Worker('worker.js');
    worker.onmessage = ({ data }) => {
      if (data.progress) { eng.onProgress?.(data.progress); return; }
      const p = pending.get(data.id);
      pending.delete(data.id);
      busySince = pending.size ? performance.now() : 0;
      p?.resolve(data);
    };
  };
  // Terminating the worker is the only way to stop a computation under
  // way: Go in WebAssembly runs it to the end otherwise.
  const restart = () => {
    worker.terminate();
    for (const p of pending.values()) p.reject(new DOMException('Cancelled', 'AbortError'));
    pending.clear();
    busySince = 0;
    start();
  };
  start();
  const eng = {
    onProgress: null, // set by the page: ({done, planned}) while a computation runs
    cancel: restart,
    async call(command, params = {}, req = {}, signal = undefined) {
      // A superseded call still running long (Monte Carlo) is stopped rather
      // than waited for; a short one finishes and its answer is dropped.
      if (busySince && performance.now() - busySince > 300) restart();
      const id = next++;
      const ps = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, [].concat(v).map(String)]));
      const answer = new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        signal?.addEventListener('abort', () => reject(new DOMException('Superseded', 'AbortError')));
      });
      if (!busySince) busySince = performance.now();
      worker.postMessage({ id, request: JSON.stringify({ command, params: ps, ...(req ?? {}) }) });
      const r = await answer;
      return { status: r.status, json: JSON.parse(r.body) };
    },
  };
  return eng;
}

const engine = $('meta[name=wifodds-engine]')?.content === 'wasm' ? workerEngine() : serverEngine();
// The static site keeps its files for offline use (sw.js); a browser
// without service workers (or a file:// page) simply does not.
if ($('meta[name=wifodds-engine]')?.content === 'wasm') navigator.serviceWorker?.register('sw.js').catch(() => {});
engine.onProgress = ({ done, planned }) => {
  if (inflight && planned > 0) setStatus(`Computing… ${Math.floor((100 * done) / planned)}% (${done.toLocaleString('en')} of ${planned.toLocaleString('en')})`, true);
};

// api asks the engine for a command's answer about the document; a newer
// call drops an older one's answer.
async function api(command, d, params = {}) {
  inflight?.abort();
  const ctl = new AbortController();
  inflight = ctl;
  const started = performance.now();
  setStatus('Computing…', true);
  try {
    const { status, json } = await engine.call(command, params, requestOf(d), ctl.signal);
    if (ctl.signal.aborted) throw new DOMException('Superseded', 'AbortError');
    if (status !== 200) throw new Error(json.error ?? `status ${status}`);
    showError('');
    return { json, ms: performance.now() - started };
  } finally {
    if (inflight === ctl) { inflight = null; setStatus('', false); }
  }
}

function setStatus(text, busy) {
  $('#status').classList.toggle('busy', busy);
  $('#cancel').hidden = !busy;
  if (text || busy) $('#status-text').textContent = text;
}
function showError(msg) {
  $('#error').hidden = !msg;
  $('#error').textContent = msg;
}
async function guarded(f) {
  try { await f(); } catch (e) {
    if (e.name === 'AbortError') { $('#status-text').textContent = 'Cancelled'; return; }
    showError(e.message);
    $('#status-text').textContent = 'The scenario needs a fix';
  }
}

let lastEdit = 0; // when the player last changed the combat
let firstAnswerMs = null; // when the first answer was drawn, for the browser test
function changed() {
  lastEdit = performance.now();
  clearTimeout(timer);
  timer = setTimeout(refresh, 25); // short: an exact answer takes about a millisecond
  history.replaceState(null, '', '#s=' + encodeDoc());
}

function refresh() {
  if (tab === 'run') return guarded(runNow);
  if (tab === 'compare') return guarded(compareNow);
  if (tab === 'sweep') return guarded(sweepNow);
  if (tab === 'plan') return guarded(planNow);
}

function methodLine(j, ms) {
  const how = j.method === 'exact'
    ? `Exact: ${(j.paths ?? 0).toLocaleString('en')} dice paths`
    : `Monte Carlo: ${(j.trials ?? 0).toLocaleString('en')} trials, seed ${j.seed}`;
  return `${how} · ${Math.round(ms)} ms`;
}

// ---- Odds ---------------------------------------------------------------
async function runNow() {
  const params = { method: 'auto', explain: $('#explain').checked };
  const raids = Number($('#raids').value || 1);
  if (doc.kind === 'bombardment' && raids > 1) params.raids = raids;
  const { json, ms } = await api('run', doc, params);
  $('#status-text').textContent = methodLine(json, ms);
  if (doc.kind === 'bombardment') renderRaid(json); else renderLand(json);
  if (lastEdit && window.wifodds) window.wifodds.editToAnswerMs = performance.now() - lastEdit;
  firstAnswerMs ??= performance.now(); // after navigation: the page's clock starts there
  if (window.wifodds) Object.assign(window.wifodds, { firstAnswerMs, answerMs: ms });
}

function card(key, value, sub, id, raw) {
  return el('div', { class: 'card', id, 'data-value': raw }, el('div', { class: 'v', text: value }), el('div', { class: 'k', text: key }), sub ? el('div', { class: 'k', text: sub }) : null);
}
function bars(title, entries, cls) {
  const box = el('div', {}, el('h3', { text: title }));
  for (const [k, p] of entries) {
    box.append(el('div', { class: 'bar ' + (cls ?? '') }, el('span', { text: k }),
      el('span', { class: 'track' }, el('span', { class: 'fill', style: { width: `${Math.max(0.2, 100 * p)}%` } })), el('span', { class: 'pct', text: pct(p) })));
  }
  return box;
}
function interval(e) { return e.lo === e.hi ? '' : `95%: ${pct(e.lo)} – ${pct(e.hi)}`; }

function renderLand(s) {
  const p = s.probabilities;
  const levels = Object.keys(s.odds_levels);
  const tables = Object.entries(s.tables).filter(([, v]) => v > 0).map(([k]) => k);
  $('#headline').replaceChildren(
    card('P(hex taken)', pct(p.hex_taken.p), interval(p.hex_taken), 'p-hex', p.hex_taken.p),
    card('odds', levels.join(' / ') || '—', `${num(s.odds.attack)} : ${num(s.odds.defence)}`, 'odds'),
    card('table', tables.join(' / ') || '—', null, 'table-used'),
    card('P(breakthrough)', pct(p.breakthrough.p), interval(p.breakthrough), 'p-breakthrough', p.breakthrough.p),
    card('attackers face-up', pct(p.attacker_face_up.p), interval(p.attacker_face_up), 'p-faceup', p.attacker_face_up.p),
  );
  const d = $('#run-detail');
  d.replaceChildren();
  const results = Object.entries(s.results).sort((a, b) => b[1] - a[1]);
  d.append(bars('Each result', results));
  d.append(bars('Attacking units lost', s.distributions.attacker_units_lost.map((x, i) => [String(i), x]), 'att'));
  d.append(bars('Defending units lost', s.distributions.defender_units_lost.map((x, i) => [String(i), x])));
  const m = s.means;
  d.append(el('p', { text: `Expected losses: attacker ${num(m.attacker_units_lost.mean)} units (${num(m.attacker_factors_lost.mean)} factors), defender ${num(m.defender_units_lost.mean)} units (${num(m.defender_factors_lost.mean)} factors).` }));
  if (s.replay) {
    const r = s.replay;
    d.append(el('h3', { text: 'The dice you rolled' }), el('p', { id: 'luck', text:
      `Rolls ${r.dice.join(', ')}: ${r.result} at ${r.odds} on the ${r.table} table, hex ${r.hex_taken ? 'taken' : 'held'}. ` +
      `That outcome had a ${pct(r.probability)} chance; an outcome at least as good for the attacker, ${pct(r.at_least_as_good)}.` }));
  }
  for (const w of s.warnings ?? []) d.append(el('p', { class: 'note', text: w }));
  if (s.working) d.append(el('h3', { text: 'The working' }), el('div', { class: 'working', text: s.working.join('\n') }));
}

function renderRaid(s) {
  const entries = Object.entries(s.probabilities);
  $('#headline').replaceChildren(...entries.slice(0, 4).map(([k, e]) => card(words(k), pct(e.p), interval(e))));
  const d = $('#run-detail');
  d.replaceChildren();
  for (const [k, dist] of Object.entries(s.distributions)) d.append(bars(words(k), dist.map((x, i) => [String(i), x])));
  const t = el('table', {}, el('tr', {}, el('th', { text: 'expected' }), el('th', { text: 'mean' })));
  for (const [k, m] of Object.entries(s.means)) t.append(el('tr', {}, el('td', { text: words(k) }), el('td', { text: num(m.mean) })));
  d.append(el('h3', { text: 'Means' }), t);
  for (const w of s.warnings ?? []) d.append(el('p', { class: 'note', text: w }));
  if (s.working) d.append(el('h3', { text: 'The working' }), el('div', { class: 'working', text: s.working.join('\n') }));
}

// ---- Compare ----------------------------------------------------------
const metricNames = { hex_taken: 'P(hex taken)', breakthrough: 'P(breakthrough)', attacker_face_up: 'attackers face-up',
  attacker_units_lost: 'attacking units lost', defender_units_lost: 'defending units lost' };
async function compareNow() {
  const variants = ['#variant-a', '#variant-b', '#variant-c'].map((s) => $(s).value.trim()).filter(Boolean);
  const { json, ms } = await api('compare', doc, { variant: variants, method: 'auto' });
  $('#status-text').textContent = `${json.method === 'exact' ? 'Exact' : 'Monte Carlo, common random numbers'} · ${Math.round(ms)} ms`;
  const t = el('table', { id: 'compare-table' }, el('tr', {}, el('th', { text: 'metric' }), ...json.variants.map((v) => el('th', { text: `${v.name} (${v.crt})` }))));
  for (const [k, label] of Object.entries(metricNames)) {
    const mean = k.endsWith('lost');
    t.append(el('tr', {}, el('td', { text: label }), ...json.variants.map((v, i) => {
      const e = v.metrics[k];
      const val = mean ? num(e.p) : pct(e.p);
      const diff = i > 0 && v.difference_from_first ? v.difference_from_first[k].p : null;
      return el('td', { text: diff === null ? val : `${val} (${diff >= 0 ? '+' : ''}${mean ? num(diff) : (100 * diff).toFixed(2) + ' pts'})` });
    })));
  }
  const codes = [...new Set(json.variants.flatMap((v) => Object.keys(v.results)))].sort();
  for (const c of codes) t.append(el('tr', {}, el('td', { text: 'result ' + c }), ...json.variants.map((v) => el('td', { text: pct(v.results[c] ?? 0) }))));
  $('#compare-out').replaceChildren(t, ...(json.warnings ?? []).map((w) => el('p', { class: 'note', text: w })));
}

// ---- Sweep --------------------------------------------------------------
const colours = ['#0b6fa4', '#c2571a', '#2f8f46', '#8a4fb0'];
async function sweepNow() {
  const lo = $('#sweep-lo').value, hi = $('#sweep-hi').value, mlo = $('#sweep-mlo').value, mhi = $('#sweep-mhi').value;
  const params = { attack: `${lo}..${hi}`, crt: 'standard,2d6' };
  if (mlo !== mhi || Number(mlo) !== (doc.modifier ?? 0)) params.modifier = `${mlo}..${mhi}`;
  const { json, ms } = await api('sweep', doc, params);
  $('#status-text').textContent = `Exact, ${json.steps.length} steps · ${Math.round(ms)} ms`;
  const mod = json.modifiers.includes(json.base_modifier) ? json.base_modifier : json.modifiers[0];
  const W = 640, H = 300, L = 44, B = 28;
  const steps = json.steps.filter((s) => s.modifier === mod);
  const xs = steps.map((s) => s.attack);
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
  const X = (x) => L + (W - L - 10) * (x - x0) / (x1 - x0), Y = (p) => H - B - (H - B - 10) * p;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `P(hex taken) by attack total, modifier ${mod}`);
  const add = (tag, attrs, text) => { const e = document.createElementNS(svg.namespaceURI, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text) e.textContent = text; svg.append(e); };
  for (let p = 0; p <= 1.0001; p += 0.25) { add('line', { x1: L, x2: W - 10, y1: Y(p), y2: Y(p), stroke: '#dde3e8' }); add('text', { x: 4, y: Y(p) + 4 }, `${p * 100}%`); }
  add('text', { x: L, y: H - 6 }, String(x0)); add('text', { x: W - 40, y: H - 6 }, String(x1)); add('text', { x: W / 2 - 30, y: H - 6 }, 'attack total');
  const legend = el('div', { class: 'legend' });
  json.crts.forEach((c, i) => {
    const pts = steps.filter((s) => s.crt === c).map((s) => `${X(s.attack).toFixed(1)},${Y(s.hex_taken).toFixed(1)}`).join(' ');
    add('polyline', { points: pts, fill: 'none', stroke: colours[i % 4], 'stroke-width': 2 });
    legend.append(el('span', {}, el('i', { style: { background: colours[i % 4] } }), 'CRT ' + c));
  });
  const t = el('table', {}, el('tr', {}, el('th', { text: 'attack' }), ...json.crts.map((c) => el('th', { text: `${c}: odds, P(hex taken)` }))));
  for (const x of [...new Set(xs)]) {
    t.append(el('tr', {}, el('td', { text: num(x) }), ...json.crts.map((c) => {
      const s = steps.find((q) => q.crt === c && q.attack === x);
      return el('td', { text: s ? `${s.odds_changed ? '▲ ' : ''}${s.odds} ${pct(s.hex_taken)}` : '' });
    })));
  }
  const out = [legend, svg];
  if (json.modifiers.length > 1) out.push(heat(json));
  $('#sweep-out').replaceChildren(...out, t, ...json.notes.map((n) => el('p', { class: 'note', text: n })));
}
function heat(json) {
  const box = el('div', {});
  for (const c of json.crts) {
    const t = el('table', {}, el('caption', { text: `CRT ${c}: P(hex taken) by modifier (rows) and attack (columns)` }));
    const xs = [...new Set(json.steps.filter((s) => s.crt === c).map((s) => s.attack))];
    t.append(el('tr', {}, el('th', { text: 'mod' }), ...xs.map((x) => el('th', { text: num(x) }))));
    for (const m of json.modifiers) {
      t.append(el('tr', {}, el('td', { text: (m > 0 ? '+' : '') + m }), ...xs.map((x) => {
        const s = json.steps.find((q) => q.crt === c && q.modifier === m && q.attack === x);
        const p = s ? s.hex_taken : 0;
        return el('td', { text: s ? Math.round(100 * p) : '', style: { background: `rgba(11,111,164,${(0.08 + 0.8 * p).toFixed(2)})`, color: p > 0.55 ? '#fff' : '#1d232a' } });
      })));
    }
    box.append(t);
  }
  return box;
}

// ---- Plan -----------------------------------------------------------------
function planDoc() {
  const d = structuredClone(scenarioDoc());
  const units = d.attacker?.units ?? [];
  // An imported plan file lists its own available units; else the attacking
  // units are the ones the plan may send.
  if (!d.attacker?.available?.length) {
    d.attacker = { ...d.attacker, available: units.map((u, i) => ({ ...u, id: u.name || `#${i + 1} ${u.nation} ${u.type} ${u.factors}` })) };
  }
  delete d.attacker.units;
  delete d.attacker.attack_as_mud;
  delete d.dice;
  d.plan = { cost: $('#plan-cost').value, target: Number($('#plan-target').value) || 0.75 };
  return d;
}
async function planNow() {
  const { json, ms } = await api('plan', planDoc(), {});
  $('#status-text').textContent = `Weighed ${json.forces_weighed.toLocaleString('en')} forces (${json.distinct_combats} distinct combats) · ${Math.round(ms)} ms`;
  const out = [];
  const r = json.recommended;
  out.push(el('p', { id: 'plan-rec', text: r
    ? `Send ${r.units.join(', ')}: ${r.odds} on the ${r.table} table, P(hex taken) ${pct(r.hex_taken.p)}, cost ${num(r.cost)}.`
    : (json.unreached || 'Set a target for a recommendation.') }));
  const t = el('table', {}, el('tr', {}, ...['cost', 'P(hex taken)', 'odds', 'table', 'att. factors lost', 'units'].map((h) => el('th', { text: h }))));
  for (const f of json.frontier) {
    t.append(el('tr', { class: f === r || (r && f.cost === r.cost && f.units.join() === r.units.join()) ? 'rec' : null },
      el('td', { text: num(f.cost) }), el('td', { text: pct(f.hex_taken.p) }), el('td', { text: f.odds }), el('td', { text: f.table }),
      el('td', { text: num(f.expected_attacker_factors_lost) }), el('td', { text: f.units.join(', ') })));
  }
  out.push(el('h3', { text: 'Frontier: no force does better for less' }), t);
  if (json.marginal?.length) {
    const m = el('table', {}, el('tr', {}, el('th', { text: 'change' }), el('th', { text: 'P(hex taken)' }), el('th', { text: 'difference' })));
    for (const c of json.marginal) {
      m.append(el('tr', {}, el('td', { text: `${c.action} ${c.unit}` }), el('td', { text: c.no_attack ? '—' : pct(c.hex_taken) }),
        el('td', { text: c.no_attack ? 'no attack left' : `${c.hex_taken_change >= 0 ? '+' : ''}${(100 * c.hex_taken_change).toFixed(2)} pts` })));
    }
    out.push(el('h3', { text: 'What one more unit buys' }), m);
  }
  for (const w of json.warnings ?? []) out.push(el('p', { class: 'note', text: w }));
  $('#plan-out').replaceChildren(...out);
}

// ---- Tabs ---------------------------------------------------------------
function selectTab(name) {
  tab = name;
  for (const b of document.querySelectorAll('[role=tab]')) {
    const on = b.id === 'tab-' + name;
    b.setAttribute('aria-selected', on);
    b.tabIndex = on ? 0 : -1;
    $('#' + b.getAttribute('aria-controls')).hidden = !on;
  }
  refresh();
}

// ---- Import, export, share -----------------------------------------------
function encodeDoc() {
  const bytes = new TextEncoder().encode(JSON.stringify(scenarioDoc()));
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function decodeDoc(s) {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
}
async function importYAML(text) {
  const { status, json } = await engine.call('parse', {}, { scenario: text });
  if (status !== 200) throw new Error(json.error);
  load(json);
}
function load(d) {
  doc = { ...defaultDoc(), ...d };
  if (d.kind !== 'bombardment') { doc.attacker = d.attacker ?? { units: [] }; doc.defender = d.defender ?? { units: [] }; }
  uploadedCRT = null;
  renderForm();
  changed();
}

function wire() {
  $('#builder').addEventListener('submit', (e) => e.preventDefault());
  for (const input of document.querySelectorAll('[data-key]')) {
    const ev = input.tagName === 'SELECT' || input.type === 'checkbox' ? 'change' : 'input';
    input.addEventListener(ev, () => {
      const key = input.dataset.key;
      let v = valueOf(input, defaults[key]);
      if (key === 'kind' && v === undefined) v = input.value;
      setPath(doc, key, v);
      if (key === 'kind') showKind();
      changed();
    });
  }
  $('#crt').addEventListener('change', () => {
    const v = $('#crt').value;
    $('.upload').hidden = v !== 'upload';
    if (v !== 'upload') { uploadedCRT = null; doc.crt = v; changed(); }
  });
  $('#crt-file').addEventListener('change', async () => {
    const f = $('#crt-file').files[0];
    if (!f) return;
    uploadedCRT = await f.text();
    changed();
  });
  for (const b of document.querySelectorAll('.add-unit')) {
    b.addEventListener('click', () => {
      const side = b.dataset.side;
      const last = doc[side].units.at(-1);
      doc[side].units.push(last ? structuredClone(last) : { type: 'INF', size: 'corps', factors: 3, nation: side === 'attacker' ? 'GE' : 'USSR' });
      renderSide(side);
      changed();
      $(`#${side} .unit:last-child select`)?.focus();
    });
  }
  $('#add-aa').addEventListener('click', () => { doc.aa_units.push({ factors: 2 }); renderRows('#aa-rows', 'aa_units', aaFields, 'AA unit'); changed(); });
  $('#add-bomber').addEventListener('click', () => { doc.bombers.push({ a2a: 2, sb: 2 }); renderRows('#bomber-rows', 'bombers', bomberFields, 'Bomber'); changed(); });
  $('#add-ship').addEventListener('click', () => { (doc.attacker.naval_strikes ??= []).push({ factors: 2 }); renderRows('#ship-rows', 'naval_strikes', shipFields, 'Ship', doc.attacker); changed(); });
  $('#add-aircraft').addEventListener('click', () => { (doc.attacker.aircraft ??= []).push({ a2a: 1, tactical: 2 }); renderRows('#aircraft-rows', 'aircraft', aircraftFields, 'Aircraft', doc.attacker); changed(); });
  $('#air-file').addEventListener('change', async () => {
    const f = $('#air-file').files[0];
    uploadedAir = f ? await f.text() : null;
    changed();
  });
  $('#dice').addEventListener('input', () => {
    const rolls = $('#dice').value.split(/[\s,]+/).filter(Boolean).map(Number);
    if (rolls.length && rolls.every((r) => Number.isInteger(r))) doc.dice = rolls; else delete doc.dice;
    changed();
  });
  for (const id of ['#explain', '#raids']) $(id).addEventListener('change', changed);
  for (const id of ['#variant-a', '#variant-b', '#variant-c', '#sweep-lo', '#sweep-hi', '#sweep-mlo', '#sweep-mhi', '#plan-target', '#plan-cost']) {
    $(id).addEventListener('change', changed);
  }
  $('#cancel').addEventListener('click', () => { inflight?.abort(); engine.cancel(); });
  const tabs = [...document.querySelectorAll('[role=tab]')];
  tabs.forEach((b, i) => {
    b.addEventListener('click', () => selectTab(b.id.slice(4)));
    b.addEventListener('keydown', (e) => {
      const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!d) return;
      let j = i;
      do { j = (j + d + tabs.length) % tabs.length; } while (tabs[j].disabled && j !== i);
      tabs[j].focus();
      selectTab(tabs[j].id.slice(4));
    });
  });
  const dlg = $('#yaml-dialog');
  $('#export').addEventListener('click', () => {
    const y = toYAML(doc);
    $('#yaml-text').value = y;
    const a = $('#yaml-download');
    URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([y], { type: 'application/yaml' }));
    a.download = (doc.name || 'scenario').replace(/[^A-Za-z0-9._-]+/g, '-') + '.yaml';
    dlg.showModal();
  });
  $('#yaml-close').addEventListener('click', () => dlg.close());
  $('#yaml-import').addEventListener('click', () => guarded(async () => { await importYAML($('#yaml-text').value); dlg.close(); }));
  $('#import-file').addEventListener('change', () => guarded(async () => {
    const f = $('#import-file').files[0];
    if (f) await importYAML(await f.text());
    $('#import-file').value = '';
  }));
  $('#share').addEventListener('click', async () => {
    const url = location.origin + location.pathname + '#s=' + encodeDoc();
    history.replaceState(null, '', url);
    try { await navigator.clipboard.writeText(url); $('#status-text').textContent = 'Share link copied'; } catch { $('#status-text').textContent = 'Share link: the address bar'; }
  });
}

async function main() {
  schema = (await engine.call('schema')).json;
  const fill = (sel, list) => $(sel).replaceChildren(...list.map((v) => el('option', { value: v, text: v })));
  fill('#kind', schema.kinds);
  fill('#table', schema.tables);
  fill('#terrain', schema.terrains);
  fill('#weather', schema.weathers);
  fill('#plan-cost', schema.costs);
  $('#crt').replaceChildren(...schema.crts.map((v) => el('option', { value: v, text: v })), el('option', { value: 'upload', text: 'upload a file…' }));
  doc = defaultDoc();
  const m = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
  if (m) {
    try { const d = decodeDoc(m[1]); doc = { ...defaultDoc(), ...d }; } catch { showError('The link carries no readable scenario; starting afresh.'); }
  }
  wire();
  renderForm();
  refresh();
  // ask puts a command to the engine about the combat as the tabs do (the
  // status line, Cancel, progress), drawing nothing: for the console and
  // the browser test.
  const ask = (command, params) => guarded(async () => { await api(command, doc, params); });
  window.wifodds = { toYAML: () => toYAML(doc), load, ask, ready: true, engine: $('meta[name=wifodds-engine]')?.content, firstAnswerMs };
}
main();
