// The browser client of `burraco serve`: lobby, table and replay viewer, in plain JavaScript (no framework, no
// build step). It speaks protocol version 1.1 (docs/protocol.md): it only sends requests; the server decides.
"use strict";

const PROTOCOL = 1;
const SUITS = { h: "♥", d: "♦", c: "♣", s: "♠" };
const RANKS = "A23456789TJQK";
let lang = localStorage.getItem("lang") || pickLang();
const $ = (id) => document.getElementById(id);

function pickLang() {
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const k = (l || "").slice(0, 2).toLowerCase();
    if (I18N[k]) return k;
  }
  return "en";
}
function t(key) { return (I18N[lang] && I18N[lang][key]) || I18N.en[key] || key; }
function applyLang() {
  document.documentElement.lang = lang;
  $("lang").value = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  loadCatalogue(lang).then(() => { if (refusal) say(refusalText(refusal)); if (state) render(); });
  if (state) render();
}

// ----- the engine's messages in the chosen language (docs/protocol.md "Engine messages in every language") -----
const catalogues = {};
async function loadCatalogue(l) {
  for (const x of [l, "en"]) {
    if (catalogues[x]) continue;
    try {
      const r = await fetch(`/messages/${x}.json`);
      if (r.ok) catalogues[x] = await r.json();
    } catch (e) { /* offline: English texts from the server are shown */ }
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
let refusal = null;  // the last refusal shown: re-rendered when the language changes
function refusalText(m) {
  if (m.msg) { const x = renderMsg(m.msg, lang); if (x !== null) return x; }
  return I18N.en["err_" + m.code] ? t("err_" + m.code) : m.message;
}
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}
function cardEl(c, extra) {
  const joker = c === "JK";
  const red = !joker && (c[1] === "h" || c[1] === "d");
  const face = joker ? "JK" : (c[0] === "T" ? "10" : c[0]) + SUITS[c[1]];
  return el("span", { class: "card" + (red ? " red" : "") + (joker ? " joker" : ""), "data-card": c, ...extra }, face);
}
function rankKey(c) { return c === "JK" ? 99 : RANKS.indexOf(c[0]); }
function suitKey(c) { return c === "JK" ? 9 : "hdcs".indexOf(c[1]); }

// ----- routing ----------------------------------------------------------------------------------------------------
const path = location.pathname;
const mTable = path.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
const mReplay = path.match(/^\/t\/([A-Za-z0-9]+)\/replay\/(\d+)$/);
$("lang").addEventListener("change", (e) => { lang = e.target.value; localStorage.setItem("lang", lang); applyLang(); });

// ----- lobby ------------------------------------------------------------------------------------------------------
let presets = [];
let levels = [];
async function lobby() {
  $("lobby").hidden = false;
  const p = await (await fetch("/api/presets")).json();
  presets = p.presets; levels = p.levels;
  $("preset").replaceChildren(...presets.map((x) => el("option", { value: x.name, text: x.name })));
  $("myname").value = localStorage.getItem("name") || "";
  $("preset").addEventListener("change", seatSpecs);
  $("goal").addEventListener("change", () => {
    $("goalValue").hidden = $("goal").value === "default";
    $("goalValue").value = $("goal").value === "hands" ? 3 : 2005;
  });
  seatSpecs();
  $("create").addEventListener("submit", createTable);
  $("joinLink").addEventListener("submit", (e) => {
    e.preventDefault();
    const v = $("link").value.trim();
    const m = v.match(/\/t\/([A-Za-z0-9]+)(#t=[\w-]+)?/);
    if (m) location.href = "/t/" + m[1] + (m[2] || "");
  });
  await listTables();
  setInterval(listTables, 5000);
}
function seatSpecs() {
  const pr = presets.find((x) => x.name === $("preset").value) || presets[0];
  const names = pr.players === 2 ? ["N", "S"] : ["N", "E", "S", "W"];
  const opts = [["human", t("human")], ["open", t("open")], ...levels.map((l) => ["computer:" + l, t("computer") + " " + l.replace("heuristic:", "")])];
  $("seatSpecs").replaceChildren(...names.map((s, i) => el("label", {}, s + " ",
    i === 0 ? el("b", { text: t("you") }) :
      el("select", { name: "seat" + i, "data-testid": "seat-" + s },
        ...opts.map(([v, txt]) => el("option", { value: v, text: txt, selected: v === "computer:heuristic:medium" ? "selected" : null }))))));
}
async function createTable(e) {
  e.preventDefault();
  const pr = $("preset").value;
  const players = (presets.find((x) => x.name === pr) || {}).players || 4;
  const seats = [{ kind: "human", name: $("myname").value || undefined }];
  for (let i = 1; i < players; i++) {
    const v = document.querySelector(`[name=seat${i}]`).value;
    seats.push(v.startsWith("computer:") ? { kind: "computer", level: v.slice(9) } : { kind: v });
  }
  localStorage.setItem("name", $("myname").value);
  const body = { preset: pr, seats, clock: Number($("clock").value) || 0 };
  if ($("goal").value === "target") body.target = Number($("goalValue").value);
  if ($("goal").value === "hands") body.hands = Number($("goalValue").value);
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const out = await r.json();
  if (!r.ok) { alert(out.message); return; }
  const mine = out.tokens.N;
  if (out.creator) localStorage.setItem("creator:" + out.id, out.creator);
  const others = Object.fromEntries(Object.entries(out.links).filter(([s]) => s !== "N"));
  sessionStorage.setItem("invites:" + out.id, JSON.stringify(others));
  location.href = `/t/${out.id}#t=${mine}`;
}
async function listTables() {
  const r = await (await fetch("/api/tables")).json();
  if (!r.tables.length) { $("tables").replaceChildren(el("p", { text: t("noTables") })); return; }
  $("tables").replaceChildren(...r.tables.map((x) => el("div", { class: "trow", "data-table": x.id },
    el("b", { text: x.name }), " ", el("span", { text: `${x.preset} · ${t(x.status)}` }), " ",
    ...x.seats.map((s) => el("span", { class: "seat-pill" + (s.connected ? " on" : "") },
      `${s.seat}: ${s.kind === "open" ? t("open") : s.name}`)),
    " ", el("a", { href: `/t/${x.id}`, text: t("spectate") }),
    ...x.seats.filter((s) => s.kind === "open").map((s) =>
      el("a", { href: `/t/${x.id}?take=${s.seat}`, class: "take", text: ` ${t("take")} ${s.seat}` })))));
}

// ----- table ------------------------------------------------------------------------------------------------------
let ws = null, state = null, tableId = null, token = null, lastN = 0, selected = new Set(), sortBy = "suit";
let log = [], chat = [], notice = "", retry = 0, presence = null, hintText = "", clockTimer = null;

function tableMain(id) {
  tableId = id;
  $("table").hidden = false;
  const h = location.hash.match(/t=([\w-]+)/);
  if (h) { token = h[1]; localStorage.setItem("tok:" + id, token); history.replaceState(null, "", location.pathname + location.search); }
  else token = localStorage.getItem("tok:" + id);
  const inv = sessionStorage.getItem("invites:" + id);
  if (inv) {
    const links = JSON.parse(inv);
    if (Object.keys(links).length) $("invites").hidden = false;
    $("invites").replaceChildren(el("p", { text: t("invite") }), ...Object.entries(links).map(([s, l]) =>
      el("div", {}, el("b", { text: s + " " }), el("input", { readonly: "readonly", value: location.origin + l, "data-testid": "invite-" + s }))));
  }
  $("bDraw").onclick = () => act("draw");
  $("bPick").onclick = () => act("pick");
  $("pile").onclick = () => act("pick");
  $("pile").addEventListener("dragover", (e) => e.preventDefault());
  $("pile").addEventListener("drop", (e) => { e.preventDefault(); dropOn(e.target, draggedCards(e)); });
  $("ourMelds").addEventListener("dragover", (e) => e.preventDefault());
  $("ourMelds").addEventListener("drop", (e) => {  // on a meld: add to it; beside the melds: a new meld
    e.preventDefault();
    dropOn(e.target, draggedCards(e));
  });
  $("bMeld").onclick = () => {
    if (!selected.size) return say(t("selectCards"));
    act("meld " + selectedCards().join(" "));
  };
  $("bDiscard").onclick = () => {
    if (selected.size !== 1) return say(t("selectOne"));
    act("discard " + selectedCards()[0]);
  };
  $("bHint").onclick = () => send({ type: "hint" });
  $("bTimeout").onclick = () => {
    const tok = localStorage.getItem("creator:" + id);
    if (tok) send({ type: "timeout", token: tok, n: lastN });
  };
  $("bSort").onclick = () => { sortBy = sortBy === "suit" ? "rank" : "suit"; render(); };
  $("bBack").onclick = () => send({ type: "back" });
  $("bFill").onclick = () => send({ type: "fill" });
  $("bLeave").onclick = () => { send({ type: "leave" }); localStorage.removeItem("tok:" + id); token = null; };
  $("chatform").addEventListener("submit", (e) => {
    e.preventDefault();
    const v = $("chatin").value.trim();
    if (v) send({ type: "chat", text: v });
    $("chatin").value = "";
  });
  connect();
  clockTimer = setInterval(tickClock, 250);
}
function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => {
    retry = 0;
    const hello = { type: "hello", v: PROTOCOL, table: tableId };
    if (token) hello.token = token;
    if (lastN) hello.last = lastN;
    const name = localStorage.getItem("name");
    if (name && token) hello.name = name;
    ws.send(JSON.stringify(hello));
    setConn(true);
  };
  ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  ws.onclose = () => {
    setConn(false);
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 300 * retry);
  };
}
function setConn(on) {
  $("conn").textContent = on ? "● " + t("connected") : "○ " + t("offline");
  $("conn").className = "conn " + (on ? "on" : "off");
}
function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }
function act(what) {
  if (!state || !state.you) return;
  send({ type: "act", action: `${state.you} ${what}`, n: lastN });
}
function say(text) { notice = text; $("msg").textContent = text; }
function selectedCards() { return [...selected].map((k) => k.split("#")[0]); }
// drag and drop: the dragged card, with the selected ones when it is one of them
function cardsFor(key) {
  const keys = selected.has(key) ? [...selected] : [key];
  return keys.filter((k) => k).map((k) => k.split("#")[0]);
}
function draggedCards(e) { return cardsFor(e.dataTransfer.getData("text/plain")); }
// cards dropped on an element: a meld of our side (add), beside our melds (a new meld), the pile (discard)
function dropOn(target, cards) {
  if (!target || !cards.length) return;
  const meld = target.closest("#ourMelds .meld[data-meld]");
  if (meld) act(`add ${meld.dataset.meld} ${cards.join(" ")}`);
  else if (target.closest("#ourMelds")) act("meld " + cards.join(" "));
  else if (target.closest("#pile")) { if (cards.length === 1) act("discard " + cards[0]); else say(t("selectOne")); }
}
// touch (and pen) drag with pointer events: phones have no HTML5 drag and drop. A tap still selects (click);
// a move of more than a few pixels drags the card (with the selected ones) under the finger, and lifting it over
// a meld, beside the melds or over the pile plays it there.
let touchDrag = null, swallowClick = false;
function cardPointerDown(e, key) {
  if (e.pointerType === "mouse" || !e.isPrimary) return;
  touchDrag = { key, id: e.pointerId, x: e.clientX, y: e.clientY, ghost: null };
}
function dropTargetAt(x, y) {
  const under = document.elementFromPoint(x, y);
  return under && (under.closest("#ourMelds .meld[data-meld]") || under.closest("#ourMelds") || under.closest("#pile"));
}
function markDrop(node) {
  for (const x of document.querySelectorAll(".drop-target")) if (x !== node) x.classList.remove("drop-target");
  if (node) node.classList.add("drop-target");
}
document.addEventListener("pointermove", (e) => {
  const d = touchDrag;
  if (!d || e.pointerId !== d.id) return;
  if (!d.ghost) {
    if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) return;
    d.ghost = el("div", { class: "drag-ghost", "data-testid": "drag-ghost" }, ...cardsFor(d.key).map((c) => cardEl(c)));
    document.body.append(d.ghost);
    say(t("dropHere"));
  }
  e.preventDefault();
  d.ghost.style.left = e.clientX + "px";
  d.ghost.style.top = e.clientY + "px";
  markDrop(dropTargetAt(e.clientX, e.clientY));
}, { passive: false });
function endTouchDrag(e, drop) {
  const d = touchDrag;
  if (!d || e.pointerId !== d.id) return;
  touchDrag = null;
  if (!d.ghost) return;  // no move: a tap, the click that follows selects the card
  d.ghost.remove();
  markDrop(null);
  swallowClick = true;  // the click that may follow the lift is not a tap
  setTimeout(() => { swallowClick = false; }, 400);
  notice = "";
  if (drop) dropOn(dropTargetAt(e.clientX, e.clientY), cardsFor(d.key));
}
document.addEventListener("pointerup", (e) => endTouchDrag(e, true));
document.addEventListener("pointercancel", (e) => endTouchDrag(e, false));

