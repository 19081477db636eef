// The browser client's core (no framework, no build step): the texts of the engine's catalogues
// (/messages/<lang>.json: every word the page shows is a message code there, "web_…" for the page's own), the
// socket with reconnection, and the helpers that draw cards. Protocol 1.2 (docs/protocol.md).

export const PROTOCOL = 1;
export const LANGS = ["it", "en", "de", "pt", "nl"];
const SUITS = { h: "♥", d: "♦", c: "♣", s: "♠" };
export const $ = (id) => document.getElementById(id);

export let lang = localStorage.getItem("lang") || pickLang();
function pickLang() {
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const k = (l || "").slice(0, 2).toLowerCase();
    if (LANGS.includes(k)) return k;
  }
  return "en";
}

// ----- the engine's messages in the chosen language (docs/protocol.md "Engine messages in every language") -----
const catalogues = {};
async function loadCatalogue(l) {
  for (const x of [l, "en"]) {
    if (catalogues[x]) continue;
    try {
      const r = await fetch(`/messages/${x}.json`);
      if (r.ok) catalogues[x] = await r.json();
    } catch (e) { /* offline: the texts already shown stay */ }
  }
}
const FIELD = /\{(\w+)(?::(\w+))?(?:\|([^|{}]*)\|([^{}]*))?\}/g;
// A message {code, params} as text in language l; null when neither l's nor English's catalogue has its code.
function renderMsg(m, l) {
  const cat = catalogues[l] || catalogues.en, en = catalogues.en;
  if (!cat || !m || typeof m.code !== "string") return null;
  const tpl = cat.templates[m.code] || (en && en.templates[m.code]);
  if (tpl === undefined) return null;
  const word = (table, key) => {
    const w = (cat.words[table] || {})[key];
    if (w !== undefined) return w;
    return en && en.words[table] ? en.words[table][key] : undefined;
  };
  const value = (v, table) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) return renderMsg(v, l) ?? "?";
    if (Array.isArray(v)) return v.map((x) => value(x, table)).join(word("join", "and") ?? ", ");
    if (table) { const w = word(table, String(v)); return w === undefined ? String(v) : w; }
    return String(v);
  };
  const params = m.params || {};
  return tpl.replace(FIELD, (_, name, table, one, other) => {
    const v = name in params ? params[name] : "?";
    if (one !== undefined) return v === 1 ? one : other;
    return value(v, table);
  });
}
// end of renderMsg (tests/test_server_messages_js.py runs the code above under Node.js)

export { renderMsg };
// t("web_draw") or t("web_stock_n", {n: 3}): a text of the page in the chosen language
export function t(code, params) { return renderMsg({ code, params: params || {} }, lang) ?? code; }
// word("preset", "italian"): a word of the catalogue's word tables (presets, levels, score rows...)
export function word(table, key) {
  const cat = catalogues[lang] || catalogues.en;
  const w = cat && cat.words[table] ? cat.words[table][key] : undefined;
  if (w !== undefined) return w;
  const en = catalogues.en;
  return en && en.words[table] && en.words[table][key] !== undefined ? en.words[table][key] : key;
}
// a computer level's word: heuristic:medium -> "medium"; the search at 0.5 s a move is the level "expert"
// (burraco.bots.players.level_word)
export function levelName(level) {
  if (level === "ismcts:0.5s" || level === "expert") return word("level", "expert");
  return word("level", level.replace("heuristic:", "").replace(/:.*$/, ""));
}

const langListeners = [];
export function onLang(f) { langListeners.push(f); }
export async function setLang(l) {
  lang = l;
  localStorage.setItem("lang", l);
  await loadCatalogue(l);
  applyLang();
  for (const f of langListeners) f(l);
}
export function applyLang() {
  document.documentElement.lang = lang;
  const sel = $("lang");
  if (sel) sel.value = lang;
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll("[data-i18n-label]")) e.setAttribute("aria-label", t(e.dataset.i18nLabel));
  for (const e of document.querySelectorAll("[data-i18n-title]")) e.title = t(e.dataset.i18nTitle);
}
export async function start() {
  await loadCatalogue(lang);
  applyLang();
  $("lang").addEventListener("change", (e) => setLang(e.target.value));
}

