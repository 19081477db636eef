// The browser client's core (no framework, no build step): the texts of the engine's catalogues (each page gets
// only the part it uses, /messages/<lang>/<page>.json: every word the page shows is a message code there, "web_…"
// for the page's own), the socket with reconnection, the offline notice, the names of seats and tables, and the
// cards as the page draws them. Protocol 1.2 (docs/protocol.md).

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
let page = "lobby";
// the version of the page's files (server/assets.py): a catalogue asked with it may be cached for good
const version = () => (document.querySelector("meta[name=burraco-assets]") || {}).content || "";
async function loadCatalogue(l) {
  for (const x of [l, "en"]) {
    if (catalogues[x]) continue;
    try {
      const r = await fetch(`/messages/${x}/${page}.json?v=${version()}`);
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
  // the texts of this page (the other pages' parts of index.html are not in its catalogue)
  const mine = (e) => { const m = e.closest("main"); return !m || m.id === page; };
  for (const e of document.querySelectorAll("[data-i18n]")) if (mine(e)) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll("[data-i18n-label]")) if (mine(e)) e.setAttribute("aria-label", t(e.dataset.i18nLabel));
  for (const e of document.querySelectorAll("[data-i18n-title]")) if (mine(e)) e.title = t(e.dataset.i18nTitle);
}
// the page ("lobby", "table" or "replay") in the chosen language: its catalogue first
export async function start(which) {
  page = which;
  await loadCatalogue(lang);
  applyLang();
  $("lang").addEventListener("change", (e) => setLang(e.target.value));
  // the device has a network again: on the table the notice stays (now saying it reconnects) until the socket has
  // joined again (table.js shows the socket's state); elsewhere the next request says whether the server answers
  window.addEventListener("online", () => {
    const box = $("offline");
    showOffline(page === "table" && box !== null && !box.hidden);
  });
  window.addEventListener("offline", () => showOffline(true));
}
// the notice that the page has no connection (the network, or the server): plain words over the page
export function showOffline(on) {
  const box = $("offline");
  if (!box) return;
  box.textContent = t(navigator.onLine ? "web_offline_banner" : "web_offline_device");
  box.hidden = !on;
  document.body.classList.toggle("is-offline", on);
}

// ----- names ---------------------------------------------------------------------------------------------------------
// a seat as the table, the moves log, the end-of-hand panel and the replay name it: a player's own name; a computer
// "Computer B" and a player who gave none "Player B", in the chosen language; an open seat "open seat"
export function seatTitle(letter, kind, name) {
  if (kind === "computer") return t("web_computer", { seat: letter });
  if (kind === "open") return t("web_open");
  return !name || name === `Player ${letter}` ? t("web_player", { seat: letter }) : name;  // the server's default is English
}
// the same with the seat's letter where the name does not hold it already: "Anna (A)", "Computer B"
export function seatLabel(letter, kind, name) {
  const title = seatTitle(letter, kind, name);
  return kind === "computer" || kind === "open" || !name || name === `Player ${letter}` ? title : `${title} (${letter})`;
}
// a table as the lobby, the table and the replay name it: its own name, else its rules in words
export function tableTitle(name, preset) { return !name || name === `${preset} table` ? word("preset", preset) : name; }

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
// a card as players know it: the corner index (rank above suit, always in view where cards overlap: the next card
// covers the rest), the suit again in the middle; red or black, or four colours (the option); the joker apart.
// extra: attributes, its class added to the card's
export function cardEl(c, extra) {
  const joker = c === "JK";
  const suit = joker ? "j" : c[1];
  const attrs = { "data-card": c, role: "img", "aria-label": cardName(c), ...(extra || {}) };
  attrs.class = `card s-${suit}` + (joker ? " joker" : suit === "h" || suit === "d" ? " red" : " black") + (extra && extra.class ? " " + extra.class : "");
  const rank = joker ? "★" : c[0] === "T" ? "10" : c[0];
  attrs["data-pip"] = joker ? "★" : SUITS[suit];  // the suit in the opposite corner (style.css draws it)
  return el("span", attrs,
    el("span", { class: "ix", "aria-hidden": "true" }, el("span", { class: "r" + (rank === "10" ? " ten" : ""), text: rank }),
      el("span", { class: "s", text: joker ? "" : SUITS[suit] })));
}
export function backEl(label, extra) {
  const { text, ...rest } = extra || {};
  return el("span", { role: "img", "aria-label": label || t("web_card_back"), ...rest, class: "card back" + (rest.class ? " " + rest.class : "") },
    el("span", { class: "face", "aria-hidden": "true", text: text || "" }));
}
// which cards of a meld (its cards as the view lays them out, RECORDS.md §5) stand in as wilds: in a set the last
// (the view puts the wild there); in a sequence the joker, or a 2 (a pinella) that is not the 2 of the sequence's
// suit in the 2's place
function wildsOf(meld) {
  const cs = meld.cards, out = new Set();
  if (!meld.wild) return out;
  if (meld.kind === "set") { out.add(cs.length - 1); return out; }
  const nat = cs.findIndex((c) => c !== "JK" && c[0] !== "2");
  const suit = nat >= 0 ? cs[nat][1] : null;
  // the rank of each place from the first natural card (an ace after the first place is the high one)
  const base = nat < 0 ? 0 : (cs[nat][0] === "A" && nat > 0 ? 14 : "A23456789TJQK".indexOf(cs[nat][0]) + 1) - nat;
  cs.forEach((c, i) => { if (c === "JK" || (c[0] === "2" && (c[1] !== suit || base + i !== 2))) out.add(i); });
  return out;
}
// end of wildsOf (tests/test_server_cards_js.py runs it under Node.js)
export { wildsOf };
// the four-colour deck (♦ blue, ♣ green), a choice the browser remembers; its switch in the given element
export function deckOption(box) {
  const on = () => localStorage.getItem("deck") === "4";
  const apply = () => document.body.classList.toggle("deck4", on());
  apply();
  if (!box) return;
  const input = el("input", { type: "checkbox", id: box.id + "In", "data-testid": "deck4", checked: on() ? "checked" : null,
    onchange: (e) => { localStorage.setItem("deck", e.target.checked ? "4" : "2"); apply(); } });
  box.replaceChildren(el("label", { for: box.id + "In" }, input, " ", el("span", { "data-i18n": "web_four_colours", text: t("web_four_colours") })));
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
    // batch (protocol 1.4): what the server has queued for us by then comes as one array, handled in order.
    // Connected only once the server answered the hello: until then (it may wait for the server's Redis to answer
    // again, docs/protocol.md) the page says "reconnecting"
    ws.onopen = () => { ws.send(JSON.stringify({ ...this.hello(), batch: true })); };
    ws.onmessage = (e) => {
      const got = JSON.parse(e.data);
      for (const m of Array.isArray(got) ? got : [got]) {
        if (!this.online && !(m.type === "error" && m.code === "unavailable")) { this.retry = 0; this.setOnline(true); }
        this.onMessage(m);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.setOnline(false);
      // again after 0.3 s, 0.6 s, 1.2 s, … up to 5 s (and a little at random, so that a server coming back is not
      // met by every page at the same instant)
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => this.connect(), Math.min(5000, 150 * 2 ** this.retry) + Math.random() * 250);
    };
  }
  reconnect() { const ws = this.ws; this.ws = null; if (ws) { ws.onclose = null; ws.close(); } this.connect(); }
  setOnline(on) { this.online = on; this.onOnline(on); }
  send(msg) {
    if (!this.ws || this.ws.readyState !== 1 || !this.online) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }
}
