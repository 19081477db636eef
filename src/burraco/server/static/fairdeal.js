// The deal procedure burraco-deal/1 in plain JavaScript, for the browser's own check of a deal against its
// commitment (docs/fairness.md; burraco/fair.py is the reference, tests/test_fair.py runs this file under Node.js
// against the same test vectors). SHA-256 and HMAC-SHA256 are written out: a page served over plain HTTP has no
// crypto.subtle. No imports and no page: pure functions only.

// ----- SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) -------------------------------------------------------------
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);
export function sha256(bytes) {
  const n = bytes.length, total = ((n + 9 + 63) >> 6) << 6, m = new Uint8Array(total);
  m.set(bytes);
  m[n] = 0x80;
  const dv = new DataView(m.buffer);
  dv.setUint32(total - 8, Math.floor(n / 0x20000000));
  dv.setUint32(total - 4, (n << 3) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rot = (x, k) => (x >>> k) | (x << (32 - k));
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32), ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(4 * i, h[i]);
  return out;
}
export function hmac(key, msg) {
  const k = new Uint8Array(64);
  k.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + msg.length), outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) { inner[i] = k[i] ^ 0x36; outer[i] = k[i] ^ 0x5c; }
  inner.set(msg, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}
export const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
export function fromHex(s) { const b = new Uint8Array(s.length / 2); for (let i = 0; i < b.length; i++) b[i] = parseInt(s.substr(2 * i, 2), 16); return b; }
const ascii = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));

// ----- the procedure burraco-deal/1 (burraco/fair.py has it step by step) -------------------------------------------
export const PROCEDURE = "burraco-deal/1";
export function keyMessage(table, hand, contributions, seats) {
  const lines = [PROCEDURE, "table " + table, "hand " + hand];
  for (const s of seats) if (s in contributions) lines.push(`contribution ${s} ${contributions[s]}`);
  return lines.join("\n");
}
export function* words(key) {
  for (let i = 0; ; i++) {
    const ctr = new Uint8Array(8);
    new DataView(ctr.buffer).setUint32(4, i);
    const block = new DataView(hmac(key, ctr).buffer);
    for (let k = 0; k < 32; k += 4) yield block.getUint32(k);
  }
}
export function shuffle(cards, key) {
  const deck = [...cards], stream = words(key);
  for (let i = deck.length - 1; i > 0; i--) {
    const n = i + 1, limit = 4294967296 - (4294967296 % n);
    let x = stream.next().value;
    while (x >= limit) x = stream.next().value;
    const j = x % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}
// cards in the deck's fixed order: Ah 2h … Kh Ad … Ks, then the jokers
const ORDER = [];
for (const s of "hdcs") for (const r of "A23456789TJQK") ORDER.push(r + s);
ORDER.push("JK");
export const cardCode = (c) => ORDER.indexOf(c);
const split = (s) => (s ? s.split(" ") : []);

// The check of one recorded deal ({hands: {seat: "…"}, pozzetti: […], upcard, stock}) against its `fair` object, as
// burraco.fair.check_deal makes it: {ok: true | false | null, msg: {code, params}} (number: the hand's place, 0-based).
export function checkDeal(deal, fair, seats, number) {
  const hand = number + 1;
  if (!fair) return { ok: null, msg: { code: "fair_no_data", params: { hand } } };
  if ((fair.procedure || PROCEDURE) !== PROCEDURE)
    return { ok: null, msg: { code: "fair_unknown_procedure", params: { hand, procedure: fair.procedure, known: PROCEDURE } } };
  if (!fair.seed) return { ok: null, msg: { code: "fair_not_revealed", params: { hand } } };
  const seed = fromHex(fair.seed);
  if (hex(sha256(seed)) !== fair.commitment) return { ok: false, msg: { code: "fair_seed_mismatch", params: { hand } } };
  const key = hmac(seed, ascii(keyMessage(fair.table, fair.hand, fair.contributions || {}, seats)));
  const parts = [
    ...deal.pozzetti.map((p, i) => [{ code: "fair_place_pozzetto", params: { i: i + 1 } }, split(p)]),
    ...seats.map((s) => [{ code: "fair_place_hand", params: { seat: s } }, split(deal.hands[s])]),
    [{ code: "fair_place_upcard", params: {} }, deal.upcard ? [deal.upcard] : []],
    [{ code: "fair_place_stock", params: {} }, split(deal.stock)]];
  const all = parts.flatMap((p) => p[1]);
  const order = shuffle(all.map(cardCode).sort((a, b) => a - b), key).map((c) => ORDER[c]);
  let i = 0;
  for (const [place, got] of parts) {
    const want = order.slice(i, i + got.length);
    i += got.length;
    if (want.join(" ") !== got.join(" "))
      return { ok: false, msg: { code: "fair_deal_mismatch", params: { hand, where: { code: "fair_where",
        params: { place, cards: want.join(" ") || "-", other: got.join(" ") || "-" } } } } };
  }
  return { ok: true, msg: { code: "fair_ok", params: { hand } } };
}
