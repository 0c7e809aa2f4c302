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
// signedPts is a change in percentage points, its sign taken after
// rounding: never "-0.00 pts", always "+0.00 pts".
const signedPts = (d) => { const r = Number((100 * d).toFixed(2)) + 0; return `${r >= 0 ? '+' : ''}${r.toFixed(2)} pts`; };
const signedNum = (d) => { const r = Math.round(d * 1000) / 1000 + 0; return `${r >= 0 ? '+' : ''}${num(r)}`; };

let schema = null;
let doc = null;
let uploadedCRT = null; // the text of an uploaded CRT file
let uploadedAir = null; // the text of an uploaded air tables file
let tab = 'run';
// The rows of each side: a unit and how many of it. The document's units
// list is written from them (syncUnits), one entry per unit as the file
// has it.
const stacks = { attacker: [], defender: [] };
const planOff = new Set(); // the available units and support the player has switched off, by id
const reserveOff = new Set(); // a defender's plan: the reserves the player has switched off, by id
const compareOn = new Set(); // the variants picked on the compare tab, as overrides
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
const defaults = { supply: true, can_retreat: true, ctl: 1, size: 'corps', role: 'combat', table: 'auto', crt: 'standard', modifier: 0 };
const aaFields = [['factors', 'number', 1], ['heavy', 'check'], ['name', 'text']];
const bomberFields = [['name', 'text'], ['a2a', 'number', 1], ['sb', 'number', 1], ['carrier', 'check']];
const shipFields = [['name', 'text'], ['factors', 'number', 0.5]];
const aircraftFields = [['name', 'text'], ['a2a', 'number', 1], ['tactical', 'number', 0.5]];
const words = (k) => k.replace(/_/g, ' ');
// keyLabel is a form key in a player's words (the schema's key_words,
// from package scenario: "ctl" is "combat training level (CTL)").
const keyWordsOf = (k) => schema.key_words?.find((w) => w.key === k);
const keyLabel = (k) => keyWordsOf(k)?.label ?? words(k);

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

function field(obj, [key, kind, extra], onchange, idp, compact = false) {
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
  if (compact && key === 'nation') codeWhenClosed(input);
  const handler = () => {
    const def = kind === 'check' ? extra === true : defaults[key];
    const v = valueOf(input, kind === 'select' && !['type', 'nation', 'size'].includes(key) ? defaults[key] ?? '' : def);
    if (v === undefined) delete obj[key]; else obj[key] = v;
    onchange();
  };
  input.addEventListener(kind === 'check' || kind === 'select' ? 'change' : 'input', handler);
  if (compact) return el('label', { for: id, class: 'f-' + key }, el('span', { class: 'visually-hidden', text: words(key) }), input);
  // The key in words, and its one line as the input's description and
  // tooltip (a hidden node is left out of the label's name).
  const kw = keyWordsOf(key);
  const about = kw && el('span', { id: id + '-about', hidden: true, text: kw.about });
  if (about) input.setAttribute('aria-describedby', about.id);
  return kind === 'check'
    ? el('label', { class: 'inline', for: id, title: kw?.about }, input, ' ' + keyLabel(key), about)
    : el('label', { for: id, title: kw?.about }, keyLabel(key), input, about);
}

// codeWhenClosed makes a row's nation select show the nation's code, as
// the counters do ("USSR Soviet Union" was clipped in the narrow column),
// while its list, and a screen reader on the focused select, give each
// code with its name; the name is the select's tooltip too.
function codeWhenClosed(select) {
  for (const o of select.options) o.dataset.full = o.textContent;
  const show = (full) => {
    for (const o of select.options) o.textContent = full ? o.dataset.full : o.value;
    select.title = select.selectedOptions[0]?.dataset.full ?? '';
  };
  select.addEventListener('focus', () => show(true));
  select.addEventListener('mousedown', () => show(true));
  select.addEventListener('blur', () => show(false));
  select.addEventListener('change', () => show(false));
  show(false);
}
// withWords labels a chip in a player's words (the schema's option_words
// and hex_flags, from package scenario) and gives its one line on what it
// does three ways: the checkbox's description (screen readers), a tooltip,
// and the line under the chips while it is focused or pointed at (the
// keyboard and the mouse). The checkbox still writes the file's key.
function withWords(label, w, line) {
  const cb = $('input', label);
  const desc = el('span', { id: cb.id + '-about', hidden: true, text: w.about });
  label.replaceChildren(cb, ' ' + w.label);
  label.title = w.about;
  label.dataset.words = w.key;
  cb.setAttribute('aria-describedby', desc.id);
  const show = () => { $(line).textContent = `${w.label}: ${w.about}`; };
  label.addEventListener('mouseenter', show);
  cb.addEventListener('focus', show);
  return [label, desc];
}
const optionWords = (o) => schema.option_words.find((w) => w.key === o) ?? { key: o, label: o, about: '' };

// ---- Rendering the form from the document -------------------------------
const rowMain = unitMain.slice(0, 4); // type, size, factors, nation: in the row
const rowFlags = [...unitMain.slice(4), ...unitMore]; // face-down, supply, name and the rest: in the row's popover

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
  for (const o of commonFirst(schema.options)) {
    const id = 'opt-' + o;
    const cb = el('input', { type: 'checkbox', id });
    cb.checked = (doc.options ?? []).includes(o);
    cb.addEventListener('change', () => setOption(o, cb.checked));
    opts.append(...withWords(el('label', { for: id }, cb), optionWords(o), '#options-about'));
  }
  const flags = $('#hex-flags');
  flags.replaceChildren();
  doc.hex ??= {};
  for (const f of schema.hex_flags) flags.append(...withWords(field(doc.hex, [f.key, 'check', f.key === 'supply'], changed, 'hex'), f, '#hex-flags-about'));
  for (const side of ['attacker', 'defender']) {
    stacks[side] = groupUnits(doc[side]?.units ?? []);
    renderSide(side);
  }
  renderRows('#aa-rows', 'aa_units', aaFields, 'AA unit');
  renderRows('#bomber-rows', 'bombers', bomberFields, 'Bomber');
  renderRows('#ship-rows', 'naval_strikes', shipFields, 'Ship', doc.attacker);
  renderRows('#aircraft-rows', 'aircraft', aircraftFields, 'Aircraft', doc.attacker);
  $('#dice').value = (doc.dice ?? []).join(', ');
  diceMisread(null);
  syncRules();
  countedLine();
  showKind();
}

// setOption turns an option on or off in the document, from either of its
// chips (the Combat panel's, the rules strip's); the file keeps the
// schema's order.
function setOption(o, on) {
  const set = new Set(doc.options ?? []);
  if (on) set.add(o); else set.delete(o);
  doc.options = schema.options.filter((x) => set.has(x));
  if (!doc.options.length) delete doc.options;
  changed();
}

// ---- The rules strip ------------------------------------------------------
// The rules strip, under the headline figures (issue 27: the CRT, table,
// modifier and options sat in the Combat panel, a scroll below the stacks
// at 1280x900), holds no state of its own: each of its controls writes the
// document as the Combat panel's twin does, and syncRules draws both from
// the document after every change.
function buildRulesStrip() {
  // The strip's selects offer what their twins in the panels offer.
  const sameOptions = (to, from) => $(to).replaceChildren(...[...$(from).options].map((o) => el('option', { value: o.value, text: o.textContent })));
  sameOptions('#rs-crt', '#crt');
  // The table as a row of radio chips (issue 27: a select whose text
  // changed width moved the row under the pointer): one click for
  // assault; the auto chip names what auto chose, its reason beside it.
  $('#rs-table').append(...schema.tables.map((v) => {
    const r = el('input', { type: 'radio', name: 'rs-table', id: 'rs-table-' + v, value: v });
    r.addEventListener('change', () => { setPath(doc, 'table', valueOf(r, defaults.table)); changed(); });
    return el('label', { for: r.id }, r, ' ', el('span', { id: r.id + '-label', text: v }));
  }));
  // The strip's CRT goes through the panel's, which also opens its file
  // box for an upload.
  $('#rs-crt').addEventListener('change', () => {
    $('#crt').value = $('#rs-crt').value;
    $('#crt').dispatchEvent(new Event('change'));
    if ($('#rs-crt').value === 'upload') { $('#crt-file').scrollIntoView({ block: 'center' }); $('#crt-file').focus({ preventScroll: true }); }
  });
  // The hex's terrain and weather, the Hex panel's keys (issue 27: the
  // strip said "terrain, weather and HQ already counted" but not which,
  // and the player scrolled to the Hex panel to check).
  for (const k of ['terrain', 'weather']) {
    sameOptions('#rs-' + k, '#' + k);
    $('#rs-' + k).addEventListener('change', () => { setPath(doc, 'hex.' + k, valueOf($('#rs-' + k), defaults['hex.' + k])); changed(); });
  }
  $('#rs-modifier').addEventListener('input', () => { setPath(doc, 'modifier', valueOf($('#rs-modifier'), defaults.modifier)); changed(); });
  const step = (d) => {
    const m = Math.max(-30, Math.min(30, Number(doc.modifier ?? 0) + d));
    setPath(doc, 'modifier', m === 0 ? undefined : m);
    changed();
  };
  // The strip's −/+ and the Combat panel's, one step each.
  for (const at of ['#rs-mod', '#mod']) {
    $(at + '-down').addEventListener('click', () => step(-1));
    $(at + '-up').addEventListener('click', () => step(1));
  }
  // Each option a chip in its short words; its full words are its
  // tooltip and its description.
  for (const o of commonFirst(schema.options)) {
    const w = optionWords(o), id = 'rs-opt-' + o;
    const cb = el('input', { type: 'checkbox', id, 'aria-describedby': id + '-about' });
    cb.addEventListener('change', () => setOption(o, cb.checked));
    rsChips.set(o, el('label', { for: id, title: `${w.label}: ${w.about}`, 'data-option': o }, cb, ' ' + (w.short ?? w.label),
      el('span', { id: id + '-about', hidden: true, text: `${w.label}: ${w.about}` })));
  }
}
const rsChips = new Map(); // option → its chip in the rules strip
let stripShown = ''; // the options the strip shows with no click, as stripOptions gave them
// stripOptions are the options the strip shows with no click for a CRT:
// wild results and fractional odds for any; the blitz and territorial
// modifiers, which are the 2D6 table's (AfA 3.11, docs/rules.md §2.1), for
// the 2D6 table or a table file. The rest are behind "more options…".
function stripOptions(crt) {
  return ['wild-results', 'fractional-odds', ...(crt === 'standard' ? [] : ['blitz-modifier', 'territorial-modifiers'])];
}
// syncRules draws the rules from the document into both places they are
// set: the strip and the Combat panel (a number box being typed in keeps
// what it holds, "-" on the way to "-1" too).
function syncRules() {
  if (!rsChips.size) return;
  $('#rs-crt').value = $('#crt').value;
  syncTable();
  for (const id of ['#rs-modifier', '#modifier']) if (document.activeElement !== $(id)) $(id).value = doc.modifier ?? '';
  // A front's hexes each have their own terrain and weather (Plan tab).
  for (const k of ['terrain', 'weather']) {
    $('#rs-' + k).value = $('#' + k).value = doc.hex?.[k] ?? $('#' + k).options[0]?.value;
    $('#rs-' + k).closest('.rs-hex').hidden = !!doc.targets;
  }
  const on = new Set(doc.options ?? []), shown = stripOptions($('#crt').value);
  for (const o of schema.options) {
    $('input', rsChips.get(o)).checked = on.has(o);
    const opt = $('#opt-' + o);
    if (opt) opt.checked = on.has(o);
  }
  // The chips move only when the CRT changes which are shown (a chip
  // moved loses the focus).
  if (stripShown !== shown.join()) {
    stripShown = shown.join();
    const all = commonFirst(schema.options);
    $('#rs-more').before(...all.filter((o) => shown.includes(o)).map((o) => rsChips.get(o)));
    $('#rs-more-options').replaceChildren(...all.filter((o) => !shown.includes(o)).map((o) => rsChips.get(o)));
  }
  const hidden = [...on].filter((o) => !shown.includes(o)).length;
  $('#rs-more summary').textContent = hidden ? `more options… (${hidden} on)` : 'more options…';
}

// groupUnits makes rows of a units list: neighbours that are the same unit
// share a row with a count.
const canon = (u) => JSON.stringify(Object.keys(u).sort().map((k) => [k, u[k]]));
function groupUnits(units) {
  const rows = [];
  for (const u of units) {
    const last = rows.at(-1);
    if (last && canon(last.u) === canon(u)) last.n++;
    else rows.push({ u: structuredClone(u), n: 1 });
  }
  return rows;
}
// syncUnits writes a side's rows to the document, one entry per unit.
function syncUnits(side) {
  if (!doc[side] || isPlan() && side === 'attacker' && !stacks[side].length) return;
  doc[side].units = stacks[side].flatMap(({ u, n }) => Array.from({ length: n }, () => structuredClone(u)));
}

function renderSide(side) {
  doc[side] ??= {};
  const box = $('#' + side);
  $('.side-fields', box).replaceChildren(...sideFields[side].map((f) => field(doc[side], f, changed, side)));
  $('.units', box).replaceChildren(...stacks[side].map((row, r) => unitRow(side, row, r)));
  drawCounters(side);
  // A plan's available units and a front's defenders are on the Plan tab.
  const plan = side === 'attacker' ? !!doc.attacker?.available : !!doc.targets;
  // A defender's plan keeps the hex's own defenders here; its reserves
  // are on the Plan tab.
  const reserves = side === 'defender' && !doc.targets && !!doc.defender?.available;
  box.classList.toggle('planned', plan);
  const note = $('.plan-note', box);
  note.hidden = !plan && !reserves;
  if (side === 'defender') note.textContent = reserves ? 'The reserves this plan may add are listed on the Plan tab.' : "Each target hex's defender is listed on the Plan tab.";
  $('#hex').classList.toggle('planned', !!doc.targets);
}

const MAX_COUNT = 20;
function unitRow(side, row, r) {
  const rows = stacks[side];
  const who = side === 'attacker' ? 'Attacking' : 'Defending';
  const name = `${who} row ${r + 1}`;
  const idp = `${side}-${r}`;
  const restructure = (focusSel) => {
    renderSide(side);
    changed();
    if (focusSel) $(`[data-row="${side}-${Math.min(r, stacks[side].length - 1)}"] ${focusSel}`)?.focus();
  };
  const setCount = (n) => {
    row.n = Math.max(1, Math.min(MAX_COUNT, Math.round(n) || 1));
    count.value = row.n;
    minus.disabled = row.n <= 1;
    plus.disabled = row.n >= MAX_COUNT;
    drawCounters(side);
    changed();
  };
  const count = el('input', { type: 'number', id: `${idp}-count`, min: 1, max: MAX_COUNT, step: 1, value: row.n, inputmode: 'numeric', 'data-field': 'count' });
  count.addEventListener('input', () => { if (count.value !== '') setCount(Number(count.value)); });
  const minus = el('button', { type: 'button', class: 'minus', 'aria-label': `One fewer, ${name.toLowerCase()}`, text: '−', onclick: () => setCount(row.n - 1) });
  const plus = el('button', { type: 'button', class: 'plus', 'aria-label': `One more, ${name.toLowerCase()}`, text: '+', onclick: () => setCount(row.n + 1) });
  minus.disabled = row.n <= 1;
  const countBox = el('div', { class: 'count' }, minus,
    el('label', { for: count.id }, el('span', { class: 'visually-hidden', text: `how many, ${name.toLowerCase()}` }), count), plus);
  const edited = () => { drawCounters(side); changed(); flagMark(); };
  const main = rowMain.map((f) => field(row.u, f, edited, idp, true));
  const pop = el('details', { class: 'flags' }, el('summary', { 'aria-label': `More keys, ${name.toLowerCase()}`, text: '⋯' }),
    el('div', { class: 'pop' }, el('div', { class: 'grid' }, ...rowFlags.map((f) => field(row.u, f, edited, idp)))));
  const flagMark = () => pop.classList.toggle('flag-on', rowFlags.some(([k]) => row.u[k] !== undefined && k !== 'supply' || k === 'supply' && row.u.supply === false));
  flagMark();
  const actions = el('div', { class: 'row-actions' }, pop,
    el('button', { type: 'button', class: 'dup', 'aria-label': `Duplicate ${name.toLowerCase()} as a new row`, title: 'Duplicate as a new row', text: 'copy',
      onclick: () => { rows.splice(r + 1, 0, structuredClone(row)); r++; restructure('[data-field="type"]'); } }),
    el('button', { type: 'button', class: 'remove', 'aria-label': `Remove ${name.toLowerCase()}`, title: 'Remove', text: '✕',
      onclick: () => { rows.splice(r, 1); restructure('[data-field="type"]'); } }));
  const e = el('div', { class: 'row', 'data-row': `${side}-${r}`, role: 'group', 'aria-label': name }, countBox, ...main, actions);
  // Keyboard first: Enter adds an empty row below this one (a copy was
  // too easy to make unseen on a phone, issue 27: copy is a button), of
  // this row's nation, as players say a stack; its factors are left for
  // the player, and until they are given the engine's "factors: missing"
  // shows beside them. Ctrl+arrows move to the same field of the row
  // above or below.
  e.addEventListener('keydown', (ev) => {
    const f = ev.target.dataset?.field;
    if (ev.key === 'Enter' && f && ev.target.tagName !== 'BUTTON') {
      ev.preventDefault();
      rows.splice(r + 1, 0, { u: { type: 'INF', size: 'corps', nation: row.u.nation }, n: 1 });
      r++;
      // The new row's first field, its count: a select focused by Enter
      // could take the key's release as a click and open.
      restructure('[data-field="count"]');
    } else if ((ev.key === 'ArrowDown' || ev.key === 'ArrowUp') && ev.ctrlKey && f) {
      ev.preventDefault();
      $(`[data-row="${side}-${r + (ev.key === 'ArrowDown' ? 1 : -1)}"] [data-field="${f}"]`)?.focus();
    }
  });
  return e;
}

