// The template workbench (issue 31): the page over librmg compiled to WebAssembly. The library runs
// in a Web Worker (worker.js); this file is the page: the global `rmg` (docs/web.md), opening a
// pack, the check's diagnostics, the zone graph, the options, the map on a canvas, the balance
// report and the downloads.
'use strict';

// ---- the worker and the global `rmg` -------------------------------------------------------------

const PLAYER_COLOURS = ['#a0a0a0', '#e02020', '#2050e0', '#c8a070', '#30b030', '#f08020', '#9030c0', '#20b0b0', '#f070b0'];
const TERRAINS = ['dirt', 'sand', 'grass', 'snow', 'swamp', 'rough', 'subterranean', 'lava', 'water', 'rock', 'highlands', 'wasteland'];
const TERRAIN_COLOURS = ['#8c6a3e', '#dccb8a', '#4f9a3a', '#e8eef2', '#4b6b4a', '#9c8a62', '#6a5a4a', '#4a4040', '#2f64b8', '#303030', '#7aa07a', '#a58a5a'];
const OBJECT_KINDS = ['treasure', 'town', 'mine', 'resource', 'monster', 'monolith', 'gate', 'border guard', 'keymaster tent',
  "seer's hut", 'shipyard', 'airship yard', 'obstacle', 'boat'];
const OBJECT_COLOURS = ['#ffd060', null, '#ff9a00', '#ffee00', '#d00000', '#ff00ff', '#8000ff', '#00e0ff', '#60ff60', '#80c0ff', '#404040', '#404040', null, '#5a3a1a'];
const ZONE_KINDS = ['human start', 'computer start', 'treasure', 'junction', 'water', 'rock'];
const CONNECTION_TYPES = ['standard', 'wide', 'border guard', 'fictive'];
const ROADS = ['no road', 'random road', 'road'];
const PLACEMENTS = ['', 'ground', 'underground gate', 'monolith', 'random'];
const RIVER_COLOURS = [null, '#3c78d8', '#9cd4f0', '#7a6a40', '#e05020'];
const ROAD_COLOURS = [null, '#d8b878', '#c8c0a8', '#b8b0a0'];

let worker = null, nextId = 1;
const pending = new Map();
let onProgress = null;

function startWorker() {
  worker = new Worker('worker.js');
  worker.onmessage = (ev) => {
    const m = ev.data;
    if (m.type === 'progress') { if (onProgress) onProgress(m.stage, m.fraction); return; }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(Object.assign(new Error(m.error.message), { details: m.error.details }));
  };
  worker.onerror = (ev) => {
    const e = new Error('the worker failed: ' + (ev.message || 'unknown error'));
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
}
function call(op, ...args) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, op, args });
  });
}
startWorker();

// The page's API (docs/web.md). Options by the `rmg generate` command's names.
window.rmg = {
  // -> {fingerprint, json, h3m: Uint8Array, warnings}; rejects with the library's message (err.details:
  // status, stage, zone, connection, and the template's errors when it was refused for them).
  async generate(packText, options) {
    const r = await call('generate', packText, packText == null ? 'builtin' : (options && options.name) || 'pack', options || {});
    return { fingerprint: r.fingerprint, json: r.json, h3m: r.h3m, warnings: r.warnings, info: r.info, ms: r.ms };
  },
  // -> {ok, load_error, messages: [{severity, code, text, file, line, column, template, zone, connection}], pack}
  check(packText, options) {
    return call('check', packText, packText == null ? 'builtin' : (options && options.name) || 'pack', options || {});
  },
  // The balance report (docs/balance.md) with each player's reach by day: of the map generated from
  // (packText, options) when given, else of the last map generated.
  async balance(packText, options) {
    if (packText !== undefined) await window.rmg.generate(packText, options);
    const dayPoints = options && options.day_points;
    return call('balance', dayPoints || 0);
  },
  // Stops the generation under way: the worker is stopped and a new one started.
  cancel() {
    worker.terminate();
    const e = new Error('cancelled');
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    startWorker();
  },
  version: () => call('version'),
};

// ---- the page ----------------------------------------------------------------------------------------

const $ = (id) => document.getElementById(id);
const state = { pack: null, packName: 'builtin', packText: null, check: null, map: null, view: null, balance: null,
  level: 0, zoom: 1, ox: 0, oy: 0, busy: false };

