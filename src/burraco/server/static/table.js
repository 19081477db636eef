// The table: you at the bottom, the others around the table in playing order (your partner opposite; 2 to 6 seats),
// each side's melds in its own area, the stock, pozzetti and pile in the middle (felt.js), your hand at the bottom
// (hand.js), the moves log, scoreboard and chat beside it or in a drawer on a phone (panels.js). This module: the
// connection, the messages from the server, the buttons, and drawing it all from the server's `state` (the server
// decides, the page asks). What the modules share is in tablestate.js.
import { $, el, t, word, onLang, tableTitle, showOffline, Socket } from "./core.js";
import { S, act, say, send, showLine, myTurn, seatName, held, keepHeld, dropHeld, creatorToken, setSocket, setRenderer } from "./tablestate.js";
import { drawHand, meldSelected, discardSelected, wireHand, watchHand } from "./hand.js";
import { drawGoal, drawSeats, drawMelds, drawCenter, fitMelds, relayout, animateMove, wireCenter, LAST_MOVE_MS } from "./felt.js";
import { drawLog, drawChat, drawScores, drawHandEnd, showInvites, showGiven, wirePanels, askAdmin, drawAdminClose } from "./panels.js";
import { contribute, takebackButton, sharedNotice } from "./fair.js";

let sock = null;

export function tableMain(id) {
  S.tableId = id;
  document.body.classList.add("at-table");
  $("table").hidden = false;
  const h = location.hash.match(/t=([\w-]+)/);
  if (h) { S.token = h[1]; localStorage.setItem("tok:" + id, S.token); history.replaceState(null, "", location.pathname + location.search); }
  else S.token = localStorage.getItem("tok:" + id);
  const c = location.hash.match(/c=([\w-]+)/);  // the director's watch link: the table's creator token
  if (c) { localStorage.setItem("creator:" + id, c[1]); history.replaceState(null, "", location.pathname + location.search); }
  setRenderer(render);
  showInvites();
  wire();
  onLang((l) => { send({ type: "lang", lang: l }); render(); });
  $("nameForm").addEventListener("submit", () => {  // an invited player chooses his name: the seat takes it
    const n = $("nameIn").value.trim();
    if (n) { localStorage.setItem("name", n); sock.reconnect(); }
  });
  connect();
  setInterval(tick, 250);
}
function connect() {
  sock = new Socket(() => {
    const m = { type: "hello", v: 1, table: S.tableId, lang: document.documentElement.lang || "en" };
    if (S.token) { m.token = S.token; m.held = held().filter((x) => x !== S.token); }
    else if (held().length) m.held = held();
    if (S.lastN) m.last = S.lastN;
    const name = localStorage.getItem("name");
    if (name && S.token) m.name = name;
    const creator = creatorToken();
    if (creator) m.creator = creator;  // (1.6) the director watches a table sealed to spectators
    return m;
  }, onMessage, (on) => { S.online = on; setConn(); render(); });
  setSocket((m) => sock.send(m));
}
function setConn() {
  $("conn").replaceChildren(S.online ? "●" : "○", el("span", { class: "word", text: " " + t(S.online ? "web_connected" : "web_offline") }));
  $("conn").className = "conn " + (S.online ? "on" : "off");
  $("conn").setAttribute("aria-label", t(S.online ? "web_connected" : "web_offline"));
  showOffline(!S.online);
}