// ---- Counters: the stack drawn as the game's counters ----------------------
const nationColours = { GE: '#4b5560', IT: '#2f6b3a', JA: '#9c4a00', FR: '#2b4f9e', CW: '#7a5526', US: '#3f5e2a', USSR: '#9b2226',
  CH: '#1f6a73', CC: '#b3261e', FI: '#385d8a', RO: '#6b4c8a', HU: '#5f6b2a', VF: '#44658f' };
function symbol(type) {
  // The unit-type symbols of the counters: a box, with a cross for
  // infantry, an oval for armour, both for mechanised; other types by code.
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 16');
  const add = (tag, a) => { const x = document.createElementNS(svg.namespaceURI, tag); for (const [k, v] of Object.entries(a)) x.setAttribute(k, v); svg.append(x); };
  add('rect', { x: 1, y: 1, width: 22, height: 14, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.5 });
  if (['INF', 'MECH', 'MTN', 'MAR', 'PARA', 'MIL', 'GARR', 'TERR', 'SKI', 'CMDO', 'CHINDIT', 'PART', 'REPL', 'HQ-I'].includes(type)) {
    add('path', { d: 'M1 1L23 15M23 1L1 15', stroke: 'currentColor', 'stroke-width': 1.2 });
  }
  if (['ARM', 'MECH', 'HQ-A'].includes(type)) add('ellipse', { cx: 12, cy: 8, rx: 7, ry: 4, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.2 });
  if (['ART', 'AT', 'AA'].includes(type)) add('circle', { cx: 12, cy: 8, r: 2.5, fill: 'currentColor' });
  if (type === 'CAV') add('path', { d: 'M1 15L23 1', stroke: 'currentColor', 'stroke-width': 1.2 });
  return svg;
}
function counter(u, n) {
  const c = el('span', { class: 'counter' + (u.face_down ? ' fd' : ''), title: `${n > 1 ? n + '× ' : ''}${u.nation} ${u.type} ${u.size ?? 'corps'} ${u.factors}${u.face_down ? ', face-down' : ''}` },
    symbol(u.type), el('b', { text: u.factors ?? '?' }), el('span', { text: `${u.type}${n > 1 ? '' : ''}` }));
  c.style.background = nationColours[u.nation] ?? '#555d66';
  if (n > 1) c.append(el('span', { class: 'n', text: `×${n}` }));
  return c;
}
// stackWords reads a side's stack as words, for those who cannot see
// the counters.
const stackWords = (side) => stacks[side].map(({ u, n }) => `${n > 1 ? n + ' ' : ''}${u.nation} ${u.type} ${u.factors}`).join(', ') || 'nothing';
function drawCounters(side) {
  $(`#${side} .counters`).replaceChildren(...stacks[side].map(({ u, n }) => counter(u, n)));
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
  for (const t of ['compare', 'sweep', 'plan', 'table']) $('#tab-' + t).disabled = raid;
  if (raid && tab !== 'run') selectTab('run');
}

// A plan file: the attacker lists the units a plan may send, or the file
// has a front of target hexes.
const isPlan = (d = doc) => !!(d.attacker?.available || d.targets || d.plan);
// A defender's plan (plan.side: defender) asks which reserves hold the hex.
const isDefence = (d = doc) => d.plan?.side === 'defender';

// ---- Quick entry: a stack typed on one line, read by the engine ---------
async function quickEntry(side, replace) {
  const input = $(`#quick-${side}`);
  const msg = $(`#quick-${side}-msg`);
  const text = input.value.trim();
  if (!text) return;
  const { status, json } = await engine.call('stack', { text });
  if (status !== 200) {
    msg.textContent = json.error;
    msg.hidden = false;
    input.setAttribute('aria-invalid', 'true');
    return;
  }
  msg.hidden = true;
  input.removeAttribute('aria-invalid');
  const rows = groupUnits(json.map(tidyUnit));
  stacks[side] = replace ? rows : [...stacks[side], ...rows];
  renderSide(side);
  changed();
  // The attacker set and no defender yet (issue 27): the keys go on to the
  // defender's box, brought into view on a phone.
  // Both stacks set on a phone (issue 27: the player scrolled 700 px to
  // the Combat panel): a line under the bar's button points to the rules
  // strip and the dice, behind it, until it is pressed.
  if (side === 'defender' && stacks.attacker.length) rulesCue(getComputedStyle($('#summary-bar')).display !== 'none');
  if (side === 'attacker' && !stacks.defender.length) {
    const next = $('#quick-defender');
    next.focus({ preventScroll: true });
    next.closest('.quick').scrollIntoView({ block: 'nearest' });
  }
}
// diceMisread says under the Rolled box that a roll typed is not a number
// (bad, the first such), or takes the note away (null).
function diceMisread(bad) {
  const msg = $('#dice-msg');
  msg.hidden = bad === null;
  msg.textContent = bad === null ? '' : `"${bad}" is not a roll: type the numbers rolled, e.g. 5, 1`;
  if (bad === null) $('#dice').removeAttribute('aria-invalid'); else $('#dice').setAttribute('aria-invalid', 'true');
}
// rulesCue shows or hides the phone bar's pointer to the rules strip.
function rulesCue(on) {
  $('#sb-cue').hidden = !on;
  $('#sb-more').classList.toggle('cue', on);
}
// commonOptions are the options most combats play with (issue 27: wild
// results was one of ten chips in no obvious order): wild results, the
// 2D6 table's blitz and territorial modifiers (AfA 3.11), fractional odds.
// The chips show them first, the rare ones after; the file keeps the
// schema's order.
const commonOptions = ['wild-results', 'blitz-modifier', 'territorial-modifiers', 'fractional-odds', 'fractional-odds-d10'];
const commonFirst = (opts) => [...commonOptions.filter((o) => opts.includes(o)), ...opts.filter((o) => !commonOptions.includes(o))];

// newCombat clears the example (issue 27: players had to guess that Set
// replaces a stack): both stacks, the replayed dice and the name go; the
// kind, the rules and the hex stay as set; the attacker's quick-entry box
// takes the keys.
// defenderPending holds from New combat until the player touches the
// defender: until then an empty defender is the next step, not an error.
let defenderPending = false;
function newCombat() {
  defenderPending = true;
  rulesCue(false);
  notTheExample();
  for (const side of ['attacker', 'defender']) {
    stacks[side] = [];
    $(`#quick-${side}`).value = '';
    renderSide(side);
  }
  delete doc.dice;
  delete doc.name;
  $('#dice').value = '';
  diceMisread(null);
  $('#name').value = '';
  changed();
  $('#quick-attacker').focus();
}
// notTheExample drops the intro's "the page opens on an example combat"
// once the combat on show is not the example: after New combat, a file or
// a share link (issue 27: the line stayed true only until then).
function notTheExample() {
  $('#intro-example').hidden = true;
  $('#intro-restored').hidden = true;
}
// showExample puts the example back as a fresh visit shows it, and
// forgets the kept combat: the next visit is a fresh one too.
function showExample() {
  for (const side of ['attacker', 'defender']) $(`#quick-${side}`).value = '';
  load(defaultDoc());
  $('#intro-example').hidden = false;
  if (tab === 'plan') selectTab('run');
  forgetKept();
  history.replaceState(null, '', location.pathname + location.search);
}
// tidyUnit drops the keys that say what a missing key says anyway.
function tidyUnit(u) {
  const out = { type: u.type, size: u.size, factors: u.factors, nation: u.nation };
  if (u.face_down) out.face_down = true;
  if (u.supply === false) out.supply = false;
  return out;
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
      // An empty defender stays in a land combat of one hex, so the engine
      // names what is missing (defender.units: "a land combat needs at
      // least one defending unit") and the page puts it under the
      // defender's stack; a front's defenders are its targets'.
      if (!Object.keys(v).length && k !== 'attacker' && !(k === 'defender' && d.kind === 'land' && !d.targets)) continue;
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
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) for (const x of [].concat(v)) q.append(k, x);
      if (command === 'schema' || command === 'stack') { // read-only: GET
        const res = await fetch(`/api/${command}?${q}`, { signal });
        return { status: res.status, json: await res.json() };
      }
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
      if (data.warmed) { performance.mark('wifodds engine warmed'); return; } // for the browser test
      const p = pending.get(data.id);
      pending.delete(data.id);
      busySince = pending.size ? performance.now() : 0;
      // The engine's own time in the worker, for the browser test
      // (performance.getEntriesByName): only the latest is kept.
      if (data.ms !== undefined) {
        performance.clearMeasures('wifodds engine call');
        performance.measure('wifodds engine call', { end: performance.now(), duration: data.ms });
      }
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
      worker.postMessage({ id, command, request: JSON.stringify({ command, params: ps, ...(req ?? {}) }) });
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
// call drops an older one's answer, and so does an edit made while it was
// on its way (its own call follows): an answer is drawn only for the
// combat as it is.
async function api(command, d, params = {}) {
  inflight?.abort();
  const ctl = new AbortController();
  inflight = ctl;
  const edit = edits;
  const started = performance.now();
  // The spinner shows only if the answer is not back within 100 ms (or
  // progress came first): an exact answer takes a few, and drawing the
  // spinner meanwhile kept the page from reading the answer for several
  // more (docs/performance.md).
  const busyTimer = setTimeout(() => { if (!$('#status').classList.contains('busy')) setStatus('Computing…', true); }, 100);
  try {
    const { status, json } = await engine.call(command, params, requestOf(d), ctl.signal);
    if (ctl.signal.aborted) throw new DOMException('Superseded', 'AbortError');
    if (edit !== edits) throw new DOMException('Edited', 'AbortError');
    if (status !== 200) throw new Error(json.error ?? `status ${status}`);
    showError('');
    stale(false);
    return { json, ms: performance.now() - started };
  } finally {
    clearTimeout(busyTimer);
    if (inflight === ctl) { inflight = null; setStatus('', false); }
  }
}

function setStatus(text, busy) {
  $('#status').classList.toggle('busy', busy);
  $('#cancel').hidden = !busy;
  if (text || busy) $('#status-text').textContent = text;
}
// The engine's error for a scenario key: "request.yaml:LINE:COL: KEY:
// message" (the file is the page's own, which the player never sees), one
// a line, perhaps behind a prefix ("scenario: ").
const keyError = /^(?:[a-z ]+: )?request\.(?:yaml|json):(\d+):(\d+): ([A-Za-z0-9_.[\]]+): (.*)$/;
const diceError = /^dice: (?:dice\[(\d+)\]: )?(.*)$/;
const itemWords = { units: 'unit', aa_units: 'AA unit', bombers: 'bomber', naval_strikes: 'ship', aircraft: 'aircraft', targets: 'target hex',
  available: 'available unit', support_available: 'support' };