function el(tag, attrs, ...kids) {
  const e = document.createElementNS(tag === 'svg' || attrs && attrs.svg ? 'http://www.w3.org/2000/svg' : 'http://www.w3.org/1999/xhtml', tag);
  for (const [k, v] of Object.entries(attrs || {})) if (k !== 'svg') e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
}
const svg = (tag, attrs, ...kids) => el(tag, Object.assign({ svg: 1 }, attrs), ...kids);

function download(name, bytes, type) {
  const url = URL.createObjectURL(new Blob([bytes], { type: type || 'application/octet-stream' }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}
const baseName = () => (state.packName || 'map').replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_') || 'map';

// ---- opening a pack and its diagnostics --------------------------------------------------------------

async function openPack(bytes, name) {
  state.pack = bytes;
  state.packName = name;
  state.packText = bytes ? new TextDecoder('utf-8', { fatal: false }).decode(bytes) : null;
  $('pack-name').textContent = bytes ? name : 'built-in pack';
  await runCheck();
}

async function runCheck() {
  const list = $('diagnostics');
  list.replaceChildren(el('li', {}, 'checking…'));
  let c;
  try { c = await rmg.check(state.pack, { name: state.packName, game: $('opt-game').value }); } catch (e) {
    list.replaceChildren(el('li', { class: 'error' }, e.message));
    return;
  }
  state.check = c;
  const items = [];
  if (c.load_error) {
    const e = c.load_error;
    items.push({ severity: 'error', code: e.status === 'RMG_ERR_INVALID_DATA' ? 'invalid-data' : 'parse', text: e.message, line: e.line, column: e.column });
  }
  items.push(...c.messages);
  for (const w of (c.pack && c.pack.warnings) || []) items.push({ severity: 'warning', code: 'load', text: w, line: 0, column: 0 });
  const errors = items.filter((m) => m.severity === 'error').length;
  $('diag-count').textContent = `(${errors} error(s), ${items.length - errors} warning(s))`;
  list.replaceChildren();
  if (!items.length) list.append(el('li', { class: 'ok' }, 'no problems found'));
  for (const m of items) {
    const li = el('li', { class: m.severity }, `${m.text} [${m.code}]`);
    li.dataset.line = m.line; li.dataset.column = m.column;
    li.onclick = () => { for (const x of list.children) x.classList.remove('selected'); li.classList.add('selected'); showSource(m.line, m.column); };
    list.append(li);
  }
  $('source-view').hidden = true;
  // The template list and the graph.
  const sel = $('opt-template'), gsel = $('graph-template');
  sel.replaceChildren(el('option', { value: '' }, 'random among those that fit'));
  gsel.replaceChildren();
  const seen = {};
  ((c.pack && c.pack.templates) || []).forEach((t, i) => {
    seen[t.name] = (seen[t.name] || 0) + 1;
    const value = seen[t.name] > 1 ? `${t.name}#${seen[t.name]}` : t.name;
    sel.append(el('option', { value }, value));
    gsel.append(el('option', { value: i }, value));
  });
  drawGraph();
}

// The row and cell (h3t, rmg.txt) or line and column (YAML, JSON) of a diagnostic.
function showSource(line, column) {
  const view = $('source-view');
  if (!state.packText || !line) { view.hidden = true; return; }
  const lines = state.packText.split(/\r?\n/);
  view.replaceChildren();
  const tabbed = /\t/.test(lines[0] || '');
  for (let i = Math.max(1, line - 3); i <= Math.min(lines.length, line + 3); i++) {
    const text = lines[i - 1];
    const row = el('div', i === line ? { class: 'hl' } : {});
    row.append(`${String(i).padStart(5)}  `);
    if (i === line && column > 0) {
      if (tabbed) {
        const cells = text.split('\t');
        cells.forEach((c, k) => { row.append(k + 1 === column ? el('span', { class: 'cell' }, c || '␣') : c); if (k < cells.length - 1) row.append('\t'); });
      } else {
        row.append(text.slice(0, column - 1), el('span', { class: 'cell' }, text.slice(column - 1, column) || '␣'), text.slice(column));
      }
    } else row.append(text);
    view.append(row);
  }
  view.hidden = false;
}

// ---- the zone graph: a stress layout, the same picture for the same template -------------------------

function drawGraph() {
  const g = $('graph');
  g.replaceChildren();
  const t = state.check && state.check.pack && state.check.pack.templates[+$('graph-template').value || 0];
  if (!t) return;
  const W = 400, H = 400, n = t.zones.length;
  const idx = new Map(t.zones.map((z, i) => [z.id, i]));
  const pos = t.zones.map((z, i) => ({ x: W / 2 + 150 * Math.cos(2 * Math.PI * i / n), y: H / 2 + 150 * Math.sin(2 * Math.PI * i / n) }));
  const edges = t.connections.filter((c) => idx.has(c.a) && idx.has(c.b)).map((c) => [idx.get(c.a), idx.get(c.b), c]);
  // Stress layout: screen distances follow the hops between zones (disconnected ones a hop
  // further than the farthest), nearer pairs weighing more.
  const hops = t.zones.map((_, i) => {
    const d = new Array(n).fill(Infinity);
    d[i] = 0;
    for (let queue = [i]; queue.length;) {
      const a = queue.shift();
      for (const [p, q] of edges) for (const [u, v] of [[p, q], [q, p]]) if (u === a && d[v] === Infinity) { d[v] = d[a] + 1; queue.push(v); }
    }
    return d;
  });
  const far = Math.max(1, ...hops.flat().filter(Number.isFinite)) + 1;
  for (let it = 0; it < 400; it++) {
    const rate = 0.5 * (1 - it / 400) + 0.02;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const want = (Number.isFinite(hops[i][j]) ? hops[i][j] : far) * 60;
      const dx = pos[i].x - pos[j].x, dy = pos[i].y - pos[j].y, d = Math.max(1e-3, Math.hypot(dx, dy));
      const w = Math.min(1, rate / (want / 60) ** 2), move = w * (d - want) / d / 2;
      pos[i].x -= dx * move; pos[i].y -= dy * move;
    }
  }
  // Scaled into the picture, with room for the labels.
  const x0 = Math.min(...pos.map((p) => p.x)), x1 = Math.max(...pos.map((p) => p.x));
  const y0 = Math.min(...pos.map((p) => p.y)), y1 = Math.max(...pos.map((p) => p.y));
  const scale = Math.min((W - 100) / Math.max(1, x1 - x0), (H - 90) / Math.max(1, y1 - y0));
  for (const p of pos) {
    p.x = W / 2 + (p.x - (x0 + x1) / 2) * scale;
    p.y = H / 2 - 5 + (p.y - (y0 + y1) / 2) * scale;
  }
  for (const [a, b, c] of edges) {
    const attrs = { x1: pos[a].x, y1: pos[a].y, x2: pos[b].x, y2: pos[b].y, stroke: c.roads === 2 ? '#b07a20' : c.roads === 0 ? '#999' : '#666',
      'stroke-width': c.type === 1 ? 4 : 1.5 };
    if (c.type === 3) attrs['stroke-dasharray'] = '2 3';
    if (c.placement === 3 || c.placement === 2) attrs['stroke-dasharray'] = '6 3';
    const line = svg('line', attrs);
    line.append(svg('title', {}, `${CONNECTION_TYPES[c.type] || c.type} ${c.a}–${c.b}, value ${c.value}, ${ROADS[c.roads] || ''}${PLACEMENTS[c.placement] ? ', ' + PLACEMENTS[c.placement] : ''}`));
    g.append(line);
    g.append(svg('text', { x: (pos[a].x + pos[b].x) / 2 + 3, y: (pos[a].y + pos[b].y) / 2 - 2, fill: '#555' }, c.type === 2 ? 'BG' : String(c.value)));
  }
  const maxSize = Math.max(...t.zones.map((z) => z.size), 1);
  t.zones.forEach((z, i) => {
    const r = 8 + 14 * Math.sqrt(z.size / maxSize);
    const fill = z.owner ? PLAYER_COLOURS[z.owner] : z.kind === 3 ? '#bbb' : '#e8d8a0';
    const terr = TERRAINS.filter((_, k) => z.terrains & (1 << k)).join(', ') || (z.terrain_match_town ? "the town's" : 'any');
    const c = svg('circle', { cx: pos[i].x, cy: pos[i].y, r, fill, stroke: '#333' });
    c.append(svg('title', {}, `zone ${z.id}: ${ZONE_KINDS[z.kind]}${z.owner ? ', player ' + z.owner : ''}, size ${z.size}, terrain ${terr}, ` +
      `towns ${z.towns.join('/')}, treasure ${z.treasure.join('/')}`));
    g.append(c);
    g.append(svg('text', { x: pos[i].x, y: pos[i].y + 3, 'text-anchor': 'middle', 'font-weight': 'bold' }, String(z.id)));
    g.append(svg('text', { x: pos[i].x, y: pos[i].y + r + 10, 'text-anchor': 'middle', fill: '#333' },
      `${ZONE_KINDS[z.kind].split(' ')[0]} ×${z.size}${TERRAINS.filter((_, k) => z.terrains & (1 << k)).length === 1 ? ' ' + terr : ''}`));
  });
}

// ---- options and generation -------------------------------------------------------------------------------

function readOptions() {
  const f = $('options');
  const o = {};
  for (const k of ['template', 'size', 'underground', 'players', 'humans', 'water', 'monsters', 'game', 'seed', 'best_of']) {
    const v = f.elements[k].value.trim();
    if (v !== '') o[k] = v;
  }
  if (o.underground) o.underground = o.underground === 'true';
  const towns = {};
  for (const part of $('opt-towns').value.split(/[\s,]+/).filter(Boolean)) {
    const [p, t] = part.split('=');
    towns[p] = t;
  }
  o.towns = towns;
  o.name = state.packName;
  return o;
}

function showError(e) {
  const box = $('error');
  const d = e.details || {};
  let text = e.message;
  const where = [d.stage && `stage ${d.stage}`, d.zone >= 0 && `zone ${d.zone}`, d.connection >= 0 && `connection ${d.connection}`].filter(Boolean);
  if (d.status) text += `\n(${d.status}${where.length ? ', ' + where.join(', ') : ''})`;
  for (const m of d.errors || []) text += `\n${m.text} [${m.code}]`;
  box.textContent = text;
  box.hidden = false;
}

async function generate() {
  if (state.busy) return;
  state.busy = true;
  $('generate').disabled = true; $('cancel').disabled = false;
  $('error').hidden = true;
  $('progress').value = 0; $('progress-stage').textContent = 'starting';
  onProgress = (stage, fraction) => {
    const order = ['select', 'solve', 'place', 'connect', 'objects', 'guard', 'finish', 'validate'];
    const k = Math.max(0, order.indexOf(stage));
    $('progress').value = (k + fraction) / order.length;
    $('progress-stage').textContent = stage;
  };
  try {
    const r = await rmg.generate(state.pack, readOptions());
    state.map = r;
    state.view = await call('view');
    const i = r.info;
    $('fingerprint').textContent = r.fingerprint;
    $('summary').textContent = `${i.pack} / ${i.template}, ${i.width}×${i.height}×${i.levels}, seed ${i.seed}, ` +
      `${i.players} players, ${r.ms.toFixed(1)} ms (${i.attempts} attempt${i.attempts === 1 ? '' : 's'})`;
    $('warnings').replaceChildren(...r.warnings.map((w) => el('li', {}, w)));
    setLink('dl-h3m', r.h3m, `${baseName()}.h3m`);
    setLink('dl-json', new TextEncoder().encode(r.json), `${baseName()}.json`, 'application/json');
    $('result').hidden = false;
    // The graph follows the template the map was made from.
    const templates = (state.check && state.check.pack && state.check.pack.templates) || [];
    const k = templates.findIndex((t) => t.name === i.template);
    if (k >= 0 && +$('graph-template').value !== k) { $('graph-template').value = k; drawGraph(); }
    const lv = $('level');
    lv.replaceChildren(el('option', { value: 0 }, 'surface'));
    if (i.levels > 1) lv.append(el('option', { value: 1 }, 'underground'));
    state.level = 0;
    state.balance = null;
    renderMap();
    fitMap();
    $('progress').value = 1; $('progress-stage').textContent = 'done';
    await showBalance();
  } catch (e) {
    $('progress-stage').textContent = e.message === 'cancelled' ? 'cancelled' : 'failed';
    if (e.message !== 'cancelled') showError(e);
  } finally {
    state.busy = false;
    $('generate').disabled = false; $('cancel').disabled = true;
  }
}

function setLink(id, bytes, name, type) {
  const a = $(id);
  if (a.href && a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
  if (!bytes) { a.removeAttribute('href'); return; }
  a.href = URL.createObjectURL(new Blob([bytes], { type: type || 'application/octet-stream' }));
  a.download = name;
}

// ---- the map on a canvas: one image of the level, drawn zoomed and panned --------------------------------

const S = 8; // pixels per tile in the level's image
let levelImage = null;

function renderMap() {
  const v = state.view, i = state.map && state.map.info;
  if (!v || !i) return;
  const W = i.width, H = i.height, z = state.level, off = z * W * H;
  const img = document.createElement('canvas');
  img.width = W * S; img.height = H * S;
  const g = img.getContext('2d');
  const terrain = v.layers.terrain, zone = new Uint16Array(v.layers.zone.buffer), road = v.layers.road, river = v.layers.river;
  const object = new Uint32Array(v.layers.object.buffer);
  const overlay = $('overlay').value;
  const reach = overlay && state.balance ? state.balance.reach[+overlay] : null;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const t = off + y * W + x;
    g.fillStyle = TERRAIN_COLOURS[terrain[t]] || '#000';
    g.fillRect(x * S, y * S, S, S);
    const o = object[t] ? v.objects[object[t] - 1] : null;
    if (o && o.kind === 12) { g.fillStyle = 'rgba(0,0,0,0.45)'; g.fillRect(x * S, y * S, S, S); }
    if (river && river[t]) { g.fillStyle = RIVER_COLOURS[river[t]] || '#3c78d8'; g.fillRect(x * S + 2, y * S + 2, S - 4, S - 4); }
    if (road[t]) { g.fillStyle = ROAD_COLOURS[road[t]] || '#d8b878'; g.fillRect(x * S + 2, y * S + 2, S - 4, S - 4); }
    if (o && o.kind !== 12) {
      g.fillStyle = o.kind === 1 ? PLAYER_COLOURS[o.owner] || '#fff' : OBJECT_COLOURS[o.kind] || '#fff';
      g.fillRect(x * S + 1, y * S + 1, S - 2, S - 2);
    }
    if (reach) {
      const d = reach.charCodeAt(t) - 48;
      if (d > 0) { g.fillStyle = ['', 'rgba(0,255,0,0.45)', 'rgba(255,255,0,0.45)', 'rgba(255,140,0,0.45)', 'rgba(255,0,0,0.35)'][Math.min(d, 4)]; g.fillRect(x * S, y * S, S, S); }
    }
    // zone borders
    g.fillStyle = '#101010';
    if (x + 1 < W && zone[t] !== zone[t + 1]) g.fillRect(x * S + S - 1, y * S, 1, S);
    if (y + 1 < H && zone[t] !== zone[t + W]) g.fillRect(x * S, y * S + S - 1, S, 1);
  }
  // towns: a black frame around the tiles they cover
  const boxes = new Map();
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const id = object[off + y * W + x], o = id ? v.objects[id - 1] : null;
    if (!o || o.kind !== 1) continue;
    const b = boxes.get(id) || { x0: x, y0: y, x1: x, y1: y };
    b.x0 = Math.min(b.x0, x); b.y0 = Math.min(b.y0, y); b.x1 = Math.max(b.x1, x); b.y1 = Math.max(b.y1, y);
    boxes.set(id, b);
  }
  g.strokeStyle = '#000'; g.lineWidth = 2;
  for (const b of boxes.values()) g.strokeRect(b.x0 * S + 1, b.y0 * S + 1, (b.x1 - b.x0 + 1) * S - 2, (b.y1 - b.y0 + 1) * S - 2);
  levelImage = img;
  drawMap();
}