// ----- the buttons ----------------------------------------------------------------------------------------------------
function wire() {
  $("bDraw").onclick = () => act("draw");
  $("bPick").onclick = () => act("pick");
  $("bMeld").onclick = meldSelected;
  $("bDiscard").onclick = discardSelected;
  $("bHint").onclick = () => send({ type: "hint" });
  $("bTimeout").onclick = () => { const tok = creatorToken(); if (tok) send({ type: "timeout", token: tok, n: S.lastN }); };
  $("bSort").onclick = () => { S.sortBy = S.sortBy === "suit" ? "rank" : "suit"; localStorage.setItem("sort", S.sortBy); render(); };
  $("bBack").onclick = () => send({ type: "back" });
  $("bReturn").onclick = () => { S.token = held().slice(-1)[0]; localStorage.setItem("tok:" + S.tableId, S.token); sock.reconnect(); };
  $("bFill").onclick = () => send({ type: "fill" });
  $("bLeave").onclick = () => $("confirmLeave").showModal();
  $("leaveNo").onclick = () => $("confirmLeave").close();
  $("leaveYes").onclick = () => {
    $("confirmLeave").close();
    if (!send({ type: "leave" })) return;
    keepHeld(S.token);  // the right to return: the token stays valid until the creator gives the seat away
    localStorage.removeItem("tok:" + S.tableId);
    S.token = null;
  };
  wireCenter();
  wireHand();
  wirePanels();
  askAdmin();  // a site administrator gets a button to remove each chat line, and one to close the table
  window.addEventListener("resize", relayout);
  watchHand(relayout);
}
// the buttons that fit the moment: draw or take the pile before the draw, meld or discard after it
function drawButtons() {
  const s = S.state, v = s.view, tb = s.table;
  const mt = myTurn() && S.online;
  const playPhase = !!(v && v.turn === s.you && v.phase === "play");
  $("bDraw").disabled = !(mt && v.phase === "draw");
  $("bPick").disabled = !(mt && v.phase === "draw") || !v.pile_size;
  $("bMeld").disabled = $("bDiscard").disabled = !(mt && v.phase === "play");
  $("bHint").disabled = !mt;
  const sortNext = t(S.sortBy === "suit" ? "web_sort_rank" : "web_sort_suit");  // "Sort", and what it does in full
  $("bSort").setAttribute("aria-label", sortNext);
  $("bSort").title = sortNext;
  for (const b of ["bDraw", "bPick"]) $(b).hidden = !s.you || playPhase;
  for (const b of ["bMeld", "bDiscard"]) $(b).hidden = !s.you || !playPhase;
  for (const b of ["bHint", "bSort"]) $(b).hidden = !s.you;
  // the time-out: the table's creator, where the rules have time-outs, once per hand, while it runs
  $("bTimeout").hidden = !(creatorToken() && tb.timeouts && tb.status === "playing" && v && !v.end && S.timeoutIn !== s.hand_no);
  $("bTimeout").disabled = !S.online;
  const meSeat = s.you ? tb.seats.find((x) => x.seat === s.you) : null;
  $("bBack").hidden = !(meSeat && meSeat.away);
  $("bReturn").hidden = !!s.you || !held().length || !tb.seats.some((x) => x.kind === "left" || x.kind === "open");
  $("bFill").hidden = !(s.you && tb.status === "waiting");
  $("bLeave").hidden = !s.you;
  for (const b of ["bBack", "bReturn", "bFill", "bLeave"]) $(b).disabled = !S.online;
  showLine($("msg"), S.notice || (myTurn() ? t("web_your_turn") + (S.selected.size && v.phase === "play" ? " · " + t("web_add_here") : "") : ""),
    S.notice ? S.noticeRules : []);
  const hinted = myTurn() && S.hint;
  showLine($("hintText"), hinted ? S.hint.text : "", hinted ? S.hint.rules : []);
  if (hinted) $("hintText").dataset.action = S.hint.action;
  else delete $("hintText").dataset.action;
}

// ----- messages -------------------------------------------------------------------------------------------------------
function onMessage(m) {
  const t0 = performance.now();
  switch (m.type) {
    case "welcome":
      if (m.replay === null) S.chat = [];
      break;
    case "event":
      if (m.n <= S.lastN) break;
      S.lastN = m.n;
      onEvent(m);
      break;
    case "log":
      if (m.full) S.log = m.lines.map((x) => ({ text: x }));
      else {
        S.log.push(...m.lines.map((x) => ({ text: x, seat: m.seat })));
        if (m.seat && S.state && m.seat !== S.state.you) S.lastActs[m.seat] = { text: m.lines.join(" · "), at: performance.now() };
      }
      if (S.log.length > 300) S.log = S.log.slice(-300);
      drawLog();
      if (S.state) drawSeats();
      break;
    case "state": onState(m); break;
    case "presence": S.presence = m; if (S.state) { drawSeats(); drawFair(); fitMelds(); } break;
    case "hint": {
      const parts = m.action.split(" ");
      // in words, cards as symbols; the action itself (RECORDS.md §4) in data-action, for scripts
      S.hint = { text: `${t("web_hint_for")}: ${m.text || m.reason}`, action: m.action, cards: parts.slice(parts[1] === "add" ? 3 : 2), rules: m.rules };
      render();
      break;
    }
    case "seated": S.token = m.token; localStorage.setItem("tok:" + S.tableId, S.token); break;
    case "given": showGiven(m); break;
    case "left": break;
    case "error":
      say(ERRORS[m.code] ? errText(m) : m.text || m.message, m.rules);  // every refusal carries its text in our language
      if (m.code === "bad_token") { dropHeld(S.token); localStorage.removeItem("tok:" + S.tableId); S.token = null; }
      break;
  }
  window.__burracoRender = (window.__burracoRender || []).concat(performance.now() - t0).slice(-500);
}
function onState(m) {
  S.lastN = Math.max(S.lastN, m.n);
  const v = m.view, prev = S.state;
  if (!prev || m.n !== prev.n || (v && v.turn !== m.you)) S.hint = null;
  const hand = v ? v.hand : [];
  if (S.prevHand && v && hand.join(" ") !== S.prevHand.join(" ")) {
    S.selected.clear();
    // the cards just drawn or picked up (or the pozzetto): marked until the next change of the hand
    const before = {};
    for (const c of S.prevHand) before[c] = (before[c] || 0) + 1;
    const added = [];
    for (const c of hand) { if (before[c]) before[c]--; else added.push(c); }
    S.newCards = new Set(hand.length > S.prevHand.length ? added : []);
  } else if (!v) { S.selected.clear(); S.newCards = new Set(); }
  S.prevHand = v ? [...hand] : null;
  S.state = m;
  if (!prev && m.you && !localStorage.getItem("name")) {
    const me = m.table.seats.find((x) => x.seat === m.you);
    if (me && /^Player [A-Z]$/.test(me.name)) $("nameDialog").show();
  }
  S.clockBase = { n: m.n, at: performance.now() };
  render();
}
const ERRORS = {
  stale: "web_err_stale", out_of_turn: "web_err_out_of_turn", not_seated: "web_err_not_seated",
  rate_limited: "web_err_rate_limited", bad_token: "web_err_bad_token", seat_taken: "web_err_seat_taken",
  no_table: "web_err_no_table", one_seat: "web_err_one_seat", seat_reserved: "web_err_seat_reserved",
};
function errText(m) { return ERRORS[m.code] ? t(ERRORS[m.code]) : m.message; }
function onEvent(m) {
  const d = m.data;
  if (m.kind === "action") {
    if (S.state && S.state.you) S.notice = "";  // a spectator's refusal (a seat not taken) stays
    if (d.seat) requestAnimationFrame(() => animateMove(d.action));
    else if (d.action === "timeout" && S.state) S.timeoutIn = S.state.hand_no;  // called: not offered again this hand
  }
  else if (m.kind === "chat") { if (!d.removed) S.chat.push({ n: m.n, text: `${d.name}: ${d.text}` }); }
  else if (m.kind === "chat_removed") S.chat = S.chat.filter((x) => x.n !== d.n);  // a site administrator's
  else if (m.kind === "hand") { S.log.push({ text: `— ${t("web_hand_n")} ${d.hand_no + 1} —`, sep: true }); S.lastActs = {}; }
  else if (m.kind === "away") S.log.push({ text: `${seatName(d.seat_letter)}: ${d.away ? t("web_away") : t("web_back")}` });
  else if (m.kind === "takeback") say(t("web_took_back", { seat: seatName(d.seat), action: d.action }));
  else if (m.kind === "closed" && d.by === "admin") { say(t("web_closed_admin")); S.log.push({ text: t("web_closed_admin"), sep: true }); }
  if (S.chat.length > 100) S.chat = S.chat.slice(-100);
}

