// The page's main loop: asks the server for the cluster twice a second and redraws the drawing,
// the member cards, the charts and the event log; buttons send launcher actions.
import { getJson, postJson, el, toast } from './api.js';
import { drawCluster, roleOf } from './cluster-drawing.js';
import { drawChart } from './charts.js';
import { initKeys } from './keys.js';

const $ = id => document.getElementById(id);
// series colours, kept apart from the role colours of the drawing (green, blue, purple, amber, red)
const COLORS = ['#0891b2', '#db2777', '#ea580c', '#65a30d', '#a16207', '#475569', '#0d9488', '#be123c'];
const WINDOW_MS = 5 * 60 * 1000;
const DOWN = new Set(['stopped', 'killed', 'exited']);

const state = { historySeq: 0, eventSeq: 0, rates: new Map(), terms: new Map(), colors: new Map(), view: null, busy: new Set() };

function colorOf(process) {
  if (!state.colors.has(process)) state.colors.set(process, COLORS[state.colors.size % COLORS.length]);
  return state.colors.get(process);
}

function bytes(n) {
  if (!n) return '0 B';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
  return `${n >= 10 || i === 0 ? Math.round(n) : n.toFixed(1)} ${units[i]}`;
}

function clock(ms) {
  const d = new Date(ms);
  return d.toTimeString().slice(0, 8) + '.' + String(d.getMilliseconds()).padStart(3, '0');
}

function summary(view) {
  const s = $('summary');
  if (!view.running) {
    s.replaceChildren(el('span', { class: 'bad' }, `no cluster running (${view.phase})`),
      view.baseDir ? ` · ${view.baseDir}` : ' · start one with: cluster-launcher up -d');
    return;
  }
  const up = view.members.filter(m => m.answering).length;
  s.replaceChildren(
    el('b', {}, `${view.members.length} members`), ` · ${up} answering · `,
    view.leader ? el('span', {}, 'leader ', el('b', { id: 'leader-name' }, view.leader)) : el('span', { class: 'bad', id: 'leader-name' }, 'no leader'),
    ` · term ${view.term}`, view.faults === 'proxy' ? ' · faults: proxy' : ' · faults: off', view.tls ? ' · TLS' : '');
}

function can(m, verb, view) {
  const down = DOWN.has(m.state);
  switch (verb) {
    case 'kill': case 'stop': case 'restart': return m.state === 'running' || m.state === 'paused';
    case 'start': return down;
    case 'pause': return m.state === 'running';
    case 'resume': return m.state === 'paused';
    case 'partition': return view.faults === 'proxy' && !m.partitioned;
    case 'heal': return view.faults === 'proxy' && (m.partitioned || m.delayMillis > 0);
    case 'delay': return view.faults === 'proxy';
    case 'move-leader': return m.answering && m.role === 'follower' && view.leader && view.leader !== m.process;
    case 'promote': return m.answering && m.role === 'learner';
    case 'remove-member': return view.members.length > 1;
    default: return true;
  }
}

const LABELS = { kill: 'Kill', stop: 'Stop', start: 'Start', restart: 'Restart', pause: 'Pause', resume: 'Resume',
  partition: 'Partition', heal: 'Heal', 'move-leader': 'Make leader', promote: 'Promote', 'remove-member': 'Remove' };

async function act(verb, member, value, button) {
  const key = verb + ' ' + member;
  if (state.busy.has(key)) return;
  state.busy.add(key);
  if (button) button.classList.add('busy');
  try {
    const r = await postJson('api/action', { verb, member, value: value === undefined ? '' : String(value) });
    if (r.ok) toast(r.output || `${verb} ${member}: done`);
    else toast(r.error || `${verb} ${member} failed`, true);
  } catch (e) {
    toast(e.message, true);
  } finally {
    state.busy.delete(key);
    if (button) button.classList.remove('busy');
    refresh();
  }
}

function card(m, view) {
  const role = roleOf(m);
  const badges = [el('span', { class: 'badge ' + m.state, 'data-field': 'state' }, m.state)];
  if (m.answering) badges.unshift(el('span', { class: 'badge ' + m.role, 'data-field': 'role' }, m.role));
  else if (m.state === 'running') badges.unshift(el('span', { class: 'badge' }, 'not answering'));
  if (m.partitioned) badges.push(el('span', { class: 'badge partitioned', 'data-field': 'partitioned' }, 'partitioned'));
  if (m.delayMillis) badges.push(el('span', { class: 'badge delayed' }, `+${m.delayMillis} ms`));
  const alarms = m.alarms && m.alarms.length ? m.alarms.join(', ') : 'none';
  const fields = [
    ['ID', m.id || '—'], ['PID', m.pid ? String(m.pid) : '—'],
    ['term', m.answering ? String(m.term) : '—'],
    ['commit / applied', m.answering ? `${m.commitIndex} / ${m.appliedIndex}` : '—'],
    ['db size', m.answering ? `${bytes(m.dbSize)} (${bytes(m.dbSizeInUse)} in use)` : '—'],
    ['health', m.health || (m.answering ? '…' : '—')], ['alarms', alarms], ['client', m.clientUrl],
  ];
  const dl = el('dl', {});
  for (const [k, v] of fields) {
    dl.append(el('dt', {}, k), el('dd', { class: (k === 'health' && v.startsWith('unhealthy')) || (k === 'alarms' && v !== 'none') ? 'bad' : null }, v));
  }
  if (!m.answering && m.failure && m.state === 'running') dl.append(el('dt', {}, 'last error'), el('dd', { class: 'bad' }, m.failure));
  const buttons = el('div', { class: 'buttons' });
  for (const verb of ['kill', 'stop', 'start', 'restart', 'pause', 'resume', 'partition', 'heal', 'move-leader', 'promote', 'remove-member']) {
    if (verb === 'promote' && m.role !== 'learner') continue;
    const b = el('button', { type: 'button', 'data-action': verb, class: ['kill', 'remove-member'].includes(verb) ? 'danger' : null,
      disabled: !can(m, verb, view) || state.busy.has(verb + ' ' + m.process) });
    b.textContent = LABELS[verb];
    b.addEventListener('click', () => act(verb, m.process, '', b));
    buttons.append(b);
  }
  const delayInput = el('input', { class: 'delay-input', type: 'number', min: 0, max: 60000, value: m.delayMillis || 200, 'aria-label': 'delay ms' });
  const delayButton = el('button', { type: 'button', 'data-action': 'delay', disabled: !can(m, 'delay', view) }, 'Delay ms');
  delayButton.addEventListener('click', () => act('delay', m.process, delayInput.value, delayButton));
  buttons.append(delayButton, delayInput);
  return el('article', { class: `card role-${role}${DOWN.has(m.state) ? ' down' : ''}`, 'data-member': m.process },
    el('header', {}, el('span', { class: 'dot', style: `background:${colorOf(m.process)}` }), el('h3', {}, m.process), ...badges),
    dl, buttons);
}