function drawMap() {
  const c = $('map'), g = c.getContext('2d');
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.fillStyle = '#222'; g.fillRect(0, 0, c.width, c.height);
  if (!levelImage) return;
  g.imageSmoothingEnabled = false;
  g.setTransform(state.zoom, 0, 0, state.zoom, state.ox, state.oy);
  g.drawImage(levelImage, 0, 0);
}

function fitMap() {
  if (!levelImage) return;
  const c = $('map');
  state.zoom = Math.min(c.width / levelImage.width, c.height / levelImage.height);
  state.ox = (c.width - levelImage.width * state.zoom) / 2;
  state.oy = (c.height - levelImage.height * state.zoom) / 2;
  drawMap();
}

function zoomAt(factor, cx, cy) {
  const z = Math.min(16, Math.max(0.1, state.zoom * factor));
  state.ox = cx - (cx - state.ox) * z / state.zoom;
  state.oy = cy - (cy - state.oy) * z / state.zoom;
  state.zoom = z;
  drawMap();
}

function tileAt(ev) {
  const c = $('map'), r = c.getBoundingClientRect();
  const px = (ev.clientX - r.left) * c.width / r.width, py = (ev.clientY - r.top) * c.height / r.height;
  return { x: Math.floor((px - state.ox) / state.zoom / S), y: Math.floor((py - state.oy) / state.zoom / S), px, py };
}