// keyWords says a key path as a player would: "attacker.units[0].factors"
// is "Attacker, unit 1: factors", "hex.terrain" is "Hex: terrain".
function keyWords(path) {
  const side = path.match(/^(attacker|defender)\.units$/);
  if (side) return `${side[1][0].toUpperCase()}${side[1].slice(1)}'s units`;
  const parts = path.split('.').map((k) => {
    const m = k.match(/^(\w+)\[(\d+)\]$/);
    return m ? `${itemWords[m[1]] ?? words(m[1])} ${Number(m[2]) + 1}` : keyLabel(k);
  });
  const said = parts.length > 1 && !/\]$/.test(path) ? `${parts.slice(0, -1).join(', ')}: ${parts.at(-1)}` : parts.join(', ');
  return said[0].toUpperCase() + said.slice(1);
}
// friendly is one line of the engine's error in the player's words (the
// key path said as above; an imported file's name and line instead of the
// page's own request.yaml, which the player never sees), and the key path
// when the line names one.
function friendly(line, file) {
  // Replayed dice the combat cannot use: "dice: dice[0]: 9 is not a roll
  // of the d6 …", the dice box's.
  const dice = line.match(diceError);
  if (dice) return { text: `Dice${dice[1] ? `, roll ${Number(dice[1]) + 1}` : ''}: ${dice[2]}`, path: 'dice' };
  const m = line.match(keyError);
  if (!m) return { text: line.replace(/^(?:[a-z ]+: )?request\.(?:yaml|json):/, file ? file + ':' : ''), path: null };
  const where = file ? `${file}, line ${m[1]}: ` : '';
  return { text: `${where}${keyMessage(m[3], m[4])}`, path: m[3] };
}
// keyMessage says the engine's message on a key as one sentence: the key
// then the message when the message goes on from the key's value
// ("Attacker: ground support -1 is outside …", "Bomber 1: a2a missing"),
// the message alone under its owner when it names the key itself ("Hex: a
// reference town is not a city …", not "Hex: reference town a reference
// town …"), else the key as the owner's ("Hex, terrain: …").
function keyMessage(path, msg) {
  const said = keyWords(path);
  const cut = path.endsWith(']') ? -1 : said.lastIndexOf(': ');
  if (cut < 0) return `${said}: ${msg}`;
  const whose = said.slice(0, cut), key = said.slice(cut + 2);
  if (/^(?:[-+]?[\d.]|["'[(]|missing\b|empty\b)/.test(msg)) return `${whose}: ${key} ${msg}`;
  if (msg.toLowerCase().includes(key.toLowerCase())) return `${whose}: ${msg}`;
  return `${whose}, ${key}: ${msg}`;
}
const rawLine = (raw) => el('details', { class: 'raw' }, el('summary', { text: 'details' }), el('code', { text: raw }));
// showError shows each line of an error beside the control that caused
// it when its key path names one, else above the answer, in the player's
// words with the engine's own message folded below. A file's errors (an
// import: file is its name) are all shown above the answer, named by the
// file and its lines: the controls hold the combat the page had, not the
// file.
function showError(msg, file) {
  for (const e of document.querySelectorAll('.field-error.attached')) e.remove();
  // The stacks' typed lines and the Rolled box say their own misreadings.
  for (const e of document.querySelectorAll('[aria-invalid=true]:not(.quick-text):not(#dice)')) e.removeAttribute('aria-invalid');
  // A control an error was attached to gets its own description back.
  for (const c of document.querySelectorAll('[data-attached]')) {
    c.removeAttribute('aria-invalid');
    if (c.dataset.attached) c.setAttribute('aria-describedby', c.dataset.attached); else c.removeAttribute('aria-describedby');
    delete c.dataset.attached;
  }
  const away = [];
  for (const line of (msg || '').split('\n').filter((l) => l.trim())) {
    const f = friendly(line, file);
    if (file || !attachError(f, line)) away.push(f.text);
  }
  const box = $('#error');
  box.hidden = !away.length;
  box.replaceChildren();
  if (!away.length) return;
  if (file) box.append(el('strong', { text: `Not loaded: ${file} has ${away.length === 1 ? 'an error' : away.length + ' errors'}; the page still shows the combat it had.` }), '\n');
  box.append(away.join('\n'), rawLine(file ? msg.replace(/request\.(yaml|json)/g, file) : msg));
}
function attachError(f, raw) {
  const control = f.path && controlFor(f.path);
  if (!control || control.closest('[hidden]')) return null;
  control.setAttribute('aria-invalid', 'true');
  const note = el('div', { class: 'field-error attached', role: 'alert', id: 'err-' + (++uid) }, el('span', { text: f.text }), rawLine(raw));
  const own = control.getAttribute('aria-describedby');
  if (!('attached' in control.dataset)) control.dataset.attached = own ?? '';
  control.setAttribute('aria-describedby', [own, note.id].filter(Boolean).join(' '));
  for (let d = control.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
  noteAnchor(control).after(note);
  return note;
}
// noteAnchor is what an error's note goes under: a stack's typed line's
// own message (so the note is under the side's stack box), a unit's row,
// a group of chips, a number box's −/+ line, the dice's line, a
// checkbox's label, else the control itself.
function noteAnchor(c) {
  if (c.classList.contains('quick-text')) return $(c.id.startsWith('quick-') ? `#${c.id}-msg` : `#${c.id.replace(/-quick$/, '-msg')}`) ?? c;
  return c.closest('.row, .unit, .chips, .mod-step, .dice-line') ?? (c.type === 'checkbox' ? c.closest('label') : null) ?? c;
}
// controlFor is the control a scenario key path is entered in.
function controlFor(path) {
  let m = path.match(/^(attacker|defender)\.units\[(\d+)\](?:\.(\w+))?/);
  if (m) {
    const [, side, i, f] = m;
    let r = 0;
    for (let seen = 0; r < stacks[side].length && seen + stacks[side][r].n <= Number(i); r++) seen += stacks[side][r].n;
    const row = $(`[data-row="${side}-${r}"]`);
    return row && ((f && $(`[data-field="${f}"]`, row)) || $('[data-field="count"]', row));
  }
  // A side with no units (the engine names the side, or its units): the
  // side's stack box.
  if ((m = path.match(/^(attacker|defender)(?:\.units)?$/))) return $(`#quick-${m[1]}`);
  // The attacker's ships and aircraft, a raid's AA units and bombers: rows
  // of their own.
  if ((m = path.match(/^(?:attacker\.)?(naval_strikes|aircraft|aa_units|bombers)\[(\d+)\](?:\.(\w+))?/))) {
    const rows = $({ naval_strikes: '#ship-rows', aircraft: '#aircraft-rows', aa_units: '#aa-rows', bombers: '#bomber-rows' }[m[1]]);
    const row = rows?.querySelectorAll(':scope > .unit')[Number(m[2])];
    return row && ((m[3] && $(`[data-field="${m[3]}"]`, row)) || $('input, select', row));
  }
  if ((m = path.match(/^(attacker|defender)\.(\w+)/))) return $(`#${m[1]} .side-fields [data-field="${m[2]}"]`);
  if ((m = path.match(/^hex\.(\w+)/))) return $(`[data-key="hex.${m[1]}"]`) ?? $(`#hex-flags [data-field="${m[1]}"]`);
  if ((m = path.match(/^target\.(\w+)/))) return $(`[data-key="target.${m[1]}"]`);
  // A plan's own keys and a front's target hexes, on the Plan tab.
  if ((m = path.match(/^plan\.(target|cost|objective)/))) return $({ target: '#plan-target', cost: '#plan-cost', objective: '#plan-objective' }[m[1]]);
  if ((m = path.match(/^targets\[(\d+)\]\.(id|hex\.terrain|defender)/))) return $(`#target-${m[1]}-${{ id: 'id', 'hex.terrain': 'terrain', defender: 'quick' }[m[2]]}`);
  if ((m = path.match(/^(\w+)/))) return ({ dice: $('#dice'), crt: $('#crt'), options: $('#options input') })[m[1]] ?? $(`[data-key="${m[1]}"]`);
  return null;
}
// stale marks the answer on show (and the phone's bar) as not the
// current combat's, after an error or a cancelled run; an answer clears it.
function stale(on, why = '') {
  $('#results').classList.toggle('stale', on);
  $('#summary-bar').classList.toggle('stale', on);
  $('#sb-stale').hidden = !on;
  $('#stale-note').hidden = !on;
  $('#stale-note').textContent = on ? `Not the current combat: ${why}, so what is below is the answer to the combat as it was before.` : '';
}
async function guarded(f) {
  try { await f(); } catch (e) {
    if (e.name === 'AbortError') {
      // A newer request superseded this one, or an edit this answer is
      // not for: the current answer is on the way.
      if (inflight || e.message === 'Edited') return;
      $('#status-text').textContent = 'Cancelled';
      stale(true, 'the run was cancelled');
      return;
    }
    showError(e.message);
    const scenario = e.message.split('\n').some((l) => keyError.test(l) || diceError.test(l) || /^scenario: /.test(l));
    $('#status-text').textContent = scenario ? 'The scenario needs a fix' : tab === 'sweep' ? 'The sweep range needs a fix' : 'No answer: see the message';
    stale(true, scenario ? 'the combat as entered has an error' : 'the request has an error');
  }
}

let lastEdit = 0; // when the player last changed the combat
let edits = 0; // how many times the player has changed the combat: an answer asked for before the latest is not drawn
let firstAnswerMs = null; // when the first answer was drawn, for the browser test
function changed() {
  syncUnits('attacker');
  syncUnits('defender');
  syncRules();
  countedLine();
  edits++;
  lastEdit = performance.now();
  clearTimeout(timer);
  timer = setTimeout(refresh, 25); // short: an exact answer takes about a millisecond
  history.replaceState(null, '', '#s=' + encodeDoc());
  keepSoon();
}

// countedLine says beside the Modifier box what the page itself sets and
// the engine counts (issue 27: a player deciding the net modifier counted
// the terrain twice): the hex's terrain, weather, multiplier and features,
// and each side's HQ support, in the page's words. It states only what the
// page sets, never a modifier's value.
function countedLine() {
  const h = doc.hex ?? {};
  const out = [];
  if (h.terrain) out.push(`${words(h.terrain)} terrain`);
  if (h.weather) out.push(`${words(h.weather)} weather`);
  if (h.defence_multiplier !== undefined && h.defence_multiplier !== '') out.push(`defence ×${h.defence_multiplier}`);
  for (const f of schema.hex_flags) {
    if (f.key === 'supply' ? h.supply === false : h[f.key] === true) out.push(f.key === 'supply' ? 'defender out of supply' : f.label.toLowerCase());
  }
  if (doc.attacker?.hq_support) out.push("attacker's HQ support");
  if (doc.defender?.hq_support) out.push("defender's HQ support");
  diceHint();
  $('#modifier-counted').textContent = doc.targets ? "counted here: each target hex's terrain and weather (Plan tab)" : `counted here: ${out.join(', ') || 'nothing yet'}`;
}

// diceHint is the dice box's one line: what a player holding the dice
// most needs, which roll comes first under wild results (AsA 3.14,
// docs/rules.md §8); the rest is behind "how the rolls are read". Two or
// more rolls typed, and the answer's replay of them in (issue 27: a
// player who typed two dice wondered which was whose), it says whose
// each roll was (rollRoles).
let lastReplay = null; // the answer's replay of the dice, drawn by summary
function diceHint() {
  const wild = (doc.options ?? []).includes('wild-results');
  const typed = $('#dice').value.split(/[\s,]+/).filter(Boolean);
  const roles = typed.length > 1 && lastReplay && lastReplay.dice.join() === typed.join() ? rollRoles(lastReplay) : '';
  $('#dice-hint').textContent = roles || (wild ? "attacker's roll first under wild results" : doc.crt === '2d6' ? 'a 2d6 roll is two dice' : 'one die a roll, in the rules\' order');
}
// rollRoles says whose each replayed roll was, from the replay alone:
// the table's roll is the last of the rolls used (docs/rules.md §8, dice
// lists), its totals the attacker's then the defender's under wild
// results (crt_roll); the rolls before it were the pre-combat rolls, the
// rest unused. "5 = attacker, 1 = defender"; "5 = the combat roll; 1
// unused". Empty when the dice do not add up to the table's totals (an
// uploaded table's own dice): better no words than wrong ones.
function rollRoles(r) {
  const totals = r.crt_roll?.dice ?? [];
  const per = doc.crt === '2d6' ? 2 : 1; // a 2d6 total is two rolls
  const start = r.dice_used - totals.length * per;
  if (start < 0) return '';
  const groups = totals.map((_, i) => r.dice.slice(start + i * per, start + (i + 1) * per));
  if (groups.some((g, i) => g.reduce((a, b) => a + b, 0) !== totals[i])) return '';
  const say = (g) => g.join('+');
  const out = [];
  if (start > 0) out.push(`${r.dice.slice(0, start).join(', ')} = before the combat roll`);
  if (groups.length === 2) out.push(`${say(groups[0])} = attacker, ${say(groups[1])} = defender`);
  else if (groups.length === 1) out.push(`${say(groups[0])} = the combat roll`);
  else out.push('no table roll (an automatic result)');
  if (r.unused_dice > 0) out.push(`${r.dice.slice(r.dice_used).join(', ')} unused`);
  return out.join('; ');
}

function refresh() {
  if (tab === 'run') return guarded(runNow);
  if (tab === 'compare') return guarded(compareNow);
  if (tab === 'sweep') return guarded(sweepNow);
  if (tab === 'plan') return guarded(planNow);
  if (tab === 'table') return guarded(tableNow);
}

// methodLine says how the answer was had, in a player's words (issue 27:
// "36 dice paths" read as jargon): every way the dice can fall, or the
// combats sampled.
function methodLine(j, ms) {
  const n = j.paths ?? 0;
  const how = j.method === 'exact'
    ? `Exact: ${n === 1 ? 'the one way' : `all ${n.toLocaleString('en')} ways`} the dice can fall`
    : `Monte Carlo: ${(j.trials ?? 0).toLocaleString('en')} trials, seed ${j.seed}`;
  return `${how} · ${Math.round(ms)} ms`;
}

// summary puts the headline figures in the phone's sticky bar.
// summary fills the phone's bar; replay is a land combat's replayed dice,
// if any.
function summary(hex, odds, table, replay, opts = '') {
  diceSummary(replay);
  lastReplay = replay ?? null;
  diceHint();
  $('#sb-hex').textContent = hex;
  $('#sb-odds').textContent = odds;
  $('#sb-table').textContent = table;
  $('#sb-table-k').textContent = opts ? `table · ${opts}` : 'table';
}

// ---- Odds ---------------------------------------------------------------
// newAndEmpty reports a combat with no units on either side, as New
// combat leaves it: nothing to answer yet.
const newAndEmpty = () => doc.kind !== 'bombardment' && !isPlan() && !stacks.attacker.length && !stacks.defender.length;
// awaitingDefender reports New combat's attacker entered and its defender
// not yet touched.
const awaitingDefender = () => defenderPending && doc.kind !== 'bombardment' && !isPlan() && !doc.targets && !stacks.defender.length;
// waiting shows a new combat's next step where the answer goes.
function waiting(note, status) {
  showError('');
  stale(false);
  $('#headline').replaceChildren();
  answerParts();
  tableWhy(null);
  $('#run-detail').replaceChildren(el('p', { class: 'hint', id: 'new-note', text: note }));
  summary('—', '—', '—');
  $('#status-text').textContent = status;
}
async function runNow() {
  if (isPlan()) {
    $('#headline').replaceChildren();
    answerParts();
    $('#run-detail').replaceChildren(el('p', { class: 'plan-note', id: 'plan-file-note' }, 'This is a plan file: its units are choices, not one combat. ',
      el('button', { type: 'button', text: 'See the plan', onclick: () => selectTab('plan') })));
    summary('plan', '—', '—');
    return;
  }
  // A new combat: nothing to answer yet, and nothing wrong either.
  if (newAndEmpty()) return waiting("A new combat: type each side's units and press Enter; the odds follow.", 'Waiting for the stacks');
  // New combat, then only the attacker: the defender is the next step.
  if (awaitingDefender()) return waiting("Now the defender: type its units in the defender's box and press Enter; the odds follow.", 'Waiting for the defender');
  const params = { method: 'auto', explain: $('#explain').checked };
  const raids = Number($('#raids').value || 1);
  if (doc.kind === 'bombardment' && raids > 1) params.raids = raids;
  const { json, ms, diceWrong } = await runAsked(params);
  if (newAndEmpty() || awaitingDefender()) return; // New combat was pressed while this ran
  $('#status-text').textContent = methodLine(json, ms);
  if (doc.kind === 'bombardment') renderRaid(json); else renderLand(json);
  // The odds stand; the rolls typed are said to be wrong beside their box.
  if (diceWrong) showError(diceWrong);
  if (lastEdit && window.wifodds) window.wifodds.editToAnswerMs = performance.now() - lastEdit;
  firstAnswerMs ??= performance.now(); // after navigation: the page's clock starts there
  if (window.wifodds) Object.assign(window.wifodds, { firstAnswerMs, answerMs: ms });
}

// runAsked is the combat's answer. Rolls the combat cannot use (a 7 on
// a d6) are the dice box's error, not the combat's: the odds do not
// depend on them (issue 27: a roll mistyped struck the odds as not
// current), so the combat is answered without them and diceWrong holds
// the engine's message for the box.
async function runAsked(params) {
  try {
    return await api('run', doc, params);
  } catch (e) {
    const lines = e.name === 'AbortError' || doc.dice === undefined ? [] : e.message.split('\n').filter((l) => l.trim());
    if (!lines.length || !lines.every((l) => diceError.test(l))) throw e;
    const rest = { ...doc };
    delete rest.dice;
    return { ...(await api('run', rest, params)), diceWrong: e.message };
  }
}

function card(key, value, sub, id, raw, cls) {
  // --chars sizes a long figure ("assault / blitz") to fit its card (style.css).
  const v = el('div', { class: 'v', text: value });
  v.style.setProperty('--chars', Math.max(7, String(value).length));
  return el('div', { class: 'card' + (cls ? ' ' + cls : ''), id, 'data-value': raw }, v, el('div', { class: 'k', text: key }), el('div', { class: 'k', text: sub || '\u00a0' }));
}
function bars(title, entries, cls, what) {
  const box = el('div', {}, title ? el('h3', { text: title }) : null);
  for (const [k, p] of entries) {
    box.append(el('div', { class: 'bar ' + (cls ?? '') }, el('span', {}, k, what ? el('span', { class: 'what', text: ' ' + what(k) }) : null),
      el('span', { class: 'track' }, el('span', { class: 'fill', style: { width: `${Math.max(0.2, 100 * p)}%` } })), el('span', { class: 'pct', text: pct(p) })));
  }
  return box;
}
function interval(e) { return e.lo === e.hi ? '' : `95%: ${pct(e.lo)} – ${pct(e.hi)}`; }
// trim drops a distribution's zero tails, keeping the indices.
function trim(dist) {
  const entries = dist.map((x, i) => [String(i), x]);
  let lo = 0, hi = entries.length - 1;
  while (lo < hi && entries[lo][1] === 0) lo++;
  while (hi > lo && entries[hi][1] === 0) hi--;
  return entries.slice(lo, hi + 1);
}

// Result codes read as the CLI's text report reads them (reports/text.go):
// grouped by the attacker's part, its worst first, then the defender's,
// its mildest first. This orders and words what the engine computed.
const legendText = 'Results read attacker/defender: a number is units lost, - no loss (attackers face-down), * attackers stay face-up, ' +
  'R the defenders retreat, S they are shattered, B breakthrough.';
function parts(code) {
  const m = code.match(/^(\d+|-|\*)\/(\d*)([RSB]?)$|^(\d+|-|\*)\/-$/);
  if (!m) return null;
  const a = m[1] ?? m[4];
  const att = a === '*' ? 1 : a === '-' ? 0 : -Number(a);
  const lost = Number(m[2] || 0);
  const eff = { '': 0, R: 1, S: 2, B: 3 }[m[3] ?? ''];
  return { att, a, def: lost || eff ? 1 + 4 * lost + eff : 0, lost, eff };
}
function attackerWords(a) {
  if (a === '*') return 'Attackers lose nothing and stay face-up';
  if (a === '-') return 'Attackers lose nothing and turn face-down';
  return `Attackers lose ${a} unit${a === '1' ? '' : 's'}, the rest turn face-down`;
}
function defenderWords(code) {
  const p = parts(code);
  if (!p) return '';
  const lost = p.lost ? `${p.lost} lost` : 'no loss';
  return [lost, ['', 'retreat', 'shattered', 'breakthrough'][p.eff]].filter(Boolean).join(', ');
}
function resultGroups(results) {
  const codes = Object.keys(results).filter((c) => results[c] > 0);
  codes.sort((x, y) => {
    const a = parts(x), b = parts(y);
    if (!a || !b) return (a ? 0 : 1) - (b ? 0 : 1);
    return a.att - b.att || a.def - b.def;
  });
  const box = el('div', { id: 'result-groups' }, el('h3', { text: 'Each result' }), el('p', { class: 'legend-text', id: 'legend', text: legendText }));
  let group = null, key = null;
  for (const c of codes) {
    const p = parts(c);
    const k = p ? p.a : 'other';
    if (k !== key) {
      key = k;
      const total = codes.filter((x) => (parts(x)?.a ?? 'other') === k).reduce((s, x) => s + results[x], 0);
      group = el('div', { class: 'group' }, el('h4', {}, p ? attackerWords(p.a) : 'Other outcomes', el('span', { text: pct(total) })));
      box.append(group);
    }
    group.append(bars(null, [[c, results[c]]], 'wide', defenderWords));
  }
  return box;
}

// withModifier is the odds as a player says them with the net modifier
// applied when there is one: "3:1, +1".
function withModifier(odds) {
  const m = Number(doc.modifier ?? 0);
  return m && odds !== '—' ? `${odds}, ${m > 0 ? '+' : '−'}${Math.abs(m)}` : odds;
}
// tablePick is the table card's own Table control (issue 27: a player
// switching table looked for it where the answer is), bound to the same
// key as the Combat panel's: one element kept across redraws, so it keeps
// the focus, and kept in step by syncTable.
let tablePick = null;
function tableCard(value, s) {
  if (!tablePick) {
    tablePick = el('select', { id: 'table-pick', 'aria-label': 'Table (the same as the Combat panel\'s)' }, ...schema.tables.map((v) => el('option', { value: v, text: v })));
    tablePick.addEventListener('change', () => {
      setPath(doc, 'table', valueOf(tablePick, defaults.table));
      $('#table').value = tablePick.value;
      changed();
    });
  }
  syncTable();
  const c = card('table', value, null, 'table-used');
  const [key, sub] = c.querySelectorAll('.k');
  key.replaceChildren(el('span', { text: 'table ' }), tablePick);
  // Auto's reason in a few words under the control (issue 27: a player
  // took blitz for the rules' verdict, not a choice they may change).
  const why = autoWhy(s);
  if (why) key.after(el('div', { class: 'k', id: 'table-auto-why', text: why, title: why }));
  const opts = optionsInForce();
  sub.textContent = opts ? `options: ${opts}` : 'no options';
  sub.id = 'options-in-force';
  sub.title = opts;
  return c;
}
// syncTable draws the table from the document into its three controls:
// the table card's, the rules strip's chips and the Combat panel's.
function syncTable() {
  const table = doc.table ?? defaults.table;
  if (tablePick) tablePick.value = table;
  $('#table').value = table;
  for (const r of document.querySelectorAll('#rs-table input')) r.checked = r.value === table;
  if (table !== 'auto') autoChip(null); // a table set: nothing chosen
}
// optionsInForce names the options in force in a word or two each (the
// schema's short words, scenario/words.go), for the table card and the
// phone's bar, so an option ticked that moves no figure still shows it
// took effect.
const optionsInForce = () => (doc.options ?? []).map((o) => optionWords(o).short ?? o).join(', ');

// tableWhy says beside the Table control what auto chose and why, from
// the engine's table_choices (docs/rules.md §2.3): "auto → blitz: the
// attacker has more ARM (1 against 0), so the attacker picks". Each final
// odds level of a fractional-odds roll has its own line. A table the
// player set needs no line.
function tableWhy(s) {
  autoChip(s);
  const why = $('#table-why');
  const choices = s?.table_choices ?? [];
  if (!s || (doc.table ?? 'auto') !== 'auto' || !choices.length) { why.textContent = ''; return; }
  why.textContent = choices.map((c) => {
    const at = choices.length > 1 ? `at ${c.odds}, ` : '';
    const reason = c.reason.replace(/^\([a-e]\) /, '').replace(/^otherwise /, 'no other clause applies ');
    const picks = c.chooser === 'attacker' || c.chooser === 'defender' ? `, so the ${c.chooser} picks` : '';
    return `${at}auto → ${c.table}: ${reason}${picks}`;
  }).join('; ');
}
// autoWhy is tableWhy's reason in a few words, for the table card: "auto:
// attacker's choice, more ARM", "auto: a city forces assault"; one per
// reason when a fractional-odds roll's levels differ. Empty when the
// player set the table.
function autoWhy(s) {
  if (!s || (doc.table ?? 'auto') !== 'auto') return '';
  const words = (s.table_choices ?? []).map(autoReason).filter(Boolean);
  return words.length ? 'auto: ' + [...new Set(words)].join('; ') : '';
}
// autoReason is a table choice's reason in a few words: "attacker's
// choice, more ARM", "a city forces assault"; empty for a clause with
// none.
function autoReason(c) {
  const clause = { '(b)': 'more ARM', '(c)': 'more ARM', '(d)': '3:1 and ARM', '(e)': 'equal ARM' };
  if (c.chooser === 'terrain') return c.reason.replace(/^\([a-e]\) /, '').replace(/ hex /, ' ').replace(/ forces the Assault table$/, ' forces assault');
  if (c.chooser !== 'attacker' && c.chooser !== 'defender') return '';
  const k = clause[c.reason.slice(0, 3)];
  return k ? `${c.chooser}'s choice, ${k}` : `${c.chooser}'s choice`;
}
// autoChip says in the rules strip what auto chose and why (issue 27: a
// player told "Assault applies" left with Blitz's figure): the auto chip
// reads "auto (→ blitz)", the line beside the chips "attacker's choice,
// more ARM" (each table's own reason when a fractional-odds roll's levels
// differ), the whole of tableWhy's line its tooltip. Plain "auto" and no
// line when the player set the table or no answer is in.
function autoChip(s) {
  const on = s && (doc.table ?? 'auto') === 'auto' ? s.table_choices ?? [] : [];
  const tables = [...new Set(on.map((c) => c.table))];
  const label = $('#rs-table-auto-label'), why = $('#rs-table-why');
  if (!label) return;
  label.textContent = tables.length ? `auto (→ ${tables.join(' / ')})` : 'auto';
  const reasons = [...new Set(on.map((c) => { const r = autoReason(c); return r && tables.length > 1 ? `${c.table}: ${r}` : r; }).filter(Boolean))];
  why.textContent = reasons.join('; ');
  why.title = why.textContent;
}
function renderLand(s) {
  const pickHad = tablePick && document.activeElement === tablePick;
  const p = s.probabilities;
  const levels = Object.keys(s.odds_levels);
  const tables = Object.entries(s.tables).filter(([, v]) => v > 0).map(([k]) => k);
  $('#headline').replaceChildren(
    card('P(hex taken)', pct(p.hex_taken.p), interval(p.hex_taken), 'p-hex', p.hex_taken.p, 'main'),
    card('odds', withModifier(levels.join(' / ') || '—'), `${num(s.odds.attack)} : ${num(s.odds.defence)}`, 'odds'),
    tableCard(tables.join(' / ') || '—', s),
    card('breakthrough', pct(p.breakthrough.p), interval(p.breakthrough), 'p-breakthrough', p.breakthrough.p),
    card('attackers face-up', pct(p.attacker_face_up.p), interval(p.attacker_face_up), 'p-faceup', p.attacker_face_up.p),
  );
  summary(pct(p.hex_taken.p), withModifier(levels.join(' / ') || '—'), tables.join(' / ') || '—', s.replay, optionsInForce());
  // The headline carries the footnote's mark when reconstructed table
  // values decide outcomes (issue 27: the caveat sat only at the foot of
  // the page, with nothing on P(hex taken) pointing to it).
  if ((s.warnings ?? []).some((w) => /reconstructed/.test(w))) {
    $('#p-hex .k').append(' ', el('a', { href: '#recon-note', class: 'dagger', text: '†', title: 'Some table values are reconstructed: see the note under the results', 'aria-label': 'reconstructed table values: see the note under the results' }));
  }
  if (pickHad) tablePick.focus();
  tableWhy(s);
  // The two stacks at a glance, as counters.
  const side = (name) => el('div', { class: 'counters' }, ...stacks[name].map(({ u, n }) => counter(u, n)));
  const r = s.replay;
  answerParts([el('p', { class: 'hint', id: 'read-this', text: 'How to read this: P(hex taken) is the chance the attack clears the hex (every defender destroyed, ' +
    'retreated or shattered), at these odds on this table; below, each result the table can give and the losses, with their chances.' }),
  el('div', { class: 'matchup', role: 'img', 'aria-label': `${stackWords('attacker')} against ${stackWords('defender')}` },
    side('attacker'), el('span', { class: 'vs', text: 'vs' }), side('defender'))],
  // The verdict first, as the phone's bar gives it (a fresh player read 70
  // words for it at 1280 px).
  r ? [el('h3', { id: 'dice-verdict', text: `The dice you rolled: ${r.result}, hex ${r.hex_taken ? 'taken' : 'held'}` }), el('p', { id: 'luck', text:
    `Rolls ${r.dice.join(', ')}${rollWords(r.crt_roll)}: ${r.result} at ${r.odds} on the ${r.table} table. ${r.words} ` +
    `That outcome had a ${pct(r.probability)} chance; an outcome at least as good for the attacker, ${pct(r.at_least_as_good)}.` })] : []);
  const d = $('#run-detail');
  d.replaceChildren(...warnings(s), resultGroups(s.results));
  const m = s.means;
  d.append(bars('Attacking units lost', trim(s.distributions.attacker_units_lost), 'att'),
    bars('Defending units lost', trim(s.distributions.defender_units_lost)),
    el('p', { text: `Expected losses: attacker ${num(m.attacker_units_lost.mean)} units (${num(m.attacker_factors_lost.mean)} factors), defender ${num(m.defender_units_lost.mean)} units (${num(m.defender_factors_lost.mean)} factors).` }),
    ...footnotes(s));
  if (s.working) d.append(el('h3', { text: 'The working' }), el('div', { class: 'working', text: s.working.join('\n') }));
}

// answerParts fills the parts of the Odds tab around the dice box, which
// stays put while the answer is redrawn (so the rolls being typed keep
// their focus): head, under the headline figures and above the dice (how
// to read them, the stacks), and the dice's outcome under the dice box.
function answerParts(head = [], dice = []) {
  $('#run-head').replaceChildren(...head);
  $('#dice-out').replaceChildren(...dice);
}

// footnotes are the engine's warnings on reconstructed table values, as
// one small line under the results (issue 27: a yellow box above them
// made players doubt numbers they could do nothing about in the page):
// what it means in one sentence, the engine's words, the rules link.
// It speaks to a web player (issue 27): the printed table is uploaded
// under CRT, not named in a file's crt: key as the engine's words say.
function footnotes(s) {
  return (s.warnings ?? []).filter((w) => /reconstructed/.test(w)).map((w) => {
    // The share is of this combat's outcomes (issue 27: "some cells ...
    // decide 100.0% of outcomes" read as a contradiction).
    const share = w.match(/decide ([0-9.]+%) of outcomes/);
    const rules = el('a', { href: 'https://github.com/wifodds/wifodds/blob/main/docs/rules.md', text: 'rules §0' });
    return el('p', { class: 'footnote', id: 'recon-note' },
      share ? `† ${share[1]} of these outcomes read table cells reconstructed from the 2D6 table (` : '† Table cells reconstructed from the 2D6 table (',
      rules, share ? ')' : `): ${w}`, '; upload the printed table under CRT → upload a file for official values.');
  });
}

// rollWords says what the modifier did to the CRT roll the table read
// (the engine's replay.crt_roll), so a player holding the dice can check
// it, in the CLI's words (reports/text.go): under wild results which roll
// is whose and that the modifier helps the attacker on both.
function rollWords(roll) {
  if (!roll) return '';
  const m = `modifier ${roll.modifier >= 0 ? '+' : '−'}${Math.abs(roll.modifier)}`;
  const [a, b] = roll.dice, [ra, rb] = roll.read_as;
  if (roll.dice.length === 2) return ` (${m} on both rolls, higher being better for the attacker: the attacker's ${a} reads as ${ra} and picks the defender's part, the defender's ${b} reads as ${rb} and picks the attacker's)`;
  return ` (${m}: the combat's ${a} reads as ${ra})`;
}

// diceSummary puts the replayed outcome in the phone's bar in a few words
// ("dice 5, 1: 2/2S, hex taken", a line of its own) with the engine's
// words for both parts, wrapped, never cut (issue 27: the defender's part
// was dropped): "The attackers lose 2 of their 3 units and the other turns
// face-down; both defending units are destroyed" (the plain hex clause is
// the "hex taken" already said); it empties when no dice are given.
function diceSummary(r) {
  const b = $('#sb-dice');
  b.hidden = !r;
  $('#sb-dice-v').textContent = r ? `${r.result}, hex ${r.hex_taken ? 'taken' : 'held'}` : '';
  $('#sb-dice-k').textContent = r ? `dice ${r.dice.join(', ')}:` : '';
  $('#sb-dice-w').textContent = r?.words ? r.words.replace(/\.$/, '').split('; ').filter((c) => !/^the hex (is taken|holds)$/.test(c)).join('; ') : '';
}

// warnings are the engine's warnings, each with what it means for the
// player in one sentence.
function warnings(s) {
  const out = [];
  for (const w of s.warnings ?? []) {
    if (!/reconstructed/.test(w)) out.push(el('p', { class: 'note', role: 'note', text: 'Note: ' + w + '. ' }));
  }
  const r = s.replay;
  if (r && r.random_rolls > 0 && !(s.warnings ?? []).some((w) => /random/.test(w))) {
    out.push(el('p', { class: 'note', role: 'note', text: `Note: the rolls you gave ran out; ${r.random_rolls} more ${r.random_rolls === 1 ? 'was' : 'were'} drawn at random, so this replay is one of many.` }));
  }
  if (r && r.unused_dice > 0 && !(s.warnings ?? []).some((w) => /unused|not used/.test(w))) {
    out.push(el('p', { class: 'note', role: 'note', text: `Note: ${r.unused_dice} of the rolls you gave were not needed.` }));
  }
  return out;
}

// raidWords word a raid's JSON keys as the CLI does (combat.RaidMetrics'
// labels), in the CLI's report order: its chances, then its counts.
const raidWords = {
  build_points_lost: 'P(build points lost)', asterisk: 'P(asterisk: a factory, an oil point and an AA unit hit)',
  factory_destroyed: 'P(a factory destroyed)', oil_point_lost: 'P(an oil point lost)', aa_unit_destroyed: 'P(an AA unit destroyed)',
  bomber_destroyed: 'P(a bomber destroyed)', carrier_damaged: 'P(a carrier damaged)',
  bp_lost: 'build points lost', factories_destroyed: 'factories destroyed', oil_points_lost: 'oil points lost', aa_units_destroyed: 'AA units destroyed',
  bombers_destroyed: 'bombers destroyed', carriers_damaged: 'carriers damaged', bombers_aborted: 'bombers aborted', factors_bombing: 'factors bombing',
};
const raidWord = (k) => raidWords[k] ?? words(k);
// raidOrder lists an object's entries in the CLI's order (keys it does
// not know last, as they come).
const raidOrder = (o) => {
  const order = Object.keys(raidWords);
  const at = (k) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.entries(o ?? {}).sort(([a], [b]) => at(a) - at(b));
};
// The headline cards: what the raid does to the target and what it costs
// the bombers; every chance is in the table below.
const raidCards = ['build_points_lost', 'asterisk', 'bomber_destroyed', 'aa_unit_destroyed'];
function renderRaid(s) {
  const p = s.probabilities;
  const cards = raidCards.filter((k) => p[k]);
  $('#headline').replaceChildren(...cards.map((k, i) => card(raidWord(k), pct(p[k].p), interval(p[k]), `raid-${k.replace(/_/g, '-')}`, p[k].p, i ? '' : 'main')));
  summary(p.build_points_lost ? pct(p.build_points_lost.p) : '—', '—', 'raid');
  answerParts();
  const d = $('#run-detail');
  d.replaceChildren(...warnings(s));
  const ct = el('table', { id: 'raid-chances' }, el('tr', {}, el('th', { text: 'chance' }), el('th', { text: 'P' }), el('th', { text: '95% interval' })));
  for (const [k, e] of raidOrder(p)) ct.append(el('tr', {}, el('td', { text: raidWord(k) }), el('td', { text: pct(e.p) }), el('td', { text: interval(e) || 'exact' })));
  d.append(el('h3', { text: 'Chances' }), ct);
  // A long distribution shows only the values it can take.
  for (const [k, dist] of raidOrder(s.distributions)) {
    const shown = trim(dist);
    const some = shown.length > 8 ? shown.filter(([, x]) => x > 0) : shown;
    d.append(bars(raidWord(k) + (some.length < shown.length ? ' (values with no chance left out)' : ''), some));
  }
  const t = el('table', {}, el('tr', {}, el('th', { text: 'expected' }), el('th', { text: 'mean' })));
  for (const [k, m] of raidOrder(s.means)) t.append(el('tr', {}, el('td', { text: raidWord(k) }), el('td', { text: num(m.mean) })));
  d.append(el('h3', { text: 'Means' }), t, ...footnotes(s));
  if (s.working) d.append(el('h3', { text: 'The working' }), el('div', { class: 'working', text: s.working.join('\n') }));
}

// ---- Compare: variants picked as chips ------------------------------------
const metricNames = { hex_taken: 'P(hex taken)', breakthrough: 'P(breakthrough)', attacker_face_up: 'attackers face-up',
  attacker_units_lost: 'attacking units lost', defender_units_lost: 'defending units lost' };
// variantChips lists what a variant may change: the other CRTs, the other
// tables, each option on or off, the modifier one either way.
function variantChips() {
  const out = [];
  for (const c of schema.crts) if (c !== (doc.crt ?? 'standard')) out.push([`crt=${c}`, `CRT ${c}`, `crt-${c}`]);
  for (const t of schema.tables) if (t !== (doc.table ?? 'auto')) out.push([`table=${t}`, `table ${t}`, `table-${t}`]);
  const m = doc.modifier ?? 0;
  out.push([`modifier=${m - 1}`, `modifier ${m - 1}`, 'modifier-down'], [`modifier=${m + 1}`, `modifier ${m + 1}`, 'modifier-up']);
  for (const o of schema.options) {
    const on = (doc.options ?? []).includes(o);
    const w = optionWords(o);
    out.push([`options${on ? '-' : '+'}=${o}`, `${on ? 'without' : 'with'} ${w.label.replace(/ \(.*\)$/, '')}`, `${on ? 'no' : 'with'}-${o}`, w.about]);
  }
  return out;
}
function renderChips() {
  const chips = variantChips();
  for (const v of [...compareOn]) if (!chips.some(([o]) => o === v)) compareOn.delete(v);
  if (!compareOn.size && chips[0]) compareOn.add(chips[0][0]);
  $('#compare-chips').replaceChildren(...chips.map(([o, label, , about]) => el('button', { type: 'button', class: 'chip', 'aria-pressed': String(compareOn.has(o)), 'data-variant': o, text: label, title: about,
    onclick: () => { if (compareOn.has(o)) compareOn.delete(o); else if (compareOn.size < 11) compareOn.add(o); renderChips(); refresh(); } })));
  return chips;
}
// stacksFirst shows, on the Compare, Sweep and Table tabs, the next step
// of a new combat whose stacks are not both entered yet, where the
// engine's "no units" errors went (issue 27); it reports whether it did.
function stacksFirst(...outs) {
  if (!(newAndEmpty() || awaitingDefender() || defenderPending && doc.kind !== 'bombardment' && !stacks.attacker.length)) return false;
  showError('');
  stale(false);
  for (const o of outs) $(o).replaceChildren();
  $(outs.at(-1)).append(el('p', { class: 'hint tab-prompt' }, 'Enter the attacker and the defender on the Odds tab first. ',
    el('button', { type: 'button', text: 'Go to the Odds tab', onclick: () => { selectTab('run'); $(stacks.attacker.length ? '#quick-defender' : '#quick-attacker').focus(); } })));
  $('#status-text').textContent = 'Waiting for the stacks';
  return true;
}
async function compareNow() {
  if (stacksFirst('#compare-out')) return;
  const chips = renderChips();
  const variants = ['as entered=', ...chips.filter(([o]) => compareOn.has(o)).map(([o, , name]) => `${name}=${o}`)];
  const { json, ms } = await api('compare', doc, { variant: variants, method: 'auto' });
  $('#status-text').textContent = `${json.method === 'exact' ? 'Exact' : 'Monte Carlo, common random numbers'} · ${Math.round(ms)} ms`;
  const labels = ['as entered', ...chips.filter(([o]) => compareOn.has(o)).map(([, l]) => l)];
  const t = el('table', { id: 'compare-table' }, el('tr', {}, el('th', { text: 'metric' }), ...json.variants.map((v, i) => el('th', { text: labels[i] ?? v.name }))));
  for (const [k, label] of Object.entries(metricNames)) {
    const mean = k.endsWith('lost');
    t.append(el('tr', {}, el('td', { text: label }), ...json.variants.map((v, i) => {
      const e = v.metrics[k];
      const val = mean ? num(e.p) : pct(e.p);
      const diff = i > 0 && v.difference_from_first ? v.difference_from_first[k].p : null;
      return el('td', { text: diff === null ? val : `${val} (${mean ? signedNum(diff) : signedPts(diff)})` });
    })));
  }
  const codes = [...new Set(json.variants.flatMap((v) => Object.keys(v.results)))].sort();
  const rt = el('table', {}, el('tr', {}, el('th', { text: 'result' }), ...labels.map((l) => el('th', { text: l }))));
  for (const c of codes) rt.append(el('tr', {}, el('td', { text: c }), ...json.variants.map((v) => el('td', { text: pct(v.results[c] ?? 0) }))));
  $('#compare-out').replaceChildren(t, el('details', {}, el('summary', { text: 'Each result, side by side' }), rt),
    ...(json.warnings ?? []).map((w) => el('p', { class: 'note', text: w })));
}

// ---- Charts -----------------------------------------------------------------
const colours = ['#0e6e6e', '#b4531b', '#2f8f46', '#8a4fb0'];
function chart(W, H, label) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.add = (tag, attrs, text) => { const e = document.createElementNS(svg.namespaceURI, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text !== undefined) e.textContent = text; svg.append(e); return e; };
  return svg;
}
// ticks are about n round numbers from lo to hi.
function ticks(lo, hi, n = 8) {
  const raw = (hi - lo) / n || 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * mag).find((s) => s >= raw);
  const out = [];
  for (let x = Math.ceil(lo / step) * step; x <= hi + 1e-9; x += step) out.push(Math.round(x * 1e6) / 1e6);
  return out;
}
// axes draws the frame, the y axis in percent (or plain numbers up to
// yMax) and x ticks; it returns the scales.
function axes(svg, { W, H, L = 46, B = 34, x0, x1, yMax = 1, percent = true, xLabel, yLabel }) {
  const X = (x) => L + (W - L - 12) * (x - x0) / ((x1 - x0) || 1), Y = (y) => H - B - (H - B - 26) * y / yMax;
  for (const y of ticks(0, yMax, 4)) {
    svg.add('line', { x1: L, x2: W - 12, y1: Y(y), y2: Y(y), class: 'grid-line' });
    svg.add('text', { x: L - 6, y: Y(y) + 4, 'text-anchor': 'end' }, percent ? `${Math.round(y * 100)}%` : num(y));
  }
  for (const x of ticks(x0, x1)) {
    svg.add('line', { x1: X(x), x2: X(x), y1: H - B, y2: H - B + 4, class: 'axis' });
    svg.add('text', { x: X(x), y: H - B + 15, 'text-anchor': 'middle' }, num(x));
  }
  svg.add('line', { x1: L, x2: W - 12, y1: H - B, y2: H - B, class: 'axis' });
  svg.add('text', { x: (L + W) / 2, y: H - 4, 'text-anchor': 'middle' }, xLabel);
  if (yLabel) svg.add('text', { x: L, y: 10 }, yLabel);
  return { X, Y };
}

// ---- Sweep --------------------------------------------------------------
async function sweepNow() {
  if (stacksFirst('#sweep-out')) return;
  // Until the player sets a modifier range, the sweep's is the combat's
  // own modifier, not 0.
  for (const id of ['#sweep-mlo', '#sweep-mhi']) if (!$(id).dataset.touched) $(id).value = doc.modifier ?? 0;
  // Until the player sets a start, the range starts at 0 and the page
  // shows where the units' own total put it.
  const auto = !$('#sweep-lo').dataset.touched;
  const lo = auto ? 0 : $('#sweep-lo').value, hi = $('#sweep-hi').value, mlo = $('#sweep-mlo').value, mhi = $('#sweep-mhi').value;
  const params = { attack: `${lo}..${hi}`, crt: 'standard,2d6' };
  if (mlo !== mhi || Number(mlo) !== (doc.modifier ?? 0)) params.modifier = `${mlo}..${mhi}`;
  const { json, ms } = await api('sweep', doc, params);
  $('#status-text').textContent = `Exact, ${json.steps.length} steps · ${Math.round(ms)} ms`;
  const mod = json.modifiers.includes(json.base_modifier) ? json.base_modifier : json.modifiers[0];
  const steps = json.steps.filter((s) => s.modifier === mod);
  const xs = steps.map((s) => s.attack);
  const W = 640, H = 300;
  const svg = chart(W, H, `P(hex taken) by attack total, modifier ${mod}, under each CRT`);
  const { X, Y } = axes(svg, { W, H, x0: Math.min(...xs), x1: Math.max(...xs), xLabel: 'attack total', yLabel: 'P(hex taken)' });
  const legend = el('div', { class: 'legend' });
  json.crts.forEach((c, i) => {
    const mine = steps.filter((s) => s.crt === c);
    svg.add('polyline', { points: mine.map((s) => `${X(s.attack).toFixed(1)},${Y(s.hex_taken).toFixed(1)}`).join(' '), fill: 'none', stroke: colours[i % 4], 'stroke-width': 2 });
    // The odds breaks: where the odds column changes, marked and named.
    if (i === 0) {
      for (const s of mine.filter((q) => q.odds_changed)) {
        svg.add('line', { x1: X(s.attack), x2: X(s.attack), y1: Y(0), y2: Y(1), stroke: colours[0], 'stroke-dasharray': '2 3', 'stroke-opacity': 0.5 });
        svg.add('text', { x: X(s.attack) + 2, y: Y(1) + 10 }, s.odds);
      }
    }
    legend.append(el('span', {}, el('i', { style: { background: colours[i % 4] } }), 'CRT ' + c));
  });
  legend.append(el('span', { text: '┆ odds break (first CRT)' }));
  // The units bring more than the range's start: totals below it are
  // skipped (the engine's note says so). Untouched, the range starts where
  // the units are; set by the player, the page offers that start.
  const from = Math.min(...xs);
  let start = null;
  if (auto) $('#sweep-lo').value = from;
  else if (from > Number(lo)) {
    start = el('p', { class: 'note', id: 'sweep-start' }, `Totals below ${num(from)}, what the units already bring, are skipped: the sweep only adds attack factors. `,
      el('button', { type: 'button', text: `Sweep from ${num(from)}`, onclick: () => { $('#sweep-lo').value = from; changed(); } }));
  }
  const t = el('table', {}, el('tr', {}, el('th', { text: 'attack' }), ...json.crts.map((c) => el('th', { text: `${c}: odds, P(hex taken)` }))));
  for (const x of [...new Set(xs)]) {
    t.append(el('tr', {}, el('td', { text: num(x) }), ...json.crts.map((c) => {
      const s = steps.find((q) => q.crt === c && q.attack === x);
      return el('td', { text: s ? `${s.odds_changed ? '▲ ' : ''}${s.odds} ${pct(s.hex_taken)}` : '' });
    })));
  }
  const out = [start, legend, svg].filter(Boolean);
  if (json.modifiers.length > 1) out.push(heat(json));
  out.push(...json.notes.filter((n) => !(auto || start) || !/below the attack the units already bring/.test(n)).map((n) => el('p', { class: 'note', text: n })), el('details', {}, el('summary', { text: 'Every step as a table' }), t));
  $('#sweep-out').replaceChildren(...out);
}
// heatColour shades a chance: light cells (under one half) for dark text,
// dark ones for white text, each side readable (contrast 4.5:1 or more).
function heatColour(p) {
  const mix = (a, b, f) => a.map((x, i) => Math.round(x + (b[i] - x) * f));
  const rgb = p < 0.5 ? mix([242, 247, 247], [150, 204, 204], p / 0.5) : mix([27, 111, 111], [8, 58, 58], (p - 0.5) / 0.5);
  return `rgb(${rgb.join(',')})`;
}
// heat draws P(hex taken) by modifier and attack, one table a CRT, sized
// to the panel: fixed columns, a tick every few.
function heat(json) {
  const box = el('div', {});
  for (const c of json.crts) {
    const t = el('table', { class: 'heat' }, el('caption', { text: `CRT ${c}: P(hex taken) in %, modifier (rows) by attack total (columns)` }));
    const xs = [...new Set(json.steps.filter((s) => s.crt === c).map((s) => s.attack))];
    const every = Math.ceil(xs.length / 12);
    t.append(el('tr', {}, el('th', { text: 'mod' }), ...xs.map((x, i) => el('th', {}, i % every ? el('span', { class: 'visually-hidden', text: num(x) }) : num(x)))));
    for (const m of json.modifiers) {
      t.append(el('tr', {}, el('th', { text: (m > 0 ? '+' : '') + m }), ...xs.map((x) => {
        const s = json.steps.find((q) => q.crt === c && q.modifier === m && q.attack === x);
        const p = s ? s.hex_taken : 0;
        return el('td', { text: s ? Math.round(100 * p) : '', title: s ? `attack ${num(x)}, modifier ${m}: ${s.odds}, ${pct(p)}` : '',
          style: { background: heatColour(p), color: p >= 0.5 ? '#fff' : '#1b2126' } });
      })));
    }
    box.append(t);
  }
  return box;
}

// ---- Plan -----------------------------------------------------------------
const costWords = { committed_factors: 'attack factors sent', committed_units: 'units sent', committed_build_points: 'build points sent',
  expected_factors_lost: 'attack factors expected lost', expected_units_lost: 'attacking units expected lost' };
// reserveCostWords word a defender's plan's cost measure.
const reserveCostWords = { committed_factors: 'defence factors added', committed_units: 'reserves added', committed_build_points: 'build points of the reserves added' };
const unitWords = (u) => `${u.nation ?? ''} ${u.type ?? 'support'} ${u.factors}${u.size && u.size !== 'corps' ? ' ' + u.size : ''}`.trim();
// supportWords say what a support item is (docs/scenario-format.md,
// Plans): plain factors, an aircraft facing AA, a ship or an HQ.
function supportWords(u) {
  if (u.hq_support) return 'HQ support';
  if (isShip(u)) return `ship, shore bombardment ${u.shore_bombardment}`;
  if (u.tactical !== undefined) return `aircraft, air-to-air ${u.a2a}, tactical ${u.tactical}`;
  return `support, ${u.factors} factors`;
}
const isShip = (u) => u.shore_bombardment !== undefined;
// coastal reports whether ships may bombard a front's target hex.
const coastal = (t) => doc.kind === 'invasion' || t.hex?.coastal === true;
// reachKey is the key listing the targets an item may reach.
const reachKey = (kind) => (kind === 'support' ? 'can_support' : 'can_attack');
// planChoices are the units and support a plan may send: an imported plan
// file's own, else the attacking units.
function planChoices() {
  const a = doc.attacker ?? {};
  if (a.available) return { units: a.available, support: a.support_available ?? [] };
  const units = (a.units ?? []).map((u, i) => ({ ...u, id: u.name || `#${i + 1} ${u.nation} ${u.type} ${u.factors}` }));
  return { units, support: [] };
}
function planDoc() {
  const d = structuredClone(scenarioDoc());
  // A defender's plan against a fixed attacker (attacker.units, no
  // available) keeps that force as it is.
  if (!isDefence(d) || d.attacker?.available) {
    const { units, support } = planChoices();
    d.attacker = { ...d.attacker, available: units.filter((u) => !planOff.has(u.id)) };
    if (support.length) d.attacker.support_available = support.filter((u) => !planOff.has(u.id));
    if (!d.attacker.support_available?.length) delete d.attacker.support_available;
    delete d.attacker.units;
    delete d.attacker.attack_as_mud;
  }
  if (isDefence(d) && d.defender?.available) d.defender = { ...d.defender, available: d.defender.available.filter((u) => !reserveOff.has(u.id)) };
  delete d.dice;
  d.plan = { ...(d.plan ?? {}), cost: $('#plan-cost').value, target: Number($('#plan-target').value) || 0.75 };
  return d;
}
// renderPlanSetup shows the plan whole: each unit and support with a
// toggle (and, on a front, a toggle for each hex it can reach), and a
// front's target hexes, each with its terrain and defender, editable.
// Controls have stable ids, so the focus survives a redraw.
let setupSig = '';
function renderPlanSetup() {
  const { units, support } = planChoices();
  const defence = isDefence();
  const reserves = defence ? doc.defender?.available ?? [] : [];
  const sig = JSON.stringify([units, support, doc.targets, [...planOff], defence, doc.attacker?.available ? 1 : 0, reserves, [...reserveOff], doc.plan?.objective]);
  if (sig === setupSig && $('#plan-setup').childElementCount) return;
  setupSig = sig;
  const active = document.activeElement?.id;
  const targets = doc.targets ?? [];
  const item = (u, kind, i) => {
    const id = `plan-${kind}-${i}`;
    const off = kind === 'reserve' ? reserveOff : planOff;
    const cb = el('input', { type: 'checkbox', id, [kind === 'reserve' ? 'data-plan-reserve' : 'data-plan-unit']: u.id });
    cb.checked = !off.has(u.id);
    cb.addEventListener('change', () => { if (cb.checked) off.delete(u.id); else off.add(u.id); refresh(); });
    const cost = u.cost !== undefined ? el('span', { class: 'reach', text: ` · cost ${u.cost}` }) : null;
    const li = el('li', {}, el('label', { for: id }, cb, u.type ? counter(u, 1) : null,
      el('span', { text: `${u.id}${kind === 'support' ? `: ${supportWords(u)}` : ''}` }), cost));
    if (targets.length) {
      // Which hexes it can reach: can_attack for a unit, can_support for
      // support; when absent, every target (a ship's: the coastal ones).
      const key = reachKey(kind);
      const verb = kind === 'support' ? 'support' : 'attack';
      const byDefault = targets.filter((t) => !isShip(u) || coastal(t)).map((x) => x.id);
      const reach = el('span', { class: 'reach', role: 'group', 'aria-label': `Hexes ${u.id} can ${verb}` }, ` · can ${verb} `);
      targets.forEach((t, j) => {
        const rid = `reach-${kind}-${i}-${j}`;
        const rc = el('input', { type: 'checkbox', id: rid, 'data-reach': `${u.id}|${t.id}` });
        rc.checked = (u[key] ?? byDefault).includes(t.id);
        rc.addEventListener('change', () => {
          const set = new Set(u[key] ?? byDefault);
          if (rc.checked) set.add(t.id); else set.delete(t.id);
          u[key] = targets.map((x) => x.id).filter((x) => set.has(x));
          if (u[key].length === byDefault.length && u[key].every((x) => byDefault.includes(x))) delete u[key];
          changed();
        });
        reach.append(el('label', { for: rid, class: 'inline' }, rc, ' ' + t.id));
      });
      li.append(reach);
    }
    return li;
  };
  const on = (list, off) => `${list.length - list.filter((u) => off.has(u.id)).length} of ${list.length}`;
  const out = [];
  if (defence) {
    out.push(el('h3', { text: `Reserves the defender may add (${on(reserves, reserveOff)})` }),
      el('ul', { class: 'plan-list', id: 'plan-reserves' }, ...reserves.map((u, i) => item(u, 'reserve', i))));
  }
  if (defence && !doc.attacker?.available) {
    out.push(el('h3', { text: "The attacker's force is fixed" }),
      el('p', { id: 'plan-fixed-attacker', text: `It attacks with ${(doc.attacker?.units ?? []).map(unitWords).join(', ') || 'no units'} whatever reserves are added.` }));
  } else {
    out.push(el('h3', { text: defence ? `Units the attacker may send: its best response picks among them (${on(units, planOff)})` : `Units the plan may send (${on(units, planOff)})` }),
      el('ul', { class: 'plan-list', id: 'plan-units' }, ...units.map((u, i) => item(u, 'unit', i))));
    if (support.length) out.push(el('h3', { text: defence ? 'Support the attacker may send' : 'Support it may send' }), el('ul', { class: 'plan-list' }, ...support.map((u, i) => item(u, 'support', i))));
  }
  // A defender's plan is about one hex: no front.
  if (defence) {
    $('#plan-setup').replaceChildren(...out);
    if (active) document.getElementById(active)?.focus();
    return;
  }
  if (targets.length) {
    out.push(el('h3', { text: `The front: ${targets.length} target hex${targets.length > 1 ? 'es' : ''}` }),
      el('div', { class: 'front', id: 'plan-front' }, ...targets.map((t, j) => targetCard(t, j, units))));
    if (targets.length < 8) out.push(el('button', { type: 'button', id: 'add-target', text: '+ Add a target hex', onclick: addTarget }));
    if (targets.length > 1) out.push(objectiveChoice(targets));
  } else if (doc.kind !== 'bombardment') {
    out.push(el('p', { class: 'hint' }, 'To weigh several hexes at once, each with its own defender: ',
      el('button', { type: 'button', id: 'make-front', text: 'Plan a front', onclick: makeFront })));
  }
  $('#plan-setup').replaceChildren(...out);
  if (active) document.getElementById(active)?.focus();
}
// objectiveChoice lets the player say in words what a front aims for
// (docs/planner.md, Objectives): the most hexes expected, or the chance of
// taking every hex, at least K of them, or every hex of a set. A chance
// objective's target is a chance, so a target above 1 becomes 0.5.
const objectiveWords = { expected: 'the most hexes expected', all: 'every hex taken', at_least: 'at least K hexes taken', set: 'every hex of a set taken' };
function objectiveKind(o) { return typeof o === 'string' ? o : o?.at_least !== undefined ? 'at_least' : o?.set ? 'set' : 'expected'; }
function objectiveChoice(targets) {
  const o = doc.plan?.objective;
  const kind = objectiveKind(o);
  const set = (o) => {
    doc.plan = { ...(doc.plan ?? {}), objective: o };
    if (objectiveKind(o) !== 'expected' && Number($('#plan-target').value) > 1) $('#plan-target').value = 0.5;
    changed();
  };
  const pick = el('select', { id: 'plan-objective' }, ...Object.entries(objectiveWords).map(([v, text]) => el('option', { value: v, text })));
  pick.value = kind;
  pick.addEventListener('change', () => set({ expected: 'expected', all: 'all', at_least: { at_least: Math.min(2, targets.length) }, set: { set: [targets[0].id] } }[pick.value]));
  const box = el('div', { class: 'grid', id: 'plan-objective-box' }, el('label', { for: pick.id }, 'The front aims for', pick));
  if (kind === 'at_least') {
    const k = el('input', { type: 'number', id: 'plan-objective-k', min: 1, max: targets.length, step: 1, value: o.at_least });
    k.addEventListener('change', () => { const v = Math.round(Number(k.value)); if (v >= 1 && v <= targets.length) set({ at_least: v }); else k.value = o.at_least; });
    box.append(el('label', { for: k.id }, 'K, hexes', k));
  }
  if (kind === 'set') {
    const g = el('span', { class: 'reach', role: 'group', 'aria-label': 'The hexes of the set' }, 'the set: ');
    targets.forEach((t, j) => {
      const id = `plan-objective-set-${j}`;
      const cb = el('input', { type: 'checkbox', id, 'data-objective-set': t.id });
      cb.checked = o.set.includes(t.id);
      cb.addEventListener('change', () => {
        const ids = targets.map((x) => x.id).filter((x) => (x === t.id ? cb.checked : o.set.includes(x)));
        if (ids.length) set({ set: ids }); else cb.checked = true;
      });
      g.append(el('label', { for: id, class: 'inline' }, cb, ' ' + t.id));
    });
    box.append(g);
  }
  const hint = kind === 'expected' ? 'The target is the hexes expected taken.' : 'The target is that chance (0.3 is 30%).';
  return el('div', {}, el('h3', { text: 'The objective' }), box, el('p', { class: 'hint', text: hint }));
}
// targetCard is one hex of a front: its id, terrain and defender (typed as
// a stack line), and the units that can reach it.
function targetCard(t, j, units) {
  t.hex ??= {};
  const idIn = el('input', { type: 'text', id: `target-${j}-id`, maxlength: 40, value: t.id });
  idIn.addEventListener('change', () => {
    const old = t.id, v = idIn.value.trim();
    if (!v || doc.targets.some((x) => x !== t && x.id === v)) { idIn.value = old; return; }
    t.id = v;
    if (doc.plan?.objective?.set) doc.plan.objective = { set: doc.plan.objective.set.map((x) => (x === old ? v : x)) };
    for (const [key, list] of [['can_attack', doc.attacker?.available], ['can_support', doc.attacker?.support_available]]) {
      for (const u of list ?? []) if (u[key]) u[key] = u[key].map((x) => (x === old ? v : x));
    }
    // What waits on the hex, and the sets naming it, follow its new id.
    for (const x of doc.targets) if (x.requires) x.requires = x.requires.map((r) => (r === old ? v : r));
    for (const k of Object.keys(doc.sets ?? {})) doc.sets[k] = doc.sets[k].map((r) => (r === old ? v : r));
    changed();
  });
  const terrain = el('select', { id: `target-${j}-terrain` }, ...schema.terrains.map((x) => el('option', { value: x, text: x })));
  terrain.value = t.hex.terrain ?? 'clear';
  terrain.addEventListener('change', () => { t.hex.terrain = terrain.value; changed(); });
  const quick = el('input', { type: 'text', id: `target-${j}-quick`, class: 'quick-text', maxlength: 2000, placeholder: '2x INF 3 USSR', 'aria-describedby': `target-${j}-msg` });
  const msg = el('span', { class: 'field-error', id: `target-${j}-msg`, role: 'alert', hidden: true });
  const setDefender = () => guarded(async () => {
    const { status, json } = await engine.call('stack', { text: quick.value });
    msg.hidden = status === 200;
    if (status !== 200) { msg.textContent = json.error; quick.setAttribute('aria-invalid', 'true'); return; }
    quick.removeAttribute('aria-invalid');
    t.defender = { ...(t.defender ?? {}), units: json.map(tidyUnit) };
    changed();
  });
  quick.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); setDefender(); } });
  const reach = units.filter((u) => !u.can_attack || u.can_attack.includes(t.id)).map((u) => u.id);
  const feats = Object.entries(t.hex).filter(([k, v]) => v === true && k !== 'supply').map(([k]) => schema.hex_flags.find((w) => w.key === k)?.label ?? words(k));
  return el('div', { 'data-target': t.id },
    el('div', { class: 'grid' }, el('label', { for: idIn.id }, 'hex', idIn), el('label', { for: terrain.id }, 'terrain', terrain)),
    feats.length || t.value !== undefined ? el('p', { text: [...feats, t.value !== undefined ? `worth ${t.value}` : ''].filter(Boolean).join(', ') }) : null,
    el('div', { class: 'counters' }, ...groupUnits(t.defender?.units ?? []).map(({ u, n }) => counter(u, n))),
    el('label', { for: quick.id }, 'defender', el('span', { class: 'quick-line' }, quick,
      el('button', { type: 'button', class: 'quick-set', text: 'Set', onclick: setDefender }))), msg,
    el('p', { text: `can be attacked by ${reach.join(', ') || 'no unit'}` }),
    afterChips(t, j),
    t.requires?.length ? el('p', { 'data-requires': t.id, text: `attacked only if ${t.requires.join(' and ')} ${t.requires.length > 1 ? 'are' : 'is'} taken first` }) : null,
    doc.targets.length > 1 ? el('button', { type: 'button', class: 'remove-target', text: 'Remove this hex', onclick: () => {
      doc.targets.splice(j, 1);
      const o = doc.plan?.objective;
      if (o?.set) doc.plan.objective = o.set.some((x) => x !== t.id) ? { set: o.set.filter((x) => x !== t.id) } : 'expected';
      if (o?.at_least > doc.targets.length) doc.plan.objective = { at_least: doc.targets.length };
      if (doc.targets.length < 2 && doc.plan?.objective) doc.plan.objective = 'expected';
      for (const [key, list] of [['can_attack', doc.attacker?.available], ['can_support', doc.attacker?.support_available]]) {
        for (const u of list ?? []) if (u[key]) { u[key] = u[key].filter((x) => x !== t.id); if (!u[key].length) delete u[key]; }
      }
      // A hex that waited on it no longer does; a set loses it.
      for (const x of doc.targets) if (x.requires) { x.requires = x.requires.filter((r) => r !== t.id); if (!x.requires.length) delete x.requires; }
      for (const k of Object.keys(doc.sets ?? {})) { doc.sets[k] = doc.sets[k].filter((r) => r !== t.id); if (!doc.sets[k].length) delete doc.sets[k]; }
      if (doc.sets && !Object.keys(doc.sets).length) delete doc.sets;
      changed();
    } }) : null);
}
// afterChips are a target's "attack after" chips, one per other target
// hex: each ticked is in the target's requires (the plan attacks it only
// if those are taken first, docs/operations.md), in the targets' order.
// A cycle is the planner's error to name, beside the plan.
function afterChips(t, j) {
  const others = doc.targets.filter((x) => x !== t);
  if (!others.length) return null;
  return el('div', { class: 'chips after', role: 'group', 'aria-label': `Attack ${t.id} after`, 'data-after': t.id },
    el('span', { text: 'attack after:' }), ...others.map((o, k) => {
      const cb = el('input', { type: 'checkbox', id: `target-${j}-after-${k}`, 'data-hex': o.id });
      cb.checked = !!t.requires?.includes(o.id);
      cb.addEventListener('change', () => {
        const on = new Set(t.requires ?? []);
        if (cb.checked) on.add(o.id); else on.delete(o.id);
        t.requires = doc.targets.map((x) => x.id).filter((id) => on.has(id));
        if (!t.requires.length) delete t.requires;
        changed();
      });
      return el('label', { for: cb.id }, cb, ' ' + o.id);
    }));
}
// makeFront turns the combat into a front of one hex: the attacking units
// become the units the plan may send, the hex and defender its first
// target. addTarget adds a hex like the last.
function makeFront() {
  const { units } = planChoices();
  doc.attacker = { ...doc.attacker, available: units.map((u) => structuredClone(u)) };
  delete doc.attacker.units;
  doc.targets = [{ id: 'Hex 1', hex: structuredClone(doc.hex ?? { terrain: 'clear' }), defender: { units: structuredClone(doc.defender?.units ?? []) } }];
  delete doc.hex;
  doc.defender = { units: [] };
  renderForm();
  changed();
}
function addTarget() {
  const last = doc.targets.at(-1);
  let n = doc.targets.length + 1;
  while (doc.targets.some((t) => t.id === `Hex ${n}`)) n++;
  doc.targets.push({ id: `Hex ${n}`, hex: structuredClone(last?.hex ?? { terrain: 'clear' }), defender: structuredClone(last?.defender ?? { units: [] }) });
  changed();
  $(`#target-${doc.targets.length - 1}-quick`)?.focus();
}
async function planNow() {
  renderPlanSetup();
  // A defender's plan is costed in what the reserves are, never in
  // expected losses.
  for (const o of $('#plan-cost').options) {
    o.disabled = isDefence() && !reserveCostWords[o.value];
    o.textContent = (isDefence() ? reserveCostWords[o.value] : null) ?? costWords[o.value] ?? words(o.value);
  }
  if ($('#plan-cost').selectedOptions[0]?.disabled) $('#plan-cost').value = 'committed_factors';
  const { json, ms } = await api('plan', planDoc(), {});
  if (json.side === 'defender') return renderDefence(json, ms);
  $('#status-text').textContent = `Weighed ${json.forces_weighed.toLocaleString('en')} forces (${json.distinct_combats} distinct combats) · ${Math.round(ms)} ms`;
  const front = !!json.targets;
  // A chance objective (all, at_least, set) is the headline and the
  // frontier's score; its plan still tells the hexes expected.
  const chance = front && !!json.objective;
  const score = (f) => chance ? f.objective_chance : front ? f.expected_hexes_taken : f.hex_taken.p;
  const show = (f) => chance ? `${json.objective} ${pct(f.objective_chance)} (${num(f.expected_hexes_taken)} hexes expected)`
    : front ? `${num(f.expected_hexes_taken)} hexes expected` : `P(hex taken) ${pct(f.hex_taken.p)}`;
  const r = json.recommended;
  const out = [el('p', { id: 'plan-rec', class: r ? 'plan-note' : 'note', text: r
    ? `Send ${r.units.join(', ')}: ${front ? '' : `${r.odds} on the ${r.table} table, `}${show(r)}, ${costWords[json.cost_measure] ?? json.cost_measure} ${num(r.cost)}.`
    : (json.unreached || 'No force reaches the target.') })];
  if (r && chance) out.push(el('p', { id: 'plan-objective-line', text: objectiveLine(json) }));
  summary(r ? (chance ? pct(r.objective_chance) : front ? num(r.expected_hexes_taken) : pct(r.hex_taken.p)) : '—', r && !front ? r.odds : '—', 'plan');
  if (front && r?.hexes) {
    // A hex that waits on others is taken with P(attacked) x its own
    // chance: the answer's joint figures give both (docs/planner.md).
    const taken = (h, i) => h.requires?.length ? `${pct(r.joint.p_taken[i])} (${pct(h.hex_taken.p)} if attacked)` : pct(h.hex_taken.p);
    const t = el('table', { id: 'plan-hexes' }, el('tr', {}, ...['hex', 'units sent', 'odds', 'P(hex taken)'].map((h) => el('th', { text: h }))));
    r.hexes.forEach((h, i) => t.append(el('tr', {}, el('td', { text: h.target }), el('td', { text: h.units.join(', ') || '—' }), el('td', { text: h.odds || '—' }),
      el('td', { text: h.units.length ? taken(h, i) : '—' }))));
    out.push(el('h3', { text: 'Where each unit attacks' }));
    if (r.hexes.some((h) => h.requires?.length)) out.push(el('p', { id: 'plan-order', text: orderWords(json.order, r.hexes) }));
    out.push(t, el('p', { id: 'plan-joint', text: jointWords(r.joint) }));
  }
  out.push(frontierChart(json, {
    score, percent: chance || !front, yMax: chance || !front ? 1 : Math.max(json.targets.length, ...json.frontier.map(score)),
    what: chance ? json.objective : front ? 'hexes expected' : 'P(hex taken)', cost: costWords[json.cost_measure] ?? json.cost_measure,
  }));
  const t = el('table', {}, el('tr', {}, ...['cost', ...(chance ? [json.objective] : []), front ? 'hexes expected' : 'P(hex taken)', ...(front ? [] : ['odds', 'table']), 'units'].map((h) => el('th', { text: h }))));
  for (const f of json.frontier) {
    const rec = r && f.cost === r.cost && f.units.join() === r.units.join();
    t.append(el('tr', { class: rec ? 'rec' : null }, el('td', { text: num(f.cost) }), chance ? el('td', { text: pct(f.objective_chance) }) : null,
      el('td', { text: front ? num(f.expected_hexes_taken) : pct(f.hex_taken.p) }),
      ...(front ? [] : [el('td', { text: f.odds }), el('td', { text: f.table })]), el('td', { text: f.units.join(', ') })));
  }
  out.push(el('details', {}, el('summary', { text: `Every force on the frontier (${json.frontier.length})` }), t));
  if (json.marginal?.length) {
    const m = el('table', {}, el('tr', {}, el('th', { text: 'change' }), el('th', { text: 'P(hex taken)' }), el('th', { text: 'difference' })));
    for (const c of json.marginal) {
      m.append(el('tr', {}, el('td', { text: `${c.action} ${c.unit}` }), el('td', { text: c.no_attack ? '—' : pct(c.hex_taken) }),
        el('td', { text: c.no_attack ? 'no attack left' : signedPts(c.hex_taken_change) })));
    }
    out.push(el('h3', { text: 'What one unit more or less does' }), m);
  }
  for (const w of json.warnings ?? []) out.push(el('p', { class: 'note', text: w }));
  $('#plan-out').replaceChildren(...out);
}
// objectiveLine is the CLI short answer's line on a chance objective
// (reports objectiveLine): the recommendation's chance, and what the
// assignment taking the most expected hexes for no more would give.
function objectiveLine(json) {
  const r = json.recommended, e = json.expected_objective_plan;
  let line = `the objective: ${json.objective} ${pct(r.objective_chance)}`;
  const where = (f) => f.hexes.map((h) => `${h.target}:${h.units.join(',')}`).join(';');
  if (e && where(e) === where(r)) line += '; it is also the most expected hexes for its cost';
  else if (e) {
    const at = e.hexes.filter((h) => h.units.length).map((h) => `${h.units.join(', ')} at ${h.target}`);
    line += `: the most expected hexes for cost ${num(e.cost)} (${e.expected_hexes_taken.toFixed(3)}: ${at.join('; ')}) would give only ${pct(e.objective_chance)}`;
  }
  return line;
}
// jointWords are a front's joint figures as the CLI's short answer gives
// them, read from the answer's exact joint distribution (a hex that waits
// on others makes the hexes dependent: no product of the hexes' chances).
function jointWords(joint) {
  const ex = joint.exactly, n = ex.length - 1;
  const sets = (joint.sets ?? []).map((s) => `; P(${s.name}) ${pct(s.p)}`).join('');
  return `P(all ${n} taken) ${pct(joint.all)}; P(exactly ${ex.map((_, k) => k).join(', ')}) ${ex.map(pct).join(', ')}${sets}`;
}
// orderWords is the order of attack as the CLI's short answer gives it:
// every hex after those it waits on.
function orderWords(order, hexes) {
  const req = Object.fromEntries(hexes.map((h) => [h.target, h.requires ?? []]));
  return 'order of attack: ' + order.map((id) => (req[id].length ? `${id} (if ${req[id].join(' and ')} taken)` : id)).join(', then ');
}
// frontierChart draws the frontier as a step chart: the best score for
// each cost (what, in percent or not, up to yMax), the target as a line,
// the recommendation marked.
function frontierChart(json, { score, percent, yMax, what, cost }) {
  const fs = json.frontier;
  const W = 640, H = 260;
  const svg = chart(W, H, `The frontier: the best ${what} for each cost; the recommendation marked`);
  if (!fs.length) return svg;
  const x1 = Math.max(...fs.map((f) => f.cost));
  const { X, Y } = axes(svg, { W, H, x0: 0, x1, yMax, percent, xLabel: `cost: ${cost}`, yLabel: what });
  let pts = `${X(0)},${Y(0)}`;
  for (const f of fs) pts += ` ${X(f.cost)},${pts.split(' ').at(-1).split(',')[1]} ${X(f.cost)},${Y(score(f))}`;
  pts += ` ${X(x1)},${Y(score(fs.at(-1)))}`;
  svg.add('polyline', { points: pts, fill: 'none', stroke: colours[0], 'stroke-width': 2 });
  if (json.target) {
    svg.add('line', { x1: X(0), x2: X(x1), y1: Y(json.target), y2: Y(json.target), stroke: colours[1], 'stroke-dasharray': '5 4' });
    svg.add('text', { x: X(0) + 4, y: Y(json.target) - 4 }, `target ${percent ? pct(json.target) : json.target}`);
  }
  const r = json.recommended;
  if (r) {
    svg.add('circle', { cx: X(r.cost), cy: Y(score(r)), r: 6, fill: colours[1], id: 'plan-rec-mark' });
    const right = X(r.cost) > W - 110; // near the right edge the label goes left of the mark, not off the chart
    svg.add('text', { x: X(r.cost) + (right ? -8 : 8), y: Y(score(r)) + 14, 'text-anchor': right ? 'end' : 'start' }, 'recommended');
  }
  return el('div', { id: 'plan-chart' }, svg);
}