// ----- elements and cards -----------------------------------------------------------------------------------------
export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined && k !== false) e.append(k);
  return e;
}
export function cardFace(c) { return c === "JK" ? "★" : (c[0] === "T" ? "10" : c[0]) + SUITS[c[1]]; }
// a card's accessible name in the chosen language: "seven of hearts", "sette di cuori"
export function cardName(c) { return c === "JK" ? t("web_joker") : t("web_card", { rank: c[0], suit: c[1] }); }
export function cardEl(c, extra) {
  const joker = c === "JK";
  const red = !joker && (c[1] === "h" || c[1] === "d");
  const attrs = { "data-card": c, role: "img", "aria-label": cardName(c), ...(extra || {}) };
  attrs.class = "card" + (red ? " red" : " black") + (joker ? " joker" : "") + (extra && extra.class ? " " + extra.class : "");
  return el("span", attrs, el("span", { class: "face", "aria-hidden": "true", text: cardFace(c) }));
}
export function backEl(label, extra) {
  const { text, ...rest } = extra || {};
  return el("span", { role: "img", "aria-label": label || t("web_card_back"), ...rest, class: "card back" + (rest.class ? " " + rest.class : "") },
    el("span", { class: "face", "aria-hidden": "true", text: text || "" }));
}
const RANKS = "A23456789TJQK";
export function rankKey(c) { return c === "JK" ? 99 : RANKS.indexOf(c[0]); }
// by suit in alternating colours (♥ ♣ ♦ ♠), the wilds (jokers, and 2s in rules where they are wild) apart at the end
export function suitKey(c) { return c === "JK" ? 9 : c[0] === "2" ? 8 : "hcds".indexOf(c[1]); }
export function sortCards(cards, by) {
  return [...cards].sort((a, b) => by === "suit"
    ? (suitKey(a) - suitKey(b) || rankKey(a) - rankKey(b))
    : (rankKey(a) - rankKey(b) || suitKey(a) - suitKey(b)));
}
// the seats' letters (RECORDS.md §2): N S with 2 players, N E S W with 4, A B C … with 3, 5 and 6
export function seatsOf(players) { return players === 2 ? ["N", "S"] : players === 4 ? ["N", "E", "S", "W"] : [..."ABCDEF".slice(0, players)]; }
// the sides a hand starts with, name -> its seats: NS/EW, N/S, three fixed pairs at six (AD BE CF), everyone alone
// at three and five until the first player goes out (the server's `sides` say how they stand then)
export function startSides(players) {
  const seats = seatsOf(players), out = {};
  if (players === 4) return { NS: ["N", "S"], EW: ["E", "W"] };
  if (players === 6) { for (let i = 0; i < 3; i++) out[seats[i] + seats[i + 3]] = [seats[i], seats[i + 3]]; return out; }
  for (const s of seats) out[s] = [s];
  return out;
}
// the side (name) a seat belongs to in a sides map
export function sideOf(seat, sides) { return Object.keys(sides).find((x) => sides[x].includes(seat)); }
export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// ----- the socket: hello, reconnection with the last event seen, offline state -------------------------------------
export class Socket {
  constructor(hello, onMessage, onOnline) {
    this.hello = hello;  // () => the hello message (token, last, held, name, lang)
    this.onMessage = onMessage;
    this.onOnline = onOnline;
    this.ws = null;
    this.retry = 0;
    this.online = false;
    this.connect();
    window.addEventListener("online", () => { if (!this.online) this.connect(); });
    // the network went away: say so at once (a socket may take long to notice), and reconnect when it is back
    window.addEventListener("offline", () => { if (this.ws) this.ws.close(); this.setOnline(false); });
  }
  connect() {
    if (this.ws && this.ws.readyState <= 1) return;
    const ws = this.ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    // batch (protocol 1.4): what the server has queued for us by then comes as one array, handled in order
    ws.onopen = () => { this.retry = 0; ws.send(JSON.stringify({ ...this.hello(), batch: true })); this.setOnline(true); };
    ws.onmessage = (e) => {
      const got = JSON.parse(e.data);
      if (Array.isArray(got)) for (const m of got) this.onMessage(m);
      else this.onMessage(got);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.setOnline(false);
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => this.connect(), 300 * this.retry);
    };
  }
  reconnect() { const ws = this.ws; this.ws = null; if (ws) { ws.onclose = null; ws.close(); } this.connect(); }
  setOnline(on) { this.online = on; this.onOnline(on); }
  send(msg) {
    if (!this.ws || this.ws.readyState !== 1) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }
}