function describeTile(x, y) {
  const v = state.view, i = state.map.info;
  if (x < 0 || y < 0 || x >= i.width || y >= i.height) return '';
  const t = state.level * i.width * i.height + y * i.width + x;
  const zone = new Uint16Array(v.layers.zone.buffer)[t], oid = new Uint32Array(v.layers.object.buffer)[t];
  const zi = i.zones[zone - 1];
  let s = `(${x}, ${y}, ${state.level}) ${TERRAINS[v.layers.terrain[t]] || '?'}, zone ${zone}`;
  if (zi) s += ` (${ZONE_KINDS[zi.kind]}${zi.owner ? ', player ' + zi.owner : ''}${zi.template_zone ? ', template zone ' + zi.template_zone : ''})`;
  if (v.layers.road[t]) s += ', road';
  if (v.layers.river && v.layers.river[t]) s += ', river';
  if (oid) {
    const o = v.objects[oid - 1];
    s += ` — ${o.key} (${OBJECT_KINDS[o.kind]}${o.owner ? ', player ' + o.owner : ''})`;
    if (o.value) s += `, value ${o.value}`;
    if (o.kind === 4) s += `: ${o.count} ${o.creature || ''}, strength ${Math.round(o.strength)}, guarding value ${o.guarded_value}`;
    if (o.guard) {
      const gd = v.objects[o.guard - 1];
      if (gd) s += `; guarded by ${gd.count} ${gd.creature || gd.key} (strength ${Math.round(gd.strength)})`;
    }
  }
  return s;
}