// renderDefence shows a defender's plan: the reserves to add and the
// chance they hold the hex, the attacker's best response to them (or its
// fixed force), the frontier of P(hex held) against cost as a step chart
// and every frontier point.
function renderDefence(json, ms) {
  $('#status-text').textContent = `Weighed ${json.reserve_sets.toLocaleString('en')} reserve sets (${json.distinct_defences.toLocaleString('en')} distinct defences, ${json.attacker_combats.toLocaleString('en')} attacking combats) · ${Math.round(ms)} ms`;
  const fixed = json.attacker === 'fixed';
  const against = fixed ? "the attacker's force" : "the attacker's best response";
  const cost = reserveCostWords[json.cost_measure] ?? words(json.cost_measure);
  const reserves = (units) => (units.length ? units.join(', ') : 'no reserves');
  const num2 = (x) => x.toFixed(2);
  const r = json.recommended;
  const out = [el('p', { id: 'plan-rec', class: r ? 'plan-note' : 'note', text: r
    ? `Add ${reserves(r.units)}: P(hex held) ${pct(r.hex_held)} against ${against}, ${cost} ${num(r.cost)}.`
    : (json.unreached || 'No reserves reach the target.') })];
  summary(r ? pct(r.hex_taken) : '—', r?.response ? r.response.odds : '—', 'defence');
  if (r) {
    out.push(el('h3', { text: fixed ? "The attacker's force against them" : "The attacker's best response to them" }));
    const f = r.response;
    if (!f) {
      out.push(el('p', { id: 'plan-response', text: 'No force the attacker may send can take the hex.' }));
    } else {
      const rows = [['units', f.units.length ? f.units.join(', ') : "the attacker's units (attacker.units)"],
        ['odds', `${num(f.attack)}:${num(f.defence)} = ${f.odds} on the ${f.table} table`],
        ['P(hex taken)', pct(f.hex_taken.p) + (f.method === 'exact' ? '' : ` (Monte Carlo, 95%: ${pct(f.hex_taken.lo)} – ${pct(f.hex_taken.hi)})`)],
        ['P(breakthrough)', pct(f.breakthrough)],
        ['expected losses', `attacker ${num2(f.expected_attacker_units_lost)} units (${num2(f.expected_attacker_factors_lost)} factors), defender ${num2(f.expected_defender_units_lost)} units (${num2(f.expected_defender_factors_lost)} factors)`]];
      out.push(el('table', { id: 'plan-response' }, ...rows.map(([k, v]) => el('tr', {}, el('th', { text: k, scope: 'row' }), el('td', { text: v })))));
    }
  }
  out.push(frontierChart(json, { score: (x) => x.hex_held, percent: true, yMax: 1, what: 'P(hex held)', cost }));
  const t = el('table', {}, el('tr', {}, ...['cost', 'P(hex held)', 'reserves', fixed ? "attacker's force" : "attacker's best response"].map((h) => el('th', { text: h }))));
  for (const x of json.frontier) {
    const rec = r && x.cost === r.cost && x.units.join() === r.units.join();
    const resp = x.response ? `${x.response.units.join(', ') || 'attacker.units'} at ${x.response.odds} (${x.response.table})` : 'no attack can take the hex';
    t.append(el('tr', { class: rec ? 'rec' : null }, el('td', { text: num(x.cost) }), el('td', { text: pct(x.hex_held) }), el('td', { text: reserves(x.units) }), el('td', { text: resp })));
  }
  out.push(el('details', {}, el('summary', { text: `Every reserve set on the frontier (${json.frontier.length})` }), t));
  for (const w of json.warnings ?? []) out.push(el('p', { class: 'note', text: w }));
  $('#plan-out').replaceChildren(...out);
}

