// The key browser: list by prefix, get (at a revision) with the key's earlier versions, put,
// delete, and a watch pane fed by Server-Sent Events.
import { getJson, postJson, el, toast } from './api.js';

const $ = id => document.getElementById(id);

function kvTable(rows) {
  return el('table', {},
    el('thead', {}, el('tr', {}, el('th', {}, 'mod rev'), el('th', {}, 'ver'), el('th', {}, 'value'))),
    el('tbody', {}, ...rows.map(v => el('tr', {}, el('td', {}, String(v.modRevision)), el('td', {}, String(v.version)),
      el('td', {}, v.value)))));
}

async function list() {
  const prefix = $('prefix').value;
  try {
    const r = await getJson('api/kv/list?prefix=' + encodeURIComponent(prefix));
    $('key-rows').replaceChildren(...r.keys.map(k => el('tr', { 'data-key': k.key, onclick: () => show(k.key, 0) },
      el('td', { title: k.key }, k.key), el('td', { title: k.value }, k.value),
      el('td', {}, String(k.modRevision)), el('td', {}, String(k.version)))));
    $('list-note').className = 'note';
    $('list-note').textContent = `${r.count} key${r.count === 1 ? '' : 's'}${r.more ? ` (first ${r.keys.length} shown)` : ''} at revision ${r.revision}, from ${r.servedBy}`;
  } catch (e) {
    $('list-note').className = 'note bad';
    $('list-note').textContent = e.message;
  }
}

async function show(key, rev) {
  $('put-key').value = key;
  const detail = $('key-detail');
  try {
    const r = await getJson(`api/kv/get?key=${encodeURIComponent(key)}&rev=${rev || 0}`);
    if (!r.kv) {
      detail.replaceChildren(el('div', { class: 'note' }, `${key}: not found at revision ${rev || r.revision} (${r.servedBy})`));
      return;
    }
    $('put-value').value = r.kv.value;
    const parts = [
      el('div', {}, el('b', {}, r.kv.key), rev ? ` at revision ${rev}` : ''),
      el('pre', { id: 'key-value' }, r.kv.value),
      el('div', { class: 'note' }, `create rev ${r.kv.createRevision} · mod rev ${r.kv.modRevision} · version ${r.kv.version}`
        + (r.kv.lease ? ` · lease ${r.kv.lease.toString(16)}` : '') + ` · from ${r.servedBy}`),
    ];
    const versions = await getJson('api/kv/versions?key=' + encodeURIComponent(key)).catch(() => null);
    if (versions && versions.versions.length > 1) {
      parts.push(el('div', { class: 'note' }, 'versions (newest first)'), kvTable(versions.versions));
    }
    if (versions && versions.note) parts.push(el('div', { class: 'note' }, versions.note));
    detail.replaceChildren(...parts);
  } catch (e) {
    detail.replaceChildren(el('div', { class: 'note bad' }, e.message));
  }
}

async function put(ev) {
  ev.preventDefault();
  const key = $('put-key').value, value = $('put-value').value;
  try {
    const r = await postJson('api/kv/put', { key, value });
    toast(`put ${key} at revision ${r.revision} (through ${r.servedBy})`);
    await show(key, 0);
    await list();
  } catch (e) {
    toast('put failed: ' + e.message, true);
  }
}

async function del() {
  const key = $('put-key').value;
  try {
    const r = await postJson('api/kv/delete', { key, prefix: false });
    toast(`deleted ${r.deleted} key${r.deleted === 1 ? '' : 's'} at revision ${r.revision}`);
    $('key-detail').replaceChildren();
    await list();
  } catch (e) {
    toast('delete failed: ' + e.message, true);
  }
}

let source = null;

function watch(ev) {
  ev.preventDefault();
  if (source) {
    source.close();
    source = null;
    $('watch-button').textContent = 'Watch';
    $('watch-state').textContent = 'not watching';
    return;
  }
  const prefix = $('watch-prefix').value;
  source = new EventSource('api/watch?prefix=' + encodeURIComponent(prefix));
  $('watch-button').textContent = 'Stop';
  $('watch-state').textContent = 'connecting…';
  source.addEventListener('started', e => {
    $('watch-state').className = 'note';
    $('watch-state').textContent = `watching ${prefix ? `"${prefix}"…` : 'all keys'} on ${JSON.parse(e.data).servedBy}`;
  });
  source.addEventListener('kv', e => {
    const d = JSON.parse(e.data);
    const li = el('li', { class: d.type },
      el('b', {}, d.type), ` ${d.key}`, d.type === 'PUT' ? ` = ${d.value}` : '', el('span', { class: 'note' }, `  rev ${d.modRevision}`));
    $('watch-events').prepend(li);
    while ($('watch-events').children.length > 200) $('watch-events').lastChild.remove();
  });
  source.addEventListener('problem', e => {
    const d = JSON.parse(e.data);
    $('watch-state').className = 'note bad';
    $('watch-state').textContent = d.message;
    if (d.fatal) { source.close(); source = null; $('watch-button').textContent = 'Watch'; }
  });
}

export function initKeys() {
  $('list-form').addEventListener('submit', ev => { ev.preventDefault(); list(); });
  $('put-form').addEventListener('submit', put);
  $('get-button').addEventListener('click', () => show($('put-key').value, parseInt($('get-rev').value, 10) || 0));
  $('delete-button').addEventListener('click', del);
  $('watch-form').addEventListener('submit', watch);
  list();
}