// The map's colours, under it.
function drawLegend() {
  const items = OBJECT_KINDS.map((name, k) => [k === 1 ? "town (its owner's colour)" : name, k === 1 ? PLAYER_COLOURS[1] : k === 12 ? 'rgba(0,0,0,0.45)' : OBJECT_COLOURS[k]])
    .concat([['road', ROAD_COLOURS[1]], ['river', RIVER_COLOURS[1]], ['zone border', '#101010']]);
  $('legend').replaceChildren(...items.map(([name, colour]) => el('span', {}, el('i', { style: `background:${colour}` }), name)));
}

function setupMapEvents() {
  const c = $('map');
  let drag = null;
  c.addEventListener('wheel', (ev) => { ev.preventDefault(); const t = tileAt(ev); zoomAt(ev.deltaY < 0 ? 1.25 : 0.8, t.px, t.py); }, { passive: false });
  c.addEventListener('mousedown', (ev) => { drag = { x: ev.clientX, y: ev.clientY, ox: state.ox, oy: state.oy }; c.style.cursor = 'grabbing'; });
  window.addEventListener('mouseup', () => { drag = null; c.style.cursor = 'grab'; });
  c.addEventListener('mousemove', (ev) => {
    if (drag) {
      const r = c.getBoundingClientRect(), k = c.width / r.width;
      state.ox = drag.ox + (ev.clientX - drag.x) * k; state.oy = drag.oy + (ev.clientY - drag.y) * k;
      drawMap();
    }
    if (state.view) { const t = tileAt(ev); $('hover').textContent = describeTile(t.x, t.y) || 'outside the map'; }
  });
  $('zoom-in').onclick = () => zoomAt(1.5, c.width / 2, c.height / 2);
  $('zoom-out').onclick = () => zoomAt(1 / 1.5, c.width / 2, c.height / 2);
  $('zoom-fit').onclick = fitMap;
  $('level').onchange = () => { state.level = +$('level').value; renderMap(); };
  $('overlay').onchange = renderMap;
}