// exportYAML is the file the CLI reads for what the page shows: a plan
// file (with the plan tab's target, cost and units) for a plan.
const exportYAML = () => (isPlan() ? toYAML(planDoc()) : toYAML(doc));

// ---- Table ------------------------------------------------------------------
// The combat's results table, each cell shaded by the chance that this
// combat's roll reads it (POST /api/weights, docs/crtlab.md); clicking a
// cell sets it to the next result the table uses (Shift: the previous),
// and the figures are the run on the edited table (run with cell=).
const tableEdits = new Map(); // cell label (assault/3:1/4) -> the result it is set to
const tablePrinted = new Map(); // cell label -> its result as printed, from the last answer
let tableEditsFor = ''; // the table the edits are of: a new table drops them
const tableKey = () => (uploadedCRT ? 'uploaded:' + uploadedCRT : doc.crt ?? 'standard');
const cellParams = () => [...tableEdits].map(([c, to]) => `${c}:${to}`);
let tableFocus = null; // the cell whose button had the focus, to keep it across a redraw
let skipClick = false; // Shift+Enter stepped back on keydown: the button's own click is not a step forward

async function tableNow() {
  if (isPlan()) {
    for (const id of ['#table-headline', '#table-edits', '#table-out']) $(id).replaceChildren();
    $('#table-out').append(el('p', { class: 'plan-note', text: 'This is a plan file: the Table tab weighs one combat.' }));
    return;
  }
  if (stacksFirst('#table-headline', '#table-edits', '#table-out')) return;
  if (tableKey() !== tableEditsFor) { tableEdits.clear(); tableEditsFor = tableKey(); }
  const cell = cellParams();
  const w = (await api('weights', doc, { cell })).json;
  const { json, ms } = await api('run', doc, { method: 'auto', cell });
  $('#status-text').textContent = methodLine(json, ms) + (cell.length ? ` · ${cell.length} cell${cell.length > 1 ? 's' : ''} edited` : '');
  const p = json.probabilities;
  const levels = Object.keys(json.odds_levels);
  const tables = Object.entries(json.tables).filter(([, v]) => v > 0).map(([k]) => k);
  const edited = cell.length ? ' (edited table)' : '';
  // Beside each figure of the edited table, the same figure as printed.
  const printed = Object.fromEntries(w.metrics.map((m, i) => [m, w.printed_figures[i]]));
  const was = (m, f, other) => (cell.length ? `as printed ${f(printed[m])}` : other);
  $('#table-headline').replaceChildren(
    card('P(hex taken)' + edited, pct(p.hex_taken.p), was('hex_taken', pct, interval(p.hex_taken)), 'tt-p-hex', p.hex_taken.p, 'main'),
    card('odds', levels.join(' / ') || '—', `${num(json.odds.attack)} : ${num(json.odds.defence)}`, 'tt-odds'),
    card('table', tables.join(' / ') || '—', null, 'tt-table-used'),
    card('breakthrough', pct(p.breakthrough.p), was('breakthrough', pct, interval(p.breakthrough)), 'tt-p-breakthrough', p.breakthrough.p),
    card('attackers face-up', pct(p.attacker_face_up.p), was('attacker_face_up', pct, interval(p.attacker_face_up)), 'tt-p-faceup', p.attacker_face_up.p),
    card('attacking units lost', num(json.means.attacker_units_lost.mean), was('attacker_units_lost', num, 'expected'), 'tt-att-lost', json.means.attacker_units_lost.mean),
    card('defending units lost', num(json.means.defender_units_lost.mean), was('defender_units_lost', num, 'expected'), 'tt-def-lost', json.means.defender_units_lost.mean),
  );
  summary(pct(p.hex_taken.p), levels.join(' / ') || '—', tables.join(' / ') || '—');
  renderTableEdits(w);
  renderWeights(w);
}