function onMessage(m) {
  switch (m.type) {
    case "welcome":
      if (m.replay === null) { log = []; chat = []; }
      break;
    case "event":
      if (m.n <= lastN) break;
      lastN = m.n;
      onEvent(m);
      break;
    case "state": {
      const prevHand = state && state.view ? state.view.hand.join(" ") : "";
      lastN = Math.max(lastN, m.n);
      if (!state || m.n !== state.n || (m.view && m.view.turn !== m.you)) hintText = "";
      state = m;
      if (!m.view || m.view.hand.join(" ") !== prevHand) selected.clear();
      render();
      break;
    }
    case "presence": presence = m; renderSeats(); break;
    case "hint":
      hintText = `${t("hintFor")}: ${m.action} — ${(m.msg && renderMsg(m.msg, lang)) || m.reason}`;
      $("hintText").textContent = hintText;
      break;
    case "seated":
      token = m.token; localStorage.setItem("tok:" + tableId, token); break;
    case "left": break;
    case "error":
      refusal = m;
      say(refusalText(m));
      if (m.code === "bad_token") { localStorage.removeItem("tok:" + tableId); token = null; }
      break;
  }
}
function onEvent(m) {
  const d = m.data;
  if (m.kind === "action") { log.push(d.seat ? d.action : `${d.action} (${t("timeoutCalled")})`); notice = ""; refusal = null; }
  else if (m.kind === "chat") chat.push(`${d.name}: ${d.text}`);
  else if (m.kind === "hand") log.push(`— ${t("handN")} ${d.hand_no + 1} —`);
  else if (m.kind === "away") {
    // `seat` is the seat's index (N E S W, or N S with two players); 1.1 servers add the letter, `seat_letter`
    const seats = state && state.table ? state.table.seats : null;
    const name = d.seat_letter || (seats && seats[d.seat] ? seats[d.seat].seat : d.seat);
    log.push(`${name}: ${d.away ? t("away") : t("back")}`);
  }
  if (log.length > 200) log = log.slice(-200);
  if (chat.length > 100) chat = chat.slice(-100);
}