function renderMembers(view) {
  // keep a delay value being typed: redraw a card only when the pointer or focus is not in it
  const box = $('members');
  const active = document.activeElement && box.contains(document.activeElement) ? document.activeElement.closest('.card') : null;
  const cards = view.members.map(m => {
    const existing = active && active.dataset.member === m.process ? active : null;
    return existing || card(m, view);
  });
  box.replaceChildren(...cards);
}

function renderEvents(events) {
  const list = $('events');
  for (const e of events) {
    if (e.seq <= state.eventSeq) continue; // already shown
    state.eventSeq = e.seq;
    list.prepend(el('li', { class: e.kind }, el('time', { datetime: new Date(e.at).toISOString() }, clock(e.at)), ' ', e.text));
  }
  while (list.children.length > 500) list.lastChild.remove();
}

function addPoints(map, process, point) {
  if (!map.has(process)) map.set(process, []);
  const arr = map.get(process);
  arr.push(point);
  const cutoff = Date.now() - 2 * WINDOW_MS;
  while (arr.length && arr[0][0] < cutoff) arr.shift();
}

function renderCharts(view) {
  const names = view.members.map(m => m.process);
  const series = (map, pick) => names.map(n => ({ name: n, color: colorOf(n), points: (map.get(n) || []).map(p => [p[0], pick(p)]) }));
  const now = Date.now();
  // the window grows with the data, from one minute to five, so a young cluster fills the width
  const first = Math.min(...[...state.rates.values(), ...state.terms.values()].filter(a => a.length).map(a => a[0][0]), now);
  const windowMs = Math.min(WINDOW_MS, Math.max(60000, Math.ceil((now - first) / 15000) * 15000));
  $('chart-window').textContent = windowMs >= 120000 ? `last ${Math.round(windowMs / 60000)} minutes` : `last ${windowMs / 1000} seconds`;
  drawChart($('chart-rps'), series(state.rates, p => p[1]), { now, windowMs, dots: true, empty: 'waiting for /metrics…' });
  drawChart($('chart-put'), series(state.rates, p => p[2]), { now, windowMs, dots: true,
    empty: 'no puts yet (latency needs --metrics=extensive)' });
  drawChart($('chart-term'), series(state.terms, p => p[1]), { now, windowMs, step: true, integer: true });
  $('chart-legend').replaceChildren(...names.map(n => el('span', {}, el('i', { style: `background:${colorOf(n)}` }), n)));
}

let timer = null;
let inFlight = null;
// One request at a time: a refresh asked for while one runs (after a button) follows it.
function refresh() {
  if (inFlight) {
    inFlight.then(() => refresh());
    return inFlight;
  }
  inFlight = poll().finally(() => { inFlight = null; });
  return inFlight;
}

async function poll() {
  clearTimeout(timer);
  try {
    const r = await getJson(`api/cluster?since=${state.historySeq}&events=${state.eventSeq}`);
    state.view = r.view;
    state.historySeq = r.historySeq;
    for (const p of r.rates) addPoints(state.rates, p.member, [p.at, p.rps, p.putMillis]);
    for (const p of r.terms) addPoints(state.terms, p.member, [p.at, p.term]);
    $('connection').textContent = 'live';
    $('connection').className = 'connection live';
    summary(r.view);
    drawCluster($('drawing'), r.view);
    renderMembers(r.view);
    renderEvents(r.events);
    renderCharts(r.view);
    $('heal-all').disabled = r.view.faults !== 'proxy';
  } catch (e) {
    $('connection').textContent = 'dashboard unreachable';
    $('connection').className = 'connection lost';
  }
  timer = setTimeout(refresh, 500);
}

function nextMemberName() {
  const names = new Set((state.view ? state.view.members : []).map(m => m.process));
  const base = state.view && state.view.members.length ? state.view.members[0].process.replace(/\d+$/, '') : 'infra';
  for (let i = 1; ; i++) if (!names.has(base + i)) return base + i;
}

$('add-learner').addEventListener('submit', ev => {
  ev.preventDefault();
  const name = $('new-member-name').value.trim() || nextMemberName();
  act('add-member', name, 'learner', ev.submitter);
  $('new-member-name').value = '';
});
$('heal-all').addEventListener('click', ev => act('heal', '', '', ev.target));
initKeys();
refresh();