// cycleCell sets a cell to the next (step 1) or previous (-1) result the
// table uses; back at its printed result, the edit is dropped. It reads
// the edits, not the drawn grid, so a second click before the answer
// steps on from the first.
function cycleCell(cell, results, step) {
  const printed = tablePrinted.get(cell);
  const now = tableEdits.get(cell) ?? printed;
  const to = results[(results.indexOf(now) + step + results.length) % results.length];
  if (to === printed) tableEdits.delete(cell); else tableEdits.set(cell, to);
  tableFocus = cell;
  refresh();
}

function renderTableEdits(w) {
  const box = $('#table-edits');
  if (!w.edits.length) {
    box.replaceChildren(el('p', { class: 'hint', id: 'table-edit-none', text: `No cell edited: the ${w.table} table as printed.` }));
    return;
  }
  const list = el('ul', { id: 'table-edit-list', class: 'edit-list', 'aria-label': 'Cells edited' });
  for (const e of w.edits) {
    list.append(el('li', {}, el('span', { text: `${e.cell}: ${e.from} → ${e.to}` }), ' ',
      el('button', { type: 'button', class: 'small', 'aria-label': `Undo the edit of ${e.cell}`, text: 'Undo',
        onclick: () => { tableEdits.delete(e.cell); refresh(); } })));
  }
  box.replaceChildren(el('h3', { text: `Cells edited (${w.edits.length})` }), list,
    el('button', { type: 'button', id: 'table-reset', text: 'Reset the table', onclick: () => { tableEdits.clear(); refresh(); } }));
}

