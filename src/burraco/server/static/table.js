// The table: you at the bottom, the others around the table in playing order (your partner opposite; 3 to 6 seats);
// the melds of each side as the sides stand in their own area (yours first; one column per other side) with their class and points; stock, pile and pozzetti in the middle; your
// hand fanned at the bottom; the moves log (narrated by the server in your language), chat and scoreboard beside
// it (a drawer on a phone). Click/tap to select, drag to a meld, to the table (a new meld) or to the pile; keys
// d p m x, digits and arrows. Everything is drawn from the server's `state`: the server decides, the page asks.
import {
  $, el, t, word, levelName, onLang, cardEl, backEl, cardName, cardFace, sortCards, sideOf, seatsOf, startSides, reducedMotion, Socket,
} from "./core.js";

let sock = null, state = null, tableId = null, token = null, lastN = 0, presence = null;
let selected = new Set(), sortBy = localStorage.getItem("sort") || "suit", focusKey = null;
let log = [], chat = [], notice = "", hint = null, lastActs = {}, newCards = new Set(), prevHand = null;
let pileFanned = false, clockBase = null, online = false, expanded = null;  // expanded: a side's melds given more room

const heldKey = () => "held:" + tableId;
function held() { try { return JSON.parse(localStorage.getItem(heldKey()) || "[]"); } catch (e) { return []; } }
function keepHeld(tok) { const h = held().filter((x) => x !== tok); h.push(tok); localStorage.setItem(heldKey(), JSON.stringify(h.slice(-8))); }
function dropHeld(tok) { localStorage.setItem(heldKey(), JSON.stringify(held().filter((x) => x !== tok))); }

export function tableMain(id) {
  tableId = id;
  document.body.classList.add("at-table");
  $("table").hidden = false;
  const h = location.hash.match(/t=([\w-]+)/);
  if (h) { token = h[1]; localStorage.setItem("tok:" + id, token); history.replaceState(null, "", location.pathname + location.search); }
  else token = localStorage.getItem("tok:" + id);
  showInvites();
  wire();
  onLang((l) => { sock && sock.send({ type: "lang", lang: l }); render(); });
  $("nameForm").addEventListener("submit", () => {  // an invited player chooses his name: the seat takes it
    const n = $("nameIn").value.trim();
    if (n) { localStorage.setItem("name", n); sock.reconnect(); }
  });
  connect();
  setInterval(tick, 250);
}
function connect() {
  sock = new Socket(() => {
    const m = { type: "hello", v: 1, table: tableId, lang: document.documentElement.lang || "en" };
    if (token) { m.token = token; m.held = held().filter((x) => x !== token); }
    else if (held().length) m.held = held();
    if (lastN) m.last = lastN;
    const name = localStorage.getItem("name");
    if (name && token) m.name = name;
    return m;
  }, onMessage, (on) => { online = on; setConn(); render(); });
}
function send(m) { return sock ? sock.send(m) : false; }
function act(what) {
  if (!state || !state.you || !online) return;
  send({ type: "act", action: `${state.you} ${what}`, n: lastN });
}
function say(text) { notice = text; $("msg").textContent = text; }
function setConn() {
  $("conn").textContent = online ? "● " + t("web_connected") : "○ " + t("web_offline");
  $("conn").className = "conn " + (online ? "on" : "off");
  $("offline").hidden = online;
  document.body.classList.toggle("is-offline", !online);
}