// ---- the balance report ---------------------------------------------------------------------------------

async function showBalance() {
  const b = await call('balance', 0);
  state.balance = b;
  const r = b.report, box = $('balance');
  $('balance-score').textContent = `score ${r.score.toFixed ? r.score.toFixed(1) : r.score} / 100`;
  const days = ['1', '2', '3', '7'];
  const head = el('tr', {}, ...['player', 'zone', 'weakest exit guard', ...days.map((d) => `value day ${d}`), 'towns by day 3',
    'nearest gold mine', ...r.players.map((p) => `path to ${p.player}`)].map((h) => el('th', {}, h)));
  const rows = r.players.map((p) => el('tr', {},
    el('td', { style: `color:${PLAYER_COLOURS[p.player]};font-weight:bold` }, String(p.player)), el('td', {}, String(p.zone)),
    el('td', {}, String(p.weakest_exit_guard)), ...days.map((d) => el('td', {}, String(p.value_by_day[d]))),
    el('td', {}, String(p.towns_by_day['3'])), el('td', {}, String(p.nearest_mine.gold)),
    ...r.players.map((q) => {
      const to = p.to.find((x) => x.player === q.player);
      return el('td', {}, to ? (to.path_cost >= 0 ? `${to.path_cost} mp, ${to.guards} guards` : 'no path') : '—');
    })));
  const table = el('table', {}, head, ...rows);
  // The picture: each player's reach by day (green 1, yellow 2, orange 3, red later).
  const pics = el('div');
  const i = state.map.info;
  b.reach.forEach((s, k) => {
    const c = el('canvas', { width: i.width * 2, height: i.height * 2, title: `player ${r.players[k].player}: reach by day` });
    const g = c.getContext('2d');
    for (let y = 0; y < i.height; y++) for (let x = 0; x < i.width; x++) {
      const d = s.charCodeAt(y * i.width + x) - 48;
      g.fillStyle = d <= 0 ? '#ddd' : ['#2a2', '#dd2', '#e80', '#c33'][Math.min(d, 4) - 1];
      g.fillRect(x * 2, y * 2, 2, 2);
    }
    pics.append(c);
  });
  box.replaceChildren(table, pics);
  const ov = $('overlay');
  ov.replaceChildren(el('option', { value: '' }, 'none'), ...r.players.map((p, k) => el('option', { value: k }, `reach of player ${p.player}`)));
}