function renderWeights(w) {
  const from = new Map(w.edits.map((e) => [e.cell, e.from]));
  tablePrinted.clear();
  let top = 0;
  for (const g of w.grids) for (const row of g.cells) for (const c of row) top = Math.max(top, c.weight);
  const shade = (x) => (top > 0 ? x / top : 0);
  const out = [el('div', { class: 'weight-legend', role: 'img', 'aria-label': `Shading: a cell's weight, from 0 (light) to ${pct(top)} (darkest)` },
    el('span', { text: '0%' }), el('span', { class: 'ramp', 'aria-hidden': 'true' }), el('span', { text: pct(top) }),
    el('span', { class: 'hint', text: ' the chance that this combat\'s roll reads the cell' + ((doc.options ?? []).includes('wild-results')
      ? ' (wild results: the mean of the attacker\'s and the defender\'s roll)' : '') }))];
  if (w.fixed > 0) out.push(el('p', { class: 'note', text: `${pct(w.fixed)} of the outcomes are decided by no cell (an automatic result, or a forbidden airdrop).` }));
  for (const g of w.grids) {
    const name = g.kind === 'blitz' ? 'Blitz' : 'Assault';
    const t = el('table', { class: 'crt-grid', id: 'grid-' + g.kind },
      el('caption', { text: `${name} table${w.method === 'modifier' ? ' (read by modifier: one column)' : ''}: modified roll (rows) by odds (columns)` }),
      el('tr', {}, el('th', { scope: 'col', text: 'roll' }), ...w.columns.map((c) => el('th', { scope: 'col', text: c }))));
    g.cells.forEach((row, i) => {
      t.append(el('tr', {}, el('th', { scope: 'row', text: w.rows[i] }), ...row.map((c, j) => {
        const f = shade(c.weight);
        tablePrinted.set(c.cell, from.get(c.cell) ?? c.result);
        const b = el('button', { type: 'button', class: 'cell' + (c.edited ? ' edited' : ''), 'data-cell': c.cell, 'data-weight': c.weight,
          'data-at': `${g.kind} ${i} ${j}`, tabindex: -1,
          'aria-label': `${c.cell}: ${c.result}${c.edited ? ' (edited)' : ''}, weight ${pct(c.weight)}. Next result; Shift for the previous`,
          text: c.result, style: { background: heatColour(f), color: f >= 0.5 ? '#fff' : '#1b2126' },
          onclick: (e) => { if (!skipClick) cycleCell(c.cell, w.results, e.shiftKey ? -1 : 1); skipClick = false; },
          onkeydown: (e) => {
            if (e.key === 'Enter' && e.shiftKey) { e.preventDefault(); skipClick = true; cycleCell(c.cell, w.results, -1); return; }
            const [dr, dc] = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key] ?? [0, 0];
            const to = (dr || dc) && $(`[data-at="${g.kind} ${i + dr} ${j + dc}"]`);
            if (to) { e.preventDefault(); gridFocus(to); }
          },
          onkeyup: () => { skipClick = false; } });
        return el('td', { title: `${c.cell}: ${c.result}, weight ${pct(c.weight)}` }, b);
      })));
    });
    out.push(t);
  }
  $('#table-out').replaceChildren(...out);
  // One stop on Tab a grid (the arrow keys move within it): the cell
  // last clicked, else the first cell.
  for (const g of w.grids) $(`[data-at="${g.kind} 0 0"]`).tabIndex = 0;
  const back = tableFocus && $(`[data-cell="${CSS.escape(tableFocus)}"]`);
  if (back) gridFocus(back);
  tableFocus = null;
}