// ----- drawing --------------------------------------------------------------------------------------------------------
const STATUS = { waiting: "web_waiting", playing: "web_playing", finished: "web_finished", abandoned: "web_abandoned" };
export function render() {
  const s = S.state;
  if (!s) return;
  const tb = s.table, v = s.view;
  const title = tableTitle(tb.name, tb.preset), rules = word("preset", tb.preset);  // the screen reader's heading
  $("tname").textContent = title === rules ? title : `${title} · ${rules}`;
  $("tstatus").textContent = t(tb.closed_by === "admin" ? "web_closed_by_admin" : STATUS[tb.status] || "web_playing");
  drawAdminClose();
  const want = new URLSearchParams(location.search).get("take");
  if (want && !s.you && !S.token && S.online) {
    send({ type: "take", seat: want, name: localStorage.getItem("name") || undefined, held: held() });
    history.replaceState(null, "", location.pathname);
  }
  drawGoal();
  drawSeats();
  drawMelds();
  drawCenter();
  drawHand();
  drawButtons();
  drawFair();  // the take-back button and the line of two seats from one address take their room before the fit
  fitMelds();
  drawHandEnd();
  drawScores();
  drawLog();
  drawChat();
  document.body.dataset.n = String(S.lastN);  // for scripts and tests: the last event shown
  document.body.dataset.myturn = myTurn() ? (v.phase === "draw" ? "draw" : "play") : "";
  tick();
}
// commit–reveal, take-backs and two seats from one address (fair.js, docs/fairness.md)
function drawFair() {
  contribute(S.state, send);
  takebackButton(S.state, S.online, send, () => S.lastN);
  sharedNotice(S.state, S.presence, creatorToken(), send);
}
function tick() {
  const s = S.state;
  if (!s) return;
  const since = S.clockBase ? (performance.now() - S.clockBase.at) / 1000 : 0;
  if (s.clock && s.clock.left !== undefined) $("clockbox").textContent = `⏱ ${s.clock.seat} ${Math.max(0, s.clock.left - since).toFixed(0)} s`;
  else $("clockbox").textContent = "";
  const ni = $("nextIn");
  if (ni && s.next_hand_in !== null && s.next_hand_in !== undefined) ni.textContent = t("web_next_in", { n: Math.max(0, Math.ceil(s.next_hand_in - since)) });
  // a last move that has been shown for a while is dimmed (it stays until that seat's next move)
  for (const [seat, a] of Object.entries(S.lastActs)) {
    if (!a.dimmed && performance.now() - a.at > LAST_MOVE_MS) {
      a.dimmed = true;
      const line = document.querySelector(`#felt [data-seat="${seat}"] .last`);
      if (line) line.classList.remove("fresh");
    }
  }
}