function render() {
  const s = state;
  if (!s) return;
  const v = s.view;
  const tb = s.table;
  $("tname").textContent = `${tb.name} · ${tb.preset}` + (tb.target ? ` · ${t("target")} ${tb.target}` : "") +
    (tb.hands_per_match ? ` · ${t("hands")}: ${tb.hands_per_match}` : "");
  $("tstatus").textContent = t(tb.status);
  renderSeats();
  // take an open seat when the lobby link asked for it
  const want = new URLSearchParams(location.search).get("take");
  if (want && !s.you && !token) {
    send({ type: "take", seat: want, name: localStorage.getItem("name") || undefined });
    history.replaceState(null, "", location.pathname);
  }
  const mySide = s.you ? sideOf(s.you, tb.players) : (tb.players === 2 ? "N" : "NS");
  const sides = tb.players === 2 ? ["N", "S"] : ["NS", "EW"];
  const other = sides.find((x) => x !== mySide);
  renderMelds($("ourMelds"), v ? v.melds[mySide] : [], mySide, true);
  renderMelds($("theirMelds"), v ? v.melds[other] : [], other, false);
  $("stock").textContent = v ? v.stock : "–";
  $("pozz").textContent = v ? v.pozzetti_left : "–";
  const pile = v ? v.pile : [];
  $("pile").replaceChildren(el("span", { class: "label", text: `${t("pile")} (${v ? v.pile_size : 0})` }),
    ...(v && !v.pile_open && v.pile_size > 1 ? [el("span", { class: "card back", text: "+" + (v.pile_size - 1) })] : []),
    ...pile.map((c) => cardEl(c)));
  // my hand
  const hand = v ? [...v.hand] : [];
  hand.sort((a, b) => sortBy === "suit" ? (suitKey(a) - suitKey(b) || rankKey(a) - rankKey(b)) : (rankKey(a) - rankKey(b) || suitKey(a) - suitKey(b)));
  const seen = {};
  $("hand").replaceChildren(...hand.map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    const key = c + "#" + seen[c];
    return cardEl(c, { class: "card" + (selected.has(key) ? " selected" : "") + ((c[1] === "h" || c[1] === "d") ? " red" : ""),
      "data-key": key, role: "button", tabindex: "0", draggable: "true",
      ondragstart: (e) => { e.dataTransfer.setData("text/plain", key); },
      onpointerdown: (e) => cardPointerDown(e, key),
      onclick: () => {
        if (swallowClick) return;
        selected.has(key) ? selected.delete(key) : selected.add(key);
        render();
      } });
  }), ...(v && v.hidden_pozzetto ? [el("span", { class: "card back", title: t("hidden"), text: "×" + v.hidden_pozzetto })] : []));
  $("bSort").textContent = sortBy === "suit" ? t("sortRank") : t("sortSuit");
  const myTurn = !!(v && s.you && v.turn === s.you && !v.end && tb.status === "playing");
  const drawPhase = myTurn && v.phase === "draw";
  $("bDraw").disabled = !drawPhase;
  $("bPick").disabled = !drawPhase || !v.pile_size;
  $("bMeld").disabled = !myTurn || v.phase !== "play";
  $("bDiscard").disabled = !myTurn || v.phase !== "play";
  $("bHint").disabled = !myTurn;
  const creator = localStorage.getItem("creator:" + tableId);
  $("bTimeout").hidden = !(creator && tb.timeouts && tb.status === "playing" && v && !v.end);
  for (const b of ["bDraw", "bPick", "bMeld", "bDiscard", "bHint", "bSort"]) $(b).hidden = !s.you;
  const meSeat = s.you ? tb.seats.find((x) => x.seat === s.you) : null;
  $("bBack").hidden = !(meSeat && meSeat.away);
  $("bFill").hidden = !(s.you && tb.status === "waiting");
  $("bLeave").hidden = !s.you;
  $("msg").textContent = notice || (myTurn ? t("yourTurn") + (selected.size && v.phase === "play" ? " · " + t("addHere") : "") : "");
  $("hintText").textContent = myTurn ? hintText : "";
  document.body.dataset.n = String(lastN);  // for scripts and tests: the last event shown
  document.body.dataset.myturn = myTurn ? (v.phase === "draw" ? "draw" : "play") : "";
  renderHandEnd();
  renderScores();
  $("chatlog").replaceChildren(...chat.map((x) => el("div", { text: x })));
  $("chatlog").scrollTop = 1e9;
  $("log").replaceChildren(...log.slice(-40).map((x) => el("div", { text: x })));
  $("log").scrollTop = 1e9;
  tickClock();
}
function sideOf(seat, players) { return players === 2 ? seat : ("NS".includes(seat) ? "NS" : "EW"); }
function renderSeats() {
  const s = state;
  if (!s) return;
  const v = s.view;
  $("seats").replaceChildren(...s.table.seats.map((x) => {
    const on = presence ? presence.seats[x.seat] : x.connected;
    const turn = v && v.turn === x.seat && !v.end;
    return el("div", { class: "seat" + (turn ? " turn" : "") + (x.seat === s.you ? " mine" : ""), "data-seat": x.seat },
      el("b", { text: `${x.seat} ` }), `${x.kind === "open" ? t("open") : x.name}`,
      x.seat === s.you ? ` (${t("you")})` : "",
      x.kind === "human" ? el("span", { class: "dot " + (on ? "on" : "off"), title: on ? t("connected") : "" }, "●") : null,
      v ? el("span", { class: "count", text: ` 🂠${v.hand_sizes[x.seat]}` }) : null,
      x.away ? el("i", { text: " " + t("away") }) : null,
      turn ? el("span", { class: "turnmark", text: " ← " + t("turn") }) : null,
      v && v.known[x.seat] && v.known[x.seat].length ? el("span", { class: "known" }, " ", ...v.known[x.seat].map((c) => cardEl(c))) : null);
  }), el("span", { class: "spect", text: presence ? `${t("spectators")}: ${presence.spectators}` : "" }));
}
function renderMelds(box, melds, side, mine) {
  const v = state && state.view;
  box.replaceChildren(el("div", { class: "sidelabel", text: side + (v && v.pozzetto_taken[side] ? " · " + t("pozzetto") + " ✓" : "") }),
    ...(melds || []).map((m, i) => el("div", {
      class: "meld" + (m.burraco ? " burraco " + m.burraco : ""), "data-meld": mine ? i + 1 : null, "data-side": side,
      onclick: mine ? () => { if (selected.size) act(`add ${i + 1} ${selectedCards().join(" ")}`); } : null,
      ondragover: mine ? (e) => e.preventDefault() : null,
    }, el("span", { class: "mnum", text: `${i + 1}` }), ...m.cards.map((c) => cardEl(c)),
      m.burraco ? el("span", { class: "bmark", text: " ★ " + t(m.burraco) }) : null)));
}
function renderHandEnd() {
  const s = state;
  const he = s.hand_end;
  const box = $("handEnd");
  if (!he) { box.hidden = true; return; }
  box.hidden = false;
  const sides = Object.keys(he.scores);
  const rows = ["melds", "bonuses", "closing", "hand", "pozzetto", "total"];
  const table = el("table", { class: "breakdown" },
    el("tr", {}, el("th", {}), ...sides.map((x) => el("th", { text: x }))),
    ...rows.map((r) => el("tr", { class: r === "total" ? "total" : "" }, el("td", { text: t(r) }),
      ...sides.map((x) => el("td", { text: String(he.scores[x][r]) })))),
    el("tr", { class: "total" }, el("td", { text: t("totals") }), ...sides.map((x) => el("td", { text: String(he.totals[x]) }))));
  const left = el("div", { class: "left" }, ...Object.entries(he.hands).map(([seat, cs]) =>
    el("div", {}, el("b", { text: seat + ": " }), ...cs.map((c) => cardEl(c)))));
  const buttons = [];
  if (s.you && s.table.status === "playing") buttons.push(el("button", { "data-testid": "next", onclick: () => send({ type: "next" }), text: t("nextHand") }));
  if (s.you && s.table.status === "finished") buttons.push(el("button", { "data-testid": "rematch", onclick: () => send({ type: "rematch" }), text: t("rematch") }));
  const next = s.next_hand_in !== null && s.next_hand_in !== undefined ? el("span", { text: ` ${t("newHandIn")} ${Math.ceil(s.next_hand_in)} ${t("seconds")}` }) : null;
  box.replaceChildren(el("h3", { text: `${t("handEnd")} ${he.hand_no + 1} · ${t("endKind")}: ${he.end}` + (he.closed_by ? ` · ${t("closedBy")} ${he.closed_by}` : "") }),
    table, left, ...buttons, ...(next ? [next] : []));
}
function renderScores() {
  const sb = state.scoreboard;
  if (!sb) { $("scoreboard").replaceChildren(); return; }
  const sides = Object.keys(sb.totals);
  $("scoreboard").replaceChildren(el("table", { class: "breakdown" },
    el("tr", {}, el("th", { text: "#" }), ...sides.map((x) => el("th", { text: x }))),
    ...sb.hands.map((h) => el("tr", {}, el("td", { text: String(h.hand_no + 1) }), ...sides.map((x) => el("td", { text: String(h.scores[x]) })))),
    el("tr", { class: "total" }, el("td", { text: t("total") }), ...sides.map((x) => el("td", { text: String(sb.totals[x]) })))),
  ...(sb.winner ? [el("p", { "data-testid": "winner", text: `${t("winner")}: ${sb.winner}` + (sb.vp ? ` (VP ${sides.map((x) => sb.vp[x]).join("–")})` : "") })] : []));
  if (state.table.games) {
    fetch(`/api/tables/${tableId}/games`).then((r) => r.json()).then((g) => {
      $("games").replaceChildren(el("h4", { text: t("games") }), ...g.games.map((x) => el("div", {},
        `#${x.game_no + 1} ${sides.map((sd) => x.totals[sd]).join("–")} `,
        el("a", { href: `/t/${tableId}/replay/${x.game_no}`, text: t("replay") }), " · ",
        el("a", { href: `/api/tables/${tableId}/games/${x.game_no}/record`, download: `burraco-${tableId}-${x.game_no}.json`, text: t("record") }))));
    });
  }
}
let clockBase = null;
function tickClock() {
  const s = state;
  if (!s || !s.clock) { $("clockbox").textContent = ""; return; }
  if (clockBase === null || clockBase.n !== s.n) clockBase = { n: s.n, at: performance.now() };
  if (s.clock.left === undefined) { $("clockbox").textContent = ""; return; }
  const left = Math.max(0, s.clock.left - (performance.now() - clockBase.at) / 1000);
  $("clockbox").textContent = `⏱ ${s.clock.seat} ${left.toFixed(0)}${t("seconds")}`;
}