// ---- wiring ---------------------------------------------------------------------------------------------

async function readFile(file) { await openPack(new Uint8Array(await file.arrayBuffer()), file.name); }

function setup() {
  $('pack-file').onchange = (ev) => { if (ev.target.files[0]) readFile(ev.target.files[0]); };
  $('builtin').onclick = () => openPack(null, 'builtin');
  document.addEventListener('dragover', (ev) => { ev.preventDefault(); document.body.classList.add('dragging'); });
  document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  document.addEventListener('drop', (ev) => {
    ev.preventDefault(); document.body.classList.remove('dragging');
    if (ev.dataTransfer.files[0]) readFile(ev.dataTransfer.files[0]);
  });
  $('options').onsubmit = (ev) => { ev.preventDefault(); generate(); };
  $('cancel').onclick = () => rmg.cancel();
  $('another-seed').onclick = () => { $('opt-seed').value = String(Math.floor(Math.random() * 4294967296)); generate(); };
  $('opt-game').onchange = runCheck;
  $('graph-template').onchange = drawGraph;
  $('dl-h3m-sod').onclick = (ev) => { ev.preventDefault(); exportH3m('sod'); };
  $('dl-h3m-hota').onclick = (ev) => { ev.preventDefault(); exportH3m('hota'); };
  $('dl-png').onclick = async (ev) => { ev.preventDefault(); const b = await call('png'); if (b) download(`${baseName()}.png`, b, 'image/png'); };
  $('dl-view').onclick = (ev) => { ev.preventDefault(); if (levelImage) levelImage.toBlob((b) => download(`${baseName()}-view.png`, b, 'image/png')); };
  $('dl-yaml').onclick = (ev) => { ev.preventDefault(); convert('yaml'); };
  $('dl-h3t').onclick = (ev) => { ev.preventDefault(); convert('h3t'); };
  setupMapEvents();
  drawLegend();
  rmg.version().then((v) => { $('version').textContent = 'librmg ' + v; });
  openPack(null, 'builtin');
}

async function exportH3m(edition) {
  try { download(`${baseName()}-${edition}.h3m`, await call('h3m', edition)); } catch (e) { showError(e); }
}
async function convert(as) {
  try { download(`${baseName()}.${as === 'h3t' ? 'h3t' : 'yaml'}`, await call('convert', state.pack, state.packName, as)); } catch (e) { showError(e); }
}

setup();