// gridFocus moves a grid's Tab stop to the cell and focuses it.
function gridFocus(b) {
  for (const o of b.closest('table').querySelectorAll('button.cell')) o.tabIndex = -1;
  b.tabIndex = 0;
  b.focus();
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
  $('#dice-box').hidden = name === 'plan'; // a plan weighs every roll: no dice to replay
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
// ---- The combat kept in the browser ---------------------------------------
// The page keeps the combat being edited in the browser's localStorage
// (issue 27: a player who closed the browser came back to the example):
// the share link's document, written a moment after the last change and
// read back on a visit with no share link. It never leaves the browser.
// Storage may be full, disabled or absent (a private window): the page
// then works on without it, saying nothing.
const keptKey = 'wifodds.combat';
const keptMax = 256 * 1024; // characters; a real combat is a few kB
let keepTimer = 0;
function keepSoon() {
  clearTimeout(keepTimer);
  keepTimer = setTimeout(keepNow, 300);
}
function keepNow() {
  clearTimeout(keepTimer);
  keepTimer = 0;
  try {
    const text = JSON.stringify({ wifodds: 1, scenario: scenarioDoc() });
    // Too big to keep: better none than an older combat restored as the last.
    if (text.length > keptMax) localStorage.removeItem(keptKey);
    else localStorage.setItem(keptKey, text);
  } catch { /* no storage: nothing is kept */ }
}
function forgetKept() {
  clearTimeout(keepTimer);
  keepTimer = 0;
  try { localStorage.removeItem(keptKey); } catch { /* no storage */ }
}
// keptCombat is the kept combat once it passes the checks of an imported
// document; null when none is kept. A damaged or foreign
// value is dropped without a word: it is not the player's doing.
async function keptCombat() {
  let text;
  try { text = localStorage.getItem(keptKey); } catch { return null; }
  if (text === null) return null;
  try {
    if (text.length > keptMax) throw new Error('too long');
    const v = JSON.parse(text);
    const d = v?.scenario;
    if (v?.wifodds !== 1 || !d || typeof d !== 'object' || Array.isArray(d)) throw new Error('not a kept combat');
    // YAML reads JSON: the engine checks it as it checks a file.
    const { status, json } = await engine.call('parse', {}, { scenario: JSON.stringify(d) });
    if (status !== 200) throw new Error(json?.error);
    return d; // the page's own, in its order
  } catch {
    forgetKept();
    return null;
  }
}
async function importYAML(text) {
  const { status, json } = await engine.call('parse', {}, { scenario: text });
  if (status !== 200) throw new Error(json.error);
  load(json);
}
// importFile loads a file's text; its errors are named by the file's name
// (not the page's request.yaml), and say the file was not loaded: the
// page keeps the combat and the answer it had.
async function importFile(text, name) {
  try {
    await importYAML(text);
    return true;
  } catch (e) {
    showError(e.message, name);
    $('#status-text').textContent = `Not loaded: ${name} needs a fix`;
    return false;
  }
}
// fromDoc is the page's document for a scenario document: the defaults
// for what it leaves out (none of the hex for a front, whose targets each
// have their own).
function fromDoc(d) {
  const out = { ...defaultDoc(), ...d };
  if (d.kind !== 'bombardment') { out.attacker = d.attacker ?? { units: [] }; out.defender = d.defender ?? { units: [] }; }
  if (d.targets && !d.hex) delete out.hex;
  return out;
}
// planFields shows a plan's target and cost, which live in the Plan tab's
// own controls rather than in the form: a file and a share link alike.
function planFields(d) {
  if (d.plan?.target !== undefined) $('#plan-target').value = d.plan.target;
  // A plan file's cost is its own, the default when it names none.
  if (d.plan) $('#plan-cost').value = d.plan.cost ?? 'committed_factors';
}
function load(d) {
  notTheExample();
  doc = fromDoc(d);
  defenderPending = false; // a file's empty defender is its error
  uploadedCRT = null;
  planOff.clear();
  reserveOff.clear();
  planFields(d);
  renderForm();
  if (isPlan() && tab === 'run') selectTab('plan');
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
  $('#new-combat').addEventListener('click', newCombat);
  $('#show-example').addEventListener('click', showExample);
  // Closing the tab before the timer fires keeps the last change too.
  addEventListener('pagehide', () => { if (keepTimer) keepNow(); });
  // Touching the defender (a row changed, a button pressed, the focus
  // leaving it) ends New combat's grace: an empty defender is then an
  // error beside it. Typing in its box is not: the stack is on its way.
  const touchDefender = (e) => {
    if (!defenderPending || (e.type === 'focusout' && $('#defender').contains(e.relatedTarget))) return;
    if (e.type === 'click' && !e.target.closest('button')) return;
    defenderPending = false;
    if (!stacks.defender.length) changed();
  };
  for (const ev of ['change', 'click', 'focusout']) $('#defender').addEventListener(ev, touchDefender);
  for (const side of ['attacker', 'defender']) {
    const box = $('#' + side);
    $('.quick-set', box).addEventListener('click', () => guarded(() => quickEntry(side, true)));
    $('.quick-add', box).addEventListener('click', () => guarded(() => quickEntry(side, false)));
    $('.quick-text', box).addEventListener('keydown', (e) => {
      if (e.key === 'Enter') { e.preventDefault(); guarded(() => quickEntry(side, !e.shiftKey)); }
    });
    $('.add-unit', box).addEventListener('click', () => {
      const last = stacks[side].at(-1);
      stacks[side].push(last ? { u: structuredClone(last.u), n: 1 } : { u: { type: 'INF', size: 'corps', factors: 3, nation: side === 'attacker' ? 'GE' : 'USSR' }, n: 1 });
      renderSide(side);
      changed();
      $(`#${side} .row:last-child [data-field="type"]`)?.focus();
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
  // Rolls that are not whole numbers are said at once beside the box
  // (a fresh player typed "x7" and the dice's outcome just went); the
  // combat is answered without them meanwhile.
  $('#dice').addEventListener('input', () => {
    const typed = $('#dice').value.split(/[\s,]+/).filter(Boolean), rolls = typed.map(Number);
    const bad = typed.filter((t, i) => !Number.isInteger(rolls[i]));
    if (rolls.length && !bad.length) doc.dice = rolls; else delete doc.dice;
    diceMisread(bad[0] ?? null);
    changed();
  });
  // Enter in the Modifier field goes on to the Rolled box, the next step
  // (issue 27), brought into view below the phone's bar.
  $('#modifier').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.isComposing) return;
    e.preventDefault();
    const d = $('#dice');
    d.style.scrollMarginTop = `${$('#summary-bar').offsetHeight + 8}px`;
    d.style.scrollMarginBottom = '8px'; // whole in sight, not a fraction of a pixel short
    d.focus({ preventScroll: true });
    d.scrollIntoView({ block: 'nearest' });
  });
  for (const id of ['#explain', '#raids']) $(id).addEventListener('change', changed);
  for (const id of ['#sweep-lo', '#sweep-hi', '#sweep-mlo', '#sweep-mhi', '#plan-target', '#plan-cost']) {
    $(id).addEventListener('change', changed);
  }
  for (const id of ['#sweep-lo', '#sweep-mlo', '#sweep-mhi']) for (const ev of ['input', 'change']) $(id).addEventListener(ev, () => { $(id).dataset.touched = '1'; });
  $('#sb-more').addEventListener('click', () => {
    rulesCue(false);
    // Below the bar, however tall it is (a line more with the dice).
    $('#results').style.scrollMarginTop = `${$('#summary-bar').offsetHeight + 8}px`;
    $('#results').scrollIntoView({ block: 'start' }); $('#results').focus({ preventScroll: true }); });
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
    const y = exportYAML();
    $('#yaml-text').value = y;
    const a = $('#yaml-download');
    URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([y], { type: 'application/yaml' }));
    a.download = (doc.name || 'scenario').replace(/[^A-Za-z0-9._-]+/g, '-') + '.yaml';
    $('#yaml-msg').hidden = true;
    dlg.showModal();
  });
  $('#yaml-close').addEventListener('click', () => dlg.close());
  $('#yaml-import').addEventListener('click', async () => {
    const ok = await importFile($('#yaml-text').value, 'the pasted YAML');
    // The dialog hides the page: a paste's errors are shown in it too.
    $('#yaml-msg').hidden = ok;
    $('#yaml-msg').textContent = ok ? '' : [...$('#error').childNodes].filter((n) => n.nodeName !== 'DETAILS').map((n) => n.textContent).join('');
    if (ok) dlg.close();
  });
  $('#import-file').addEventListener('change', async () => {
    const f = $('#import-file').files[0];
    $('#import-file').value = '';
    if (f) await importFile(await f.text(), f.name);
  });
  $('#share').addEventListener('click', async () => {
    const url = location.origin + location.pathname + '#s=' + encodeDoc();
    history.replaceState(null, '', url);
    try { await navigator.clipboard.writeText(url); $('#status-text').textContent = 'Share link copied'; } catch { $('#status-text').textContent = 'Share link: the address bar'; }
  });
}

async function main() {
  schema = (await engine.call('schema')).json;
  const fill = (sel, list, label = (v) => v) => $(sel).replaceChildren(...list.map((v) => el('option', { value: v, text: label(v) })));
  fill('#kind', schema.kinds);
  fill('#table', schema.tables);
  fill('#terrain', schema.terrains);
  fill('#weather', schema.weathers);
  fill('#plan-cost', schema.costs, (c) => costWords[c] ?? words(c));
  $('#crt').replaceChildren(...schema.crts.map((v) => el('option', { value: v, text: v })), el('option', { value: 'upload', text: 'upload a file…' }));
  buildRulesStrip();
  doc = defaultDoc();
  const m = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
  if (m) {
    try {
      const d = decodeDoc(m[1]);
      doc = fromDoc(d);
      notTheExample();
      planFields(d);
    } catch { showError('The link carries no readable scenario; starting afresh.'); }
  } else {
    // No share link: the combat the player left, if any (a link wins).
    const kept = await keptCombat();
    if (kept) {
      doc = fromDoc(kept);
      notTheExample();
      $('#intro-restored').hidden = false;
      planFields(kept);
    }
  }
  wire();
  renderForm();
  if (isPlan()) selectTab('plan'); else refresh();
  // ask puts a command to the engine about the combat as the tabs do (the
  // status line, Cancel, progress), drawing nothing: for the console and
  // the browser test.
  const ask = (command, params) => guarded(async () => { await api(command, doc, params); });
  window.wifodds = { toYAML: () => toYAML(doc), exportYAML, load, ask, ready: true, engine: $('meta[name=wifodds-engine]')?.content, firstAnswerMs };
}
main();