// ----- replay -----------------------------------------------------------------------------------------------------
async function replayMain(id, g) {
  $("replay").hidden = false;
  const data = await (await fetch(`/api/tables/${id}/games/${g}/replay`)).json();
  $("rtitle").textContent = `${t("replayOf")} · ${id} #${Number(g) + 1}`;
  $("rDownload").href = `/api/tables/${id}/games/${g}/record`;
  $("rDownload").setAttribute("download", `burraco-${id}-${g}.json`);
  let hand = 0, step = 0;
  $("rHand").replaceChildren(...data.hands.map((h, i) => el("option", { value: i, text: `${t("handN")} ${i + 1}` })));
  const show = () => {
    const h = data.hands[hand];
    $("rSlider").max = h.steps.length - 1;
    $("rSlider").value = step;
    const st = h.steps[step];
    $("rAction").textContent = `${step}/${h.steps.length - 1} ${st.action || ""}`;
    const tb = st.table;
    $("rBoard").replaceChildren(
      ...Object.entries(tb.hand_cards).map(([seat, cs]) => el("div", { class: "seat" + (tb.turn === seat ? " turn" : "") },
        el("b", { text: seat + " " }), ...cs.map((c) => cardEl(c)))),
      el("div", {}, `${t("stock")}: ${tb.stock} · ${t("pozzetti")}: ${tb.pozzetti_left}`),
      el("div", { class: "pile" }, el("span", { class: "label", text: t("pile") }), ...tb.pile.map((c) => cardEl(c))),
      ...Object.entries(tb.melds).map(([side, ms]) => el("div", { class: "side" }, el("div", { class: "sidelabel", text: side }),
        ...ms.map((m) => el("div", { class: "meld" + (m.burraco ? " burraco " + m.burraco : "") }, ...m.cards.map((c) => cardEl(c)),
          m.burraco ? el("span", { class: "bmark", text: " ★ " + t(m.burraco) }) : null)))),
      ...(step === h.steps.length - 1 && h.scores ? [el("pre", { "data-testid": "r-scores", text: JSON.stringify(h.scores, null, 1) })] : []));
  };
  $("rPrev").onclick = () => { step = Math.max(0, step - 1); show(); };
  $("rNext").onclick = () => { step = Math.min(data.hands[hand].steps.length - 1, step + 1); show(); };
  $("rSlider").oninput = (e) => { step = Number(e.target.value); show(); };
  $("rHand").onchange = (e) => { hand = Number(e.target.value); step = 0; show(); };
  show();
}

applyLang();
if (mReplay) replayMain(mReplay[1], mReplay[2]);
else if (mTable) tableMain(mTable[1]);
else lobby();
