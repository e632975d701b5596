// The page's Web Worker (issue 31): runs librmg (rmg.js + rmg.wasm, built by `make web`) so a
// generation never freezes the page. Messages in: {id, op, ...}; out: {id, ok, result | error},
// and {type: 'progress', stage, fraction} while a map is generated. The calls are the C bridge's
// (web/rmg_web.c) over the public C API; the page's `rmg` object (app.js) wraps them.
'use strict';

const SIZES = { S: 36, M: 72, L: 108, XL: 144, H: 180, XH: 216, G: 252 };
const WATER = { none: 0, normal: 1, islands: 2 };
const MONSTERS = { weak: 0, normal: 1, strong: 2 };
const TOWNS = ['castle', 'rampart', 'tower', 'inferno', 'necropolis', 'dungeon', 'stronghold', 'fortress',
  'conflux', 'cove', 'factory'];
const LAYERS = { terrain: 0, zone: 1, passable: 2, road: 3, object: 4, river: 5 };

function makeCore(M) {
  const enc = new TextEncoder();
  const dec = new TextDecoder();

  function alloc(bytes) {
    const p = M._rmgw_malloc(bytes.length + 1);
    M.HEAPU8.set(bytes, p);
    M.HEAPU8[p + bytes.length] = 0;
    return p;
  }
  function cstr(s) { return alloc(enc.encode(s == null ? '' : String(s))); }
  // The pack: null (the built-in pack), text, or the file's bytes as they are (an .h3t need not be UTF-8).
  function packBytes(pack) {
    if (pack == null) return null;
    if (pack instanceof Uint8Array) return pack;
    if (pack instanceof ArrayBuffer) return new Uint8Array(pack);
    return enc.encode(String(pack));
  }
  // Calls f(ptr, len, name) with the pack in wasm memory (ptr 0 for the built-in pack).
  function withPack(pack, name, f) {
    const bytes = packBytes(pack);
    const p = bytes ? alloc(bytes) : 0;
    const n = cstr(name || 'pack');
    try { return f(p, bytes ? bytes.length : 0, n); } finally { M._rmgw_free(p); M._rmgw_free(n); }
  }
  function takeString(p) {
    if (!p) return null;
    const s = M.UTF8ToString(p);
    M._rmgw_free(p);
    return s;
  }
  function takeJSON(p) { const s = takeString(p); return s == null ? null : JSON.parse(s); }
  // A call f(lenPtr) returning malloc'd bytes and their length: the bytes as a fresh Uint8Array.
  function takeBytes(f) {
    const lp = M._rmgw_malloc(4);
    try {
      const p = f(lp);
      const n = M.HEAPU32[lp >> 2];
      if (!p) return null;
      const out = M.HEAPU8.slice(p, p + n);
      M._rmgw_free(p);
      return out;
    } finally { M._rmgw_free(lp); }
  }
  function lastError() { return JSON.parse(M.UTF8ToString(M._rmgw_error())); }

  function check(pack, name, options) {
    const game = options && options.game === 'sod' ? 1 : 0;
    return withPack(pack, name, (p, n, nm) => takeJSON(M._rmgw_check(p, n, nm, game)));
  }

  function intOpt(v, lo, hi, what) {
    if (v == null || v === '' || v === 0) return 0;
    const k = Number(v);
    if (!Number.isInteger(k) || k < lo || k > hi) throw new Error(`bad value '${v}' for ${what}`);
    return k;
  }
  // The options of `rmg generate`, by the command's names.
  function setup(o) {
    o = o || {};
    let w = 0, h = 0;
    if (o.size != null && o.size !== '') {
      const s = String(o.size).toUpperCase();
      const m = /^(\d+)X(\d+)$/.exec(s);
      if (SIZES[s]) w = h = SIZES[s];
      else if (m && +m[1] > 0 && +m[2] > 0 && +m[1] <= 1024 && +m[2] <= 1024) { w = +m[1]; h = +m[2]; }
      else throw new Error(`bad value '${o.size}' for size`);
    }
    const pick = (table, v, what, dflt) => {
      if (v == null || v === '') return dflt;
      if (!(v in table)) throw new Error(`bad value '${v}' for ${what}`);
      return table[v];
    };
    const towns = new Int32Array(8).fill(-1);
    for (const [player, town] of Object.entries(o.towns || {})) {
      const p = Number(player), t = TOWNS.indexOf(String(town));
      if (!(p >= 1 && p <= 8) || (t < 0 && town !== 'random')) throw new Error(`bad town '${player}=${town}'`);
      towns[p - 1] = t;
    }
    const seed = o.seed == null || o.seed === '' ? '1' : String(o.seed);
    if (!/^\d+$/.test(seed) || BigInt(seed) >= 2n ** 64n) throw new Error(`bad value '${o.seed}' for seed`);
    return {
      template: o.template || '', w, h,
      levels: o.underground == null || o.underground === '' ? 0 : (o.underground === true || o.underground === 'true' || o.underground === 2 ? 2 : 1),
      players: intOpt(o.players, 1, 8, 'players'), humans: intOpt(o.humans, 0, 8, 'humans'),
      water: pick(WATER, o.water, 'water', 3), monsters: pick(MONSTERS, o.monsters, 'monsters', 1),
      game: pick({ hota: 0, sod: 1 }, o.game, 'game', 0), seed,
      best_of: intOpt(o.best_of, 1, 1000, 'best_of'), towns,
    };
  }

  function generate(pack, name, options) {
    const s = setup(options);
    const t0 = performance.now();
    const tp = cstr(s.template), sp = cstr(s.seed);
    const towns = M._rmgw_malloc(32);
    M.HEAP32.set(s.towns, towns >> 2);
    let status;
    try {
      status = withPack(pack, name, (p, n, nm) => M._rmgw_generate(p, n, nm, tp, s.w, s.h, s.levels, s.players,
        s.humans, s.water, s.monsters, s.game, sp, s.best_of, towns));
    } finally { M._rmgw_free(tp); M._rmgw_free(sp); M._rmgw_free(towns); }
    const ms = performance.now() - t0;
    if (status !== 0) {
      const e = lastError();
      const err = new Error(e.message);
      Object.assign(err, { details: e });
      throw err;
    }
    const info = takeJSON(M._rmgw_map_info());
    const jsonBytes = takeBytes(lp => M._rmgw_map_json(lp));
    const h3m = takeBytes(lp => M._rmgw_map_h3m(0, lp));
    const warnings = info.warnings.slice();
    if (!h3m) warnings.push('no .h3m: ' + lastError().message);
    return {
      fingerprint: info.fingerprint, json: dec.decode(jsonBytes), h3m, warnings, info, ms,
    };
  }

  // What the page draws: the tile layers and the objects of the last map.
  function view() {
    const layers = {};
    for (const [k, id] of Object.entries(LAYERS)) {
      const b = takeBytes(lp => M._rmgw_map_layer(id, lp));
      layers[k] = b;
    }
    return { layers, objects: takeJSON(M._rmgw_map_objects()) };
  }

  function balance(dayPoints) {
    const r = takeJSON(M._rmgw_balance(dayPoints || 0));
    if (!r) throw new Error('no balance report: ' + lastError().message);
    return r;
  }
  function png() { return takeBytes(lp => M._rmgw_map_png(lp)); }
  function h3m(edition) {
    const b = takeBytes(lp => M._rmgw_map_h3m({ auto: 0, sod: 1, hota: 2 }[edition || 'auto'] || 0, lp));
    if (!b) throw new Error(lastError().message);
    return b;
  }
  function convert(pack, name, as) {
    const b = withPack(pack, name, (p, n, nm) => takeBytes(lp => M._rmgw_pack_convert(p, n, nm, as === 'h3t' ? 1 : 0, lp)));
    if (!b) throw new Error('the pack cannot be written as ' + as);
    return b;
  }
  return { check, generate, view, balance, png, h3m, convert, version: () => M.UTF8ToString(M._rmgw_version()) };
}

if (typeof module !== 'undefined' && module.exports) {
  module.exports = { makeCore };
} else {
  importScripts('rmg.js');
  const ready = createRmgModule().then(makeCore);
  self.onmessage = async (ev) => {
    const { id, op, args } = ev.data;
    try {
      const core = await ready;
      if (!(op in core)) throw new Error('unknown operation ' + op);
      const result = core[op](...(args || []));
      const transfer = [];
      if (op === 'generate' && result.h3m) transfer.push(result.h3m.buffer);
      if (op === 'view') for (const b of Object.values(result.layers)) if (b) transfer.push(b.buffer);
      postMessage({ id, ok: true, result }, transfer);
    } catch (e) {
      postMessage({ id, ok: false, error: { message: e.message, details: e.details || null } });
    }
  };
}