// ----- controls -----------------------------------------------------------------------------------------------------
function wire() {
  $("bDraw").onclick = () => act("draw");
  $("bPick").onclick = () => act("pick");
  $("pile").onclick = (e) => {
    if (e.target.closest(".fan-toggle")) return;
    if (myTurn() && state.view.phase === "draw") act("pick");
    else if (myTurn() && selected.size === 1) act("discard " + selectedCards()[0]);
  };
  $("bMeld").onclick = meldSelected;
  $("bDiscard").onclick = discardSelected;
  $("bHint").onclick = () => send({ type: "hint" });
  $("bTimeout").onclick = () => {
    const tok = localStorage.getItem("creator:" + tableId);
    if (tok) send({ type: "timeout", token: tok, n: lastN });
  };
  $("bSort").onclick = () => { sortBy = sortBy === "suit" ? "rank" : "suit"; localStorage.setItem("sort", sortBy); render(); };
  $("bBack").onclick = () => send({ type: "back" });
  $("bReturn").onclick = () => { token = held().slice(-1)[0]; localStorage.setItem("tok:" + tableId, token); sock.reconnect(); };
  $("bFill").onclick = () => send({ type: "fill" });
  $("bLeave").onclick = () => $("confirmLeave").showModal();
  $("leaveNo").onclick = () => $("confirmLeave").close();
  $("leaveYes").onclick = () => {
    $("confirmLeave").close();
    if (!send({ type: "leave" })) return;
    keepHeld(token);  // the right to return: the token stays valid until the creator gives the seat away
    localStorage.removeItem("tok:" + tableId);
    token = null;
  };
  $("bMore").onclick = () => {
    const open = document.body.classList.toggle("side-open");
    $("bMore").setAttribute("aria-expanded", String(open));
  };
  $("chatform").addEventListener("submit", (e) => {
    e.preventDefault();
    const v = $("chatin").value.trim();
    if (v && send({ type: "chat", text: v })) $("chatin").value = "";  // offline: what was typed stays
  });
  for (const box of [$("pile"), $("ourMelds")]) {
    box.addEventListener("dragover", (e) => { e.preventDefault(); markDrop(dropTarget(e.target)); });
    box.addEventListener("dragleave", () => markDrop(null));
    box.addEventListener("drop", (e) => { e.preventDefault(); markDrop(null); dropOn(e.target, cardsFor(e.dataTransfer.getData("text/plain"))); });
  }
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointermove", onPointerMove, { passive: false });
  document.addEventListener("pointerup", (e) => endTouchDrag(e, true));
  document.addEventListener("pointercancel", (e) => endTouchDrag(e, false));
  window.addEventListener("resize", () => fanHand());
}
function myTurn() {
  const s = state, v = s && s.view;
  return !!(v && s.you && v.turn === s.you && !v.end && s.table.status === "playing");
}
function selectedCards() { return [...selected].map((k) => k.split("#")[0]); }
function meldSelected() { if (!selected.size) return say(t("web_select_cards")); act("meld " + selectedCards().join(" ")); }
function discardSelected() { if (selected.size !== 1) return say(t("web_select_one")); act("discard " + selectedCards()[0]); }
function onKey(e) {
  if (e.target.closest && e.target.closest("input, select, textarea, dialog")) return;
  if (e.ctrlKey || e.metaKey || e.altKey || !state || !state.you) return;
  const keys = [...document.querySelectorAll("#hand .card[data-key]")].map((x) => x.dataset.key);
  const k = e.key;
  if (k === "d") act("draw");
  else if (k === "p") act("pick");
  else if (k === "m") meldSelected();
  else if (k === "x") discardSelected();
  else if (/^[1-9]$/.test(k)) { if (selected.size) act(`add ${k} ${selectedCards().join(" ")}`); }
  else if (k === "ArrowLeft" || k === "ArrowRight") {
    if (!keys.length) return;
    const i = keys.indexOf(focusKey);
    focusKey = keys[i < 0 ? 0 : Math.max(0, Math.min(keys.length - 1, i + (k === "ArrowLeft" ? -1 : 1)))];
    render();
    const f = document.querySelector(`#hand .card[data-key="${focusKey}"]`);
    if (f) f.focus();
  } else if (k === " " || k === "Enter") {
    const card = e.target.closest && e.target.closest("#hand .card[data-key]");
    if (card) toggle(card.dataset.key);
    else if (focusKey && keys.includes(focusKey) && !(e.target.closest && e.target.closest("button, a"))) toggle(focusKey);
    else return;
  } else return;
  e.preventDefault();
}
function toggle(key) {
  selected.has(key) ? selected.delete(key) : selected.add(key);
  focusKey = key;
  render();
  const f = document.querySelector(`#hand .card[data-key="${key}"]`);
  if (f) f.focus();
}

// drag and drop: the dragged card, with the selected ones when it is one of them
function cardsFor(key) {
  const keys = selected.has(key) ? [...selected] : [key];
  return keys.filter((k) => k).map((k) => k.split("#")[0]);
}
function dropTarget(node) {
  return node && node.closest && (node.closest("#ourMelds .meld[data-meld]") || node.closest("#ourMelds") || node.closest("#pile"));
}
// cards dropped on an element: a meld of our side (add), beside our melds (a new meld), the pile (discard)
function dropOn(target, cards) {
  if (!target || !cards.length) return;
  const meld = target.closest("#ourMelds .meld[data-meld]");
  if (meld) act(`add ${meld.dataset.meld} ${cards.join(" ")}`);
  else if (target.closest("#ourMelds")) act("meld " + cards.join(" "));
  else if (target.closest("#pile")) { if (cards.length === 1) act("discard " + cards[0]); else say(t("web_select_one")); }
}
function markDrop(node) {
  for (const x of document.querySelectorAll(".drop-target")) if (x !== node) x.classList.remove("drop-target");
  if (node) node.classList.add("drop-target");
}
// touch (and pen) drag with pointer events: phones have no HTML5 drag and drop. A tap still selects (click); a
// move of more than a few pixels drags the card (with the selected ones) under the finger.
let touchDrag = null, swallowClick = false;
function cardPointerDown(e, key) {
  if (e.pointerType === "mouse" || !e.isPrimary) return;
  touchDrag = { key, id: e.pointerId, x: e.clientX, y: e.clientY, ghost: null };
}
function onPointerMove(e) {
  const d = touchDrag;
  if (!d || e.pointerId !== d.id) return;
  if (!d.ghost) {
    if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) return;
    d.ghost = el("div", { class: "drag-ghost", "data-testid": "drag-ghost" }, ...cardsFor(d.key).map((c) => cardEl(c)));
    document.body.append(d.ghost);
    say(t("web_drop_here"));
  }
  e.preventDefault();
  d.ghost.style.left = e.clientX + "px";
  d.ghost.style.top = e.clientY + "px";
  markDrop(dropTarget(document.elementFromPoint(e.clientX, e.clientY)));
}
function endTouchDrag(e, drop) {
  const d = touchDrag;
  if (!d || e.pointerId !== d.id) return;
  touchDrag = null;
  if (!d.ghost) return;  // no move: a tap, the click that follows selects the card
  d.ghost.remove();
  markDrop(null);
  swallowClick = true;
  setTimeout(() => { swallowClick = false; }, 400);
  notice = "";
  if (drop) dropOn(dropTarget(document.elementFromPoint(e.clientX, e.clientY)), cardsFor(d.key));
}

// ----- messages -----------------------------------------------------------------------------------------------------
function seatName(letter) {
  const s = state && state.table.seats.find((x) => x.seat === letter);
  if (!s) return letter;
  if (s.kind === "computer") return levelName(s.level || "heuristic:medium");
  if (s.kind === "open") return t("web_open");
  return s.name === `Player ${letter}` ? t("web_human") : s.name;  // the server's default name is English
}
function onMessage(m) {
  const t0 = performance.now();
  switch (m.type) {
    case "welcome":
      if (m.replay === null) chat = [];
      if (m.you === null && token && !state) { /* a spectator after all: the token was refused */ }
      break;
    case "event":
      if (m.n <= lastN) break;
      lastN = m.n;
      onEvent(m);
      break;
    case "log":
      if (m.full) log = m.lines.map((x) => ({ text: x }));
      else {
        log.push(...m.lines.map((x) => ({ text: x, seat: m.seat })));
        if (m.seat && state && m.seat !== state.you) lastActs[m.seat] = { text: m.lines.join(" · "), at: performance.now() };
      }
      if (log.length > 300) log = log.slice(-300);
      drawLog();
      drawSeats();
      break;
    case "state": {
      lastN = Math.max(lastN, m.n);
      const v = m.view;
      if (!state || m.n !== state.n || (v && v.turn !== m.you)) hint = null;
      const hand = v ? v.hand : [];
      if (prevHand && v && hand.join(" ") !== prevHand.join(" ")) {
        selected.clear();
        // the cards just drawn or picked up (or the pozzetto): marked until the next change of the hand
        const before = {};
        for (const c of prevHand) before[c] = (before[c] || 0) + 1;
        const added = [];
        for (const c of hand) { if (before[c]) before[c]--; else added.push(c); }
        newCards = new Set(hand.length > prevHand.length ? added : []);
      } else if (!v) { selected.clear(); newCards = new Set(); }
      prevHand = v ? [...hand] : null;
      const first = !state;
      state = m;
      if (first && m.you && !localStorage.getItem("name")) {
        const me = m.table.seats.find((x) => x.seat === m.you);
        if (me && /^Player [A-Z]$/.test(me.name)) $("nameDialog").show();
      }
      clockBase = { n: m.n, at: performance.now() };
      render();
      break;
    }
    case "presence": presence = m; drawSeats(); break;
    case "hint": {
      const parts = m.action.split(" ");
      // in words, cards as symbols; the action itself (RECORDS.md §4) in data-action, for scripts
      hint = { text: `${t("web_hint_for")}: ${m.text || m.reason}`, action: m.action, cards: parts.slice(parts[1] === "add" ? 3 : 2) };
      render();
      break;
    }
    case "seated": token = m.token; localStorage.setItem("tok:" + tableId, token); break;
    case "given": showGiven(m); break;
    case "left": break;
    case "error":
      say(m.text || errText(m));
      if (m.code === "bad_token") { dropHeld(token); localStorage.removeItem("tok:" + tableId); token = null; }
      break;
  }
  window.__burracoRender = (window.__burracoRender || []).concat(performance.now() - t0).slice(-500);
}
const ERRORS = {
  stale: "web_err_stale", out_of_turn: "web_err_out_of_turn", not_seated: "web_err_not_seated",
  rate_limited: "web_err_rate_limited", bad_token: "web_err_bad_token", seat_taken: "web_err_seat_taken",
  no_table: "web_err_no_table", one_seat: "web_err_one_seat", seat_reserved: "web_err_seat_reserved",
};
function errText(m) { return ERRORS[m.code] ? t(ERRORS[m.code]) : m.message; }
// another seat's move, shown as its card(s) flying from the seat to where they go (none with reduced motion)
function animateMove(action) {
  if (reducedMotion() || !state || document.hidden) return;
  const [seat, verb, ...args] = action.split(" ");
  if (!seat || seat === state.you) return;
  const from = document.querySelector(`#felt [data-seat="${seat}"]`);
  const side = sideOf(seat, sides().map) === sides().us ? "ourMelds" : "theirMelds";
  const to = verb === "discard" ? $("pile") : verb === "meld" || verb === "add" ? $(side) : verb === "draw" ? from : null;
  const start = verb === "draw" ? $("stockBox") : from;
  if (!start || !to) return;
  const cards = verb === "discard" ? args.slice(0, 1) : verb === "meld" ? args : verb === "add" ? args.slice(1) : [null];
  const a = start.getBoundingClientRect(), b = to.getBoundingClientRect();
  const ghost = el("div", { class: "fly", "aria-hidden": "true" }, ...cards.slice(0, 5).map((c) => c ? cardEl(c) : backEl()));
  ghost.style.left = `${a.left + a.width / 2}px`;
  ghost.style.top = `${a.top + a.height / 2}px`;
  document.body.append(ghost);
  const dx = b.left + b.width / 2 - (a.left + a.width / 2), dy = b.top + b.height / 2 - (a.top + a.height / 2);
  ghost.animate([{ transform: "translate(-50%, -50%)", opacity: 1 }, { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%))`, opacity: 0.2 }],
    { duration: 450, easing: "ease-in-out" }).onfinish = () => ghost.remove();
}
function onEvent(m) {
  const d = m.data;
  if (m.kind === "action") { notice = ""; if (d.seat) requestAnimationFrame(() => animateMove(d.action)); }
  else if (m.kind === "chat") chat.push(`${d.name}: ${d.text}`);
  else if (m.kind === "hand") { log.push({ text: `— ${t("web_hand_n")} ${d.hand_no + 1} —`, sep: true }); lastActs = {}; }
  else if (m.kind === "away") log.push({ text: `${seatName(d.seat_letter)}: ${d.away ? t("web_away") : t("web_back")}` });
  if (chat.length > 100) chat = chat.slice(-100);
}

// ----- drawing ------------------------------------------------------------------------------------------------------
// where the others sit: in playing order from you, the next on your left, on round the table to your right
// (2 players: opposite; 3: left and right; 4: left, opposite, right; 5 and 6: two on the side(s))
const SLOTS = { 2: ["top"], 3: ["left", "right"], 4: ["left", "top", "right"], 5: ["left", "top", "top", "right"],
  6: ["left", "left", "top", "right", "right"] };
function positions() {
  const tb = state.table, n = tb.players, seats = seatsOf(n);
  const me = state.you || seats[0];
  const i = seats.indexOf(me);
  const out = { bottom: me, left: [], top: [], right: [] };
  (SLOTS[n] || SLOTS[4]).forEach((w, k) => out[w].push(seats[(i + k + 1) % n]));
  return out;
}
// a seat's place in playing order counted from you (0: you)
function turnsFrom(seat) { const seats = seatsOf(state.table.players), n = seats.length; return (seats.indexOf(seat) - seats.indexOf(state.you || seats[0]) + n) % n; }
// the sides as they stand: the view's (they change when a pair forms with 3 and 5 players), else the hand's end,
// else those a hand starts with; yours first, the others in playing order from you
function sides() {
  const s = state, v = s.view;
  const map = (v && v.sides) || (s.hand_end && s.hand_end.sides) || startSides(s.table.players);
  const us = sideOf(state.you || seatsOf(s.table.players)[0], map);
  const key = (x) => Math.min(...(map[x] || [x]).map(turnsFrom));
  const them = Object.keys(map).filter((x) => x !== us).sort((a, b) => key(a) - key(b));
  return { us, them, map, key };
}
// who keeps match totals (the sides; the players with 3 and 5), yours first, the others in playing order
function scorers(list) {
  const { map } = sides();
  const key = (x) => Math.min(...(map[x] || startSides(state.table.players)[x] || [x]).map(turnsFrom));
  return [...list].sort((a, b) => key(a) - key(b));
}
// a side as the player calls it: "us (NS)" / "them (EW)"; a player alone (3, 5 players) by his name; a spectator
// has no side: the side's letters
function sideWord(side, scorer = false) {
  const { us } = sides(), n = state.table.players;
  if (n !== 2 && side.length === 1 && !(state.you && side === state.you)) return seatName(side);
  if (!state.you) return side;
  if (scorer && n !== 2 && side === state.you) return t("web_you");
  return side === us ? t("web_us") : t("web_them");
}
// "us (NS)", "Anna (B)"; a spectator: the side's letters (a player alone: his name too)
function sideLabel(side, scorer = false) { return state.you || (state.table.players !== 2 && side.length === 1) ? `${sideWord(side, scorer)} (${side})` : side; }

export function render() {
  const s = state;
  if (!s) return;
  const tb = s.table, v = s.view;
  $("tname").textContent = `${tb.name} · ${word("preset", tb.preset)}`;
  $("tstatus").textContent = t({ waiting: "web_waiting", playing: "web_playing", finished: "web_finished", abandoned: "web_abandoned" }[tb.status] || "web_playing");
  const want = new URLSearchParams(location.search).get("take");
  if (want && !s.you && !token && online) {
    send({ type: "take", seat: want, name: localStorage.getItem("name") || undefined, held: held() });
    history.replaceState(null, "", location.pathname);
  }
  drawTotals();
  drawSeats();
  drawMelds();
  drawCenter();
  drawHand();
  drawButtons();
  drawHandEnd();
  drawScores();
  drawLog();
  $("chatlog").replaceChildren(...chat.map((x) => el("div", { text: x })));
  $("chatlog").scrollTop = 1e9;
  document.body.dataset.n = String(lastN);  // for scripts and tests: the last event shown
  document.body.dataset.myturn = myTurn() ? (v.phase === "draw" ? "draw" : "play") : "";
  tick();
}
function drawTotals() {
  const sb = state.scoreboard, tb = state.table;
  if (!sb) { $("totals").textContent = tb.hands_per_match ? `${t("web_hands")}: ${tb.hands_per_match}` : t("web_goal_to", { n: tb.target }); return; }
  const goal = tb.hands_per_match ? t("web_goal_hand_of", { i: (state.hand_no ?? 0) + 1, n: tb.hands_per_match }) : t("web_goal_to", { n: tb.target });
  const order = scorers(Object.keys(sb.totals));
  if (order.length === 2)
    $("totals").textContent = t("web_totals_line", { us: sideWord(order[0]), a: sb.totals[order[0]], b: sb.totals[order[1]], them: sideWord(order[1]), goal });
  else $("totals").textContent = t("web_totals_many", { scores: order.map((x) => `${sideLabel(x, true)} ${sb.totals[x]}`).join(" – "), goal });
}
function seatBox(letter, where) {
  const s = state, v = s.view, tb = s.table;
  const x = tb.seats.find((q) => q.seat === letter);
  const on = presence ? presence.seats[letter] : x.connected;
  const turn = v && v.turn === letter && !v.end;
  const last = lastActs[letter];
  const fresh = last && performance.now() - last.at < 3500;
  const kids = [
    el("span", { class: "sname" }, el("b", { text: letter }), " ", seatName(letter)),
    x.kind === "human" ? el("span", { class: "dot " + (on ? "on" : "off"), role: "img", "aria-label": on ? t("web_connected") : t("web_offline"), text: "●" }) : null,
    s.dealer === letter ? el("span", { class: "dealer", title: t("web_dealer"), "aria-label": t("web_dealer"), text: t("web_dealer").charAt(0).toUpperCase() }) : null,
    v ? el("span", { class: "count", text: t("web_cards_n", { n: v.hand_sizes[letter] }) }) : null,
    x.away ? el("i", { text: t("web_away") }) : null,
    x.kind === "left" ? el("i", { text: t("web_left_seat") }) : null,
    turn ? el("span", { class: "turnmark", text: t("web_turn") }) : null,
    v && v.known[letter] && v.known[letter].length ? el("span", { class: "known" }, ...v.known[letter].map((c) => cardEl(c, { class: "mini" }))) : null,
    fresh ? el("span", { class: "bubble", "data-testid": "last-" + letter, text: last.text }) : null,
  ];
  const creator = localStorage.getItem("creator:" + tableId);
  if (creator && (x.kind === "left" || x.kind === "open") && where !== "bottom")
    kids.push(el("button", { class: "give", "data-testid": "give-" + letter, onclick: () => send({ type: "give", token: creator, seat: letter }), text: t("web_give", { seat: letter }) }));
  return el("div", { class: "seat" + (turn ? " turn" : "") + (letter === s.you ? " mine" : ""), "data-seat": letter }, ...kids);
}
function drawSeats() {
  if (!state) return;
  const pos = positions();
  for (const w of ["top", "left", "right"]) {
    const box = $("pos-" + w);
    box.replaceChildren(...pos[w].map((x) => seatBox(x, w)));
    box.hidden = !pos[w].length;
  }
  const n = state.table.players;
  $("felt").classList.toggle("two", n === 2);
  for (const k of [3, 5, 6]) $("felt").classList.toggle("n" + k, n === k);
  $("meLabel").replaceChildren(seatBox(pos.bottom, "bottom"),
    el("span", { class: "spect", text: presence && presence.spectators ? `${t("web_spectators")}: ${presence.spectators}` : "" }));
}
function meldBox(m, i, side, mine) {
  const pts = state.points && state.points[side] ? state.points[side].each[i] : null;
  const cls = m.burraco ? t("web_burraco_mark", { kind: m.burraco }) : t("web_meld_class", { kind: m.wild ? "dirty" : "clean" });
  return el("div", {
    class: "meld" + (m.burraco ? " burraco " + m.burraco : "") + (m.wild ? " wild" : " clean"), "data-meld": mine ? i + 1 : null, "data-side": side,
    role: mine ? "button" : null, tabindex: mine ? "0" : null,
    "aria-label": `${i + 1}: ${m.cards.map(cardName).join(", ")} · ${cls}` + (pts !== null ? ` · ${pts}` : ""),
    onclick: mine ? () => { if (selected.size) act(`add ${i + 1} ${selectedCards().join(" ")}`); } : null,
  }, el("span", { class: "mnum", text: `${i + 1}` }), el("span", { class: "mcards" }, ...m.cards.map((c) => cardEl(c))),
  el("span", { class: "mclass", text: cls + (pts !== null ? ` · ${pts}` : "") }));
}
// one melds area per side as the sides stand: yours (#ourMelds), and one column per other side in #theirMelds
function sideMelds(side, mine, id, testid, expandKey) {
  const v = state.view;
  const p = state.points && state.points[side];
  const head = el("h2", { class: "sidelabel", id },
    sideLabel(side), p ? el("span", { class: "spoints", "data-testid": testid,
      text: " · " + (p.bonuses ? t("web_points_bonus", { n: p.melds, b: p.bonuses }) : t("web_points", { n: p.melds })) }) : null,
    v && v.pozzetto_taken[side] ? el("span", { class: "ptaken", text: " · " + t("web_pozzetto_took") }) : null);
  if (expandKey)
    head.append(el("button", { class: "expand", "data-testid": "expand-" + expandKey, "aria-expanded": String(expanded === expandKey),
      "aria-label": t("web_expand"), title: t("web_expand"), text: expanded === expandKey ? "▾" : "▴",
      onclick: (e) => { e.stopPropagation(); expanded = expanded === expandKey ? null : expandKey; drawMelds(); } }));
  const melds = v && v.melds[side] ? v.melds[side] : [];
  return [head, el("div", { class: "mlist" }, ...melds.map((m, i) => meldBox(m, i, side, mine)))];
}
function drawMelds() {
  const { us, them } = sides();
  $("ourMelds").replaceChildren(...sideMelds(us, true, "usLabel", "points-us", "us"));
  $("ourMelds").dataset.side = us;
  if (them.length === 1) $("theirMelds").replaceChildren(...sideMelds(them[0], false, "themLabel", "points-them", "them"));
  else {
    const cols = them.map((x, k) => el("div", { class: "mside", "data-side": x, "data-testid": "melds-" + x },
      ...sideMelds(x, false, k === 0 ? "themLabel" : null, k === 0 ? "points-them" : "points-" + x, k === 0 ? "them" : null)));
    $("theirMelds").replaceChildren(el("div", { class: "msides" }, ...cols));
  }
  $("theirMelds").classList.toggle("many", them.length > 1);
  for (const key of ["us", "them"]) $("felt").classList.toggle("expand-" + key, expanded === key);
}
function drawCenter() {
  const v = state.view;
  $("stockBox").replaceChildren(v && v.stock ? backEl(t("web_stock_n", { n: v.stock })) : el("span", { class: "card empty" }),
    el("span", { class: "label", text: v ? t("web_stock_n", { n: v.stock }) : t("web_stock") }));
  const pz = v ? v.pozzetti_left : 0;
  $("pozzBox").replaceChildren(el("span", { class: "pstack" }, ...Array.from({ length: pz }, () => backEl(t("web_pozzetto"), { class: "pozzetto" }))),
    el("span", { class: "label", text: t("web_pozzetti_n", { n: pz }) }));
  const pile = v ? v.pile : [];
  const shown = pileFanned ? pile : pile.slice(-3);
  const kids = [el("span", { class: "label", text: v ? t("web_pile_n", { n: v.pile_size }) + (v.pile_open ? "" : " · " + t("web_pile_closed")) : t("web_pile") })];
  if (v && !v.pile_open && v.pile_size > 1) kids.push(backEl(t("web_pile_n", { n: v.pile_size - 1 }), { text: "+" + (v.pile_size - 1) }));
  kids.push(el("span", { class: "pcards" + (pileFanned ? " fanned" : "") }, ...shown.map((c, i) => cardEl(c, { class: i === shown.length - 1 ? "top" : "" }))));
  if (v && v.pile_open && pile.length > 3)
    kids.push(el("button", { class: "fan-toggle", "data-testid": "fan-pile", "aria-pressed": String(pileFanned), onclick: () => { pileFanned = !pileFanned; drawCenter(); }, text: t("web_show_pile") }));
  $("pile").replaceChildren(...kids);
}
function drawHand() {
  const v = state.view;
  const hand = v ? sortCards(v.hand, sortBy) : [];
  const seen = {}, hintLeft = {};
  for (const c of (hint && myTurn() ? hint.cards : [])) hintLeft[c] = (hintLeft[c] || 0) + 1;
  const fresh = {};
  for (const c of newCards) fresh[c] = (fresh[c] || 0) + 1;
  if (v && v.drawn) fresh[v.drawn] = Math.max(fresh[v.drawn] || 0, 1);
  $("hand").replaceChildren(...hand.map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    const key = c + "#" + seen[c];
    let cls = selected.has(key) ? "selected" : "";
    if (hintLeft[c]) { hintLeft[c]--; cls += " hinted"; }
    if (fresh[c]) { fresh[c]--; cls += " new"; }
    return cardEl(c, {
      // a button's name holds its visible text (7♥), then the card in words
      class: cls.trim(), "data-key": key, role: "button", "aria-label": `${cardFace(c)}, ${cardName(c)}`, tabindex: key === focusKey || (!focusKey && seen[c] === 1 && c === hand[0]) ? "0" : "-1",
      "aria-pressed": String(selected.has(key)), draggable: "true",
      ondragstart: (e) => { e.dataTransfer.setData("text/plain", key); },
      onpointerdown: (e) => cardPointerDown(e, key),
      onclick: () => { if (!swallowClick) toggle(key); },
    });
  }), ...(v && v.hidden_pozzetto ? [backEl(t("web_hidden"), { text: "×" + v.hidden_pozzetto })] : []));
  fanHand();
}
// the hand fans out to fit the width: the cards overlap as much as needed, never more
function fanHand() {
  const box = $("hand");
  const cards = box.querySelectorAll(".card");
  if (!cards.length) return;
  const w = cards[0].getBoundingClientRect().width || 44;
  const room = box.clientWidth - 8;
  const need = cards.length * w;
  const ov = cards.length > 1 && need > room ? Math.min(w * 0.72, (need - room) / (cards.length - 1)) : 0;
  box.style.setProperty("--overlap", `-${ov.toFixed(1)}px`);
}
function drawButtons() {
  const s = state, v = s.view, tb = s.table;
  const mt = myTurn() && online;
  const drawPhase = mt && v.phase === "draw";
  $("bDraw").disabled = !drawPhase;
  $("bPick").disabled = !drawPhase || !v.pile_size;
  $("bMeld").disabled = !mt || v.phase !== "play";
  $("bDiscard").disabled = !mt || v.phase !== "play";
  $("bHint").disabled = !mt;
  $("bSort").textContent = sortBy === "suit" ? t("web_sort_rank") : t("web_sort_suit");
  const creator = localStorage.getItem("creator:" + tableId);
  $("bTimeout").hidden = !(creator && tb.timeouts && tb.status === "playing" && v && !v.end);
  $("bTimeout").disabled = !online;
  for (const b of ["bDraw", "bPick", "bMeld", "bDiscard", "bHint", "bSort"]) $(b).hidden = !s.you;
  const meSeat = s.you ? tb.seats.find((x) => x.seat === s.you) : null;
  $("bBack").hidden = !(meSeat && meSeat.away);
  $("bReturn").hidden = !!s.you || !held().length || !tb.seats.some((x) => x.kind === "left" || x.kind === "open");
  $("bFill").hidden = !(s.you && tb.status === "waiting");
  $("bLeave").hidden = !s.you;
  for (const b of ["bBack", "bReturn", "bFill", "bLeave"]) $(b).disabled = !online;
  $("msg").textContent = notice || (myTurn() ? t("web_your_turn") + (selected.size && v.phase === "play" ? " · " + t("web_add_here") : "") : "");
  $("hintText").textContent = myTurn() && hint ? hint.text : "";
  if (myTurn() && hint) $("hintText").dataset.action = hint.action;
  else delete $("hintText").dataset.action;
}
function drawLog() {
  $("log").replaceChildren(...log.slice(-60).map((x) => el("div", { class: x.sep ? "sep" : "", text: x.text })));
  $("log").scrollTop = 1e9;
}
function drawHandEnd() {
  const s = state, he = s.hand_end, box = $("handEnd");
  if (!he) { box.hidden = true; return; }
  box.hidden = false;
  // one column per side of the hand (yours first); the match totals per scorer: in the same columns when the
  // sides keep the totals (2, 4, 6 players), else a row per player below (3, 5: his share of his side's score)
  const { us, them } = sides();
  const order = [us, ...them].filter((x) => he.scores[x]);
  const who = scorers(Object.keys(he.totals));
  const same = who.length === order.length && who.every((x) => order.includes(x));
  const rows = ["melds", "bonuses", "closing", "hand", "pozzetto", "total"];
  const table = el("table", { class: "breakdown", "data-testid": "breakdown" },
    el("tr", {}, el("th", {}), ...order.map((x) => el("th", { scope: "col", "data-side": x, text: sideLabel(x) }))),
    ...rows.map((r) => el("tr", { class: r === "total" ? "total" : "" }, el("th", { scope: "row", text: word("tui_score_row", r) }),
      ...order.map((x) => el("td", { text: String(he.scores[x][r]) })))),
    same ? el("tr", { class: "total" }, el("th", { scope: "row", text: word("tui_score_row", "match") }), ...order.map((x) => el("td", { text: String(he.totals[x]) }))) : null);
  const perPlayer = same ? null : el("table", { class: "breakdown scorers", "data-testid": "match-totals" },
    el("tr", {}, el("th", {}), ...who.map((x) => el("th", { scope: "col", "data-scorer": x, text: sideLabel(x, true) }))),
    he.points ? el("tr", {}, el("th", { scope: "row", text: t("web_this_hand") }), ...who.map((x) => el("td", { text: String(he.points[x]) }))) : null,
    el("tr", { class: "total" }, el("th", { scope: "row", text: word("tui_score_row", "match") }), ...who.map((x) => el("td", { text: String(he.totals[x]) }))));
  const left = el("div", { class: "left" }, el("h3", { text: t("web_left_in_hand") }), ...Object.entries(he.hands).map(([seat, cs]) =>
    el("div", { class: "lefthand" }, el("b", { text: `${seatName(seat)} (${seat}): ` }), ...cs.map((c) => cardEl(c, { class: "mini" })))));
  const kids = [el("h2", { id: "handEndTitle", text: t("web_hand_end_title", { i: he.hand_no + 1, end: he.end }) +
    (he.closed_by ? " · " + t("web_closed_by_who", { who: seatName(he.closed_by) }) : "") }), table, perPlayer, left].filter(Boolean);
  const sb = s.scoreboard;
  if (s.table.status === "finished" && sb) {
    // the winner; or those level at the top (with 3 and 5 players a pair's two halves are equal)
    const top = Math.max(...Object.values(sb.totals)), level = scorers(Object.keys(sb.totals)).filter((x) => sb.totals[x] === top);
    const one = state.table.players !== 2 && sb.winner && sb.winner.length === 1;  // a player alone (3, 5 players)
    const text = !sb.winner ? t("web_match_level", { who: level.map((x) => sideLabel(x, true)).join(", ") })
      : one ? t("web_wins_one", { who: sideLabel(sb.winner, true) }) : t("web_wins", { side: sideLabel(sb.winner) });
    kids.push(el("p", { class: "winner", "data-testid": "winner", text: text +
      (sb.vp ? ` · VP ${scorers(Object.keys(sb.vp)).map((x) => sb.vp[x]).join("–")}` : "") }));
    kids.push(el("p", {}, el("a", { href: `/t/${tableId}/replay/${s.game_no}`, "data-testid": "replay-link", text: t("web_watch_replay") }),
      // the coach on this browser's seat (its token, or the one it left): the replay asks for it at once
      token || held().length ? el("a", { href: `/t/${tableId}/replay/${s.game_no}?coach=1`, class: "coachlink", "data-testid": "coach-link", text: t("web_coach_ask") }) : null));
    if (s.you) kids.push(el("button", { "data-testid": "rematch", onclick: () => send({ type: "rematch" }), text: t("web_rematch") }));
  } else if (s.table.status === "playing") {
    kids.push(el("p", { class: "next", "data-testid": "next-in", id: "nextIn" }));
    if (s.you) kids.push(el("button", { class: "primary", "data-testid": "next", disabled: s.ready.includes(s.you) ? "disabled" : null, onclick: () => send({ type: "next" }), text: t("web_ready") }));
    if (s.ready.length) kids.push(el("p", { text: t("web_ready_list", { who: s.ready.map(seatName) }) }));
  }
  box.replaceChildren(...kids);
}
let gamesShown = -1;
function drawScores() {
  const sb = state.scoreboard;
  if (!sb) { $("scoreboard").replaceChildren(); return; }
  const order = scorers(sb.scorers || Object.keys(sb.totals));
  $("scoreboard").replaceChildren(el("table", { class: "breakdown" },
    el("tr", {}, el("th", { text: "#" }), ...order.map((x) => el("th", { scope: "col", text: order.length > 2 ? x : sideWord(x, true), title: sideWord(x, true) }))),
    ...sb.hands.map((h) => el("tr", {}, el("td", { text: String(h.hand_no + 1) }), ...order.map((x) => el("td", { text: String(h.scores[x]) })))),
    el("tr", { class: "total" }, el("td", { text: t("web_total") }), ...order.map((x) => el("td", { text: String(sb.totals[x]) })))));
  if (state.table.games && state.table.games !== gamesShown) {
    gamesShown = state.table.games;
    fetch(`/api/tables/${tableId}/games`).then((r) => r.json()).then((g) => {
      $("games").replaceChildren(el("h3", { text: t("web_games") }), ...g.games.map((x) => el("div", {},
        `#${x.game_no + 1} ${order.map((sd) => x.totals[sd]).join("–")} `,
        el("a", { href: `/t/${tableId}/replay/${x.game_no}`, text: t("web_replay") }), " · ",
        el("a", { href: `/api/tables/${tableId}/games/${x.game_no}/record`, download: `burraco-${tableId}-${x.game_no}.json`, text: t("web_record") }))));
    });
  }
}
function tick() {
  const s = state;
  if (!s) return;
  const since = clockBase ? (performance.now() - clockBase.at) / 1000 : 0;
  if (s.clock && s.clock.left !== undefined) $("clockbox").textContent = `⏱ ${seatName(s.clock.seat)} ${Math.max(0, s.clock.left - since).toFixed(0)} s`;
  else $("clockbox").textContent = "";
  const ni = $("nextIn");
  if (ni && s.next_hand_in !== null && s.next_hand_in !== undefined) ni.textContent = t("web_next_in", { n: Math.max(0, Math.ceil(s.next_hand_in - since)) });
  for (const [seat, a] of Object.entries(lastActs)) if (performance.now() - a.at > 3500) { delete lastActs[seat]; drawSeats(); }
}
function showInvites() {
  const inv = sessionStorage.getItem("invites:" + tableId);
  if (!inv) return;
  const links = JSON.parse(inv);
  if (!Object.keys(links).length) return;
  $("invites").hidden = false;
  $("invites").replaceChildren(el("p", { text: t("web_invite") }), ...Object.entries(links).map(([s, l]) =>
    el("div", {}, el("b", { text: s + " " }), el("input", { readonly: "readonly", value: location.origin + l, "data-testid": "invite-" + s, "aria-label": t("web_seat_of", { seat: s }) }))));
}
function showGiven(m) {
  $("invites").hidden = false;
  $("invites").append(el("p", { text: t("web_given", { seat: m.seat }) }),
    el("input", { readonly: "readonly", value: location.origin + m.link, "data-testid": "given-" + m.seat, "aria-label": t("web_seat_of", { seat: m.seat }) }));
  document.body.classList.add("side-open");
}
