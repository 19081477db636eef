// The panels around the felt: the side panel (moves log, scoreboard and finished games, chat, the deck's colours,
// leave) beside the table on a desktop and a drawer on a phone (it closes with ☰, its ✕, Escape, a tap outside it
// and the phone's back gesture, and never covers its ☰), the invitation links, and the end-of-hand panel (the
// breakdown per side, the cards left, the match totals, then the next hand or the match's winner).
import { $, el, t, word, cardEl, deckOption } from "./core.js";
import { S, send, seatName, seatLabel, sides, scorers, sideLabel, sideWord, held } from "./tablestate.js";

// ----- the drawer -----------------------------------------------------------------------------------------------------
const drawerMode = () => getComputedStyle($("bMore")).display !== "none";
export function sideOpen() { return document.body.classList.contains("side-open"); }
let goingBack = false;  // closeSide's history.back() is under way: its popstate is the page's own
export function openSide() {
  if (sideOpen()) return;
  document.body.classList.add("side-open");
  $("bMore").setAttribute("aria-expanded", "true");
  $("scrim").hidden = !drawerMode();
  // the phone's back gesture closes the drawer, not the table: an entry of its own in the history
  if (drawerMode() && !goingBack && !(history.state && history.state.side)) history.pushState({ side: true }, "");
  if (drawerMode()) $("bClose").focus();
}
export function closeSide(fromHistory = false) {
  if (!sideOpen()) return;
  document.body.classList.remove("side-open");
  $("bMore").setAttribute("aria-expanded", "false");
  $("scrim").hidden = true;
  if (!fromHistory && !goingBack && history.state && history.state.side) { goingBack = true; history.back(); }
  if (drawerMode()) $("bMore").focus();
}
export function wirePanels() {
  $("bMore").hidden = false;  // shown by style.css where the side panel is a drawer
  $("bMore").onclick = () => (sideOpen() ? closeSide() : openSide());
  $("bClose").onclick = () => closeSide();
  $("scrim").addEventListener("click", () => closeSide());
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && sideOpen() && drawerMode()) { e.preventDefault(); closeSide(); } });
  window.addEventListener("popstate", () => {
    if (!goingBack) return closeSide(true);
    goingBack = false;
    if (sideOpen() && drawerMode()) history.pushState({ side: true }, "");
  });
  deckOption($("deckOpt"));
  $("chatform").addEventListener("submit", (e) => {
    e.preventDefault();
    const v = $("chatin").value.trim();
    if (v && send({ type: "chat", text: v })) $("chatin").value = "";  // offline: what was typed stays
  });
}

// ----- the moves log, the chat, the scoreboard --------------------------------------------------------------------------
// a list kept scrolled to its end: drawn again only when it changed, scrolled at the next frame (when the page is
// laid out anyway: no layout of its own in the middle of a render)
const shown = new Map();
function drawList(id, items, line) {
  const last = items[items.length - 1];
  if (shown.get(id) && shown.get(id)[0] === items.length && shown.get(id)[1] === last) return;
  shown.set(id, [items.length, last]);
  $(id).replaceChildren(...items.map(line));
  requestAnimationFrame(() => { $(id).scrollTop = 1e9; });
}
export function drawLog() { drawList("log", S.log.slice(-60), (x) => el("div", { class: x.sep ? "sep" : "", text: x.text })); }
// a site administrator (docs/accounts.md) gets his tools from admin.js, which only his page loads: a button beside
// each chat line that removes it, one that closes the table (his account and its token from GET /api/session)
let admin = null;
export async function askAdmin() {
  try {
    const a = (await (await fetch("/api/session")).json()).account;
    admin = a && a.admin && a.csrf ? (await import("./admin.js")).tools(a) : null;
  } catch (e) { admin = null; }
  if (admin) { shown.delete("chatlog"); drawChat(); drawAdminClose(); }
}
export function drawAdminClose() { if (admin) admin.drawClose(); }
const chatLine = (x) => (admin ? admin.chatLine(x) : el("div", { text: x.text }));
export function drawChat() { drawList("chatlog", S.chat, chatLine); }
let gamesShown = -1;
export function drawScores() {
  const sb = S.state.scoreboard;
  if (!sb) { $("scoreboard").replaceChildren(); return; }
  const order = scorers(sb.scorers || Object.keys(sb.totals));
  $("scoreboard").replaceChildren(el("table", { class: "breakdown" },
    el("tr", {}, el("th", { text: "#" }), ...order.map((x) => el("th", { scope: "col", text: order.length > 2 ? x : sideWord(x, true), title: sideWord(x, true) }))),
    ...sb.hands.map((h) => el("tr", {}, el("td", { text: String(h.hand_no + 1) }), ...order.map((x) => el("td", { text: String(h.scores[x]) })))),
    el("tr", { class: "total" }, el("td", { text: t("web_total") }), ...order.map((x) => el("td", { text: String(sb.totals[x]) })))));
  if (S.state.table.games && S.state.table.games !== gamesShown) {
    gamesShown = S.state.table.games;
    fetch(`/api/tables/${S.tableId}/games`).then((r) => r.json()).then((g) => {
      $("games").replaceChildren(el("h3", { text: t("web_games") }), ...g.games.map((x) => el("div", {},
        `#${x.game_no + 1} ${order.map((sd) => x.totals[sd]).join("–")} `,
        el("a", { href: `/t/${S.tableId}/replay/${x.game_no}`, text: t("web_replay") }), " · ",
        el("a", { href: `/api/tables/${S.tableId}/games/${x.game_no}/record`, download: `burraco-${S.tableId}-${x.game_no}.json`, text: t("web_record") }))));
    }).catch(() => { /* offline: the list comes with the next state */ });
  }
}

// ----- invitations ------------------------------------------------------------------------------------------------------
export function showInvites() {
  const inv = sessionStorage.getItem("invites:" + S.tableId);
  if (!inv) return;
  const links = JSON.parse(inv);
  if (!Object.keys(links).length) return;
  $("invites").hidden = false;
  $("invites").replaceChildren(el("p", { text: t("web_invite") }), ...Object.entries(links).map(([s, l]) =>
    el("div", {}, el("b", { text: s + " " }), el("input", { readonly: "readonly", value: location.origin + l, "data-testid": "invite-" + s, "aria-label": t("web_seat_of", { seat: s }) }))));
}
export function showGiven(m) {
  $("invites").hidden = false;
  $("invites").append(el("p", { text: t("web_given", { seat: m.seat }) }),
    el("input", { readonly: "readonly", value: location.origin + m.link, "data-testid": "given-" + m.seat, "aria-label": t("web_seat_of", { seat: m.seat }) }));
  openSide();
}

// ----- the end of a hand ------------------------------------------------------------------------------------------------
// who won the match, in words that agree with who it is ("We win", "You win", "Anna wins", "Them (EW) win")
function winnerText(sb) {
  const s = S.state, you = s.you;
  if (!sb.winner) {  // those level at the top (with 3 and 5 players a pair's two halves are equal)
    const top = Math.max(...Object.values(sb.totals));
    return t("web_match_level", { who: scorers(Object.keys(sb.totals)).filter((x) => sb.totals[x] === top).map((x) => sideLabel(x, true)).join(", ") });
  }
  const one = s.table.players !== 2 && sb.winner.length === 1;  // a player alone (3, 5 players)
  if (you && (one ? sb.winner === you : sb.winner === sides().us)) return t(one ? "web_you_win" : "web_we_win");
  return one ? t("web_wins_one", { who: sideLabel(sb.winner, true) }) : t("web_wins", { side: sideLabel(sb.winner) });
}
export function drawHandEnd() {
  const s = S.state, he = s.hand_end, box = $("handEnd");
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
    el("div", { class: "lefthand" }, el("b", { text: `${seatLabel(seat)}: ` }), ...cs.map((c) => cardEl(c, { class: "mini" })))));
  const kids = [el("h2", { id: "handEndTitle", text: t("web_hand_end_title", { i: he.hand_no + 1, end: he.end }) +
    (he.closed_by ? " · " + t("web_closed_by_who", { who: seatName(he.closed_by) }) : "") }),
  el("div", { class: "scroll-x" }, table), perPlayer ? el("div", { class: "scroll-x" }, perPlayer) : null, left].filter(Boolean);
  const sb = s.scoreboard;
  if (s.table.status === "finished" && sb) {
    kids.push(el("p", { class: "winner", "data-testid": "winner", text: winnerText(sb) +
      (sb.vp ? ` · VP ${scorers(Object.keys(sb.vp)).map((x) => sb.vp[x]).join("–")}` : "") }));
    // the director's time-out ended the match with this hand (RULES.md §0.1): no further hand is dealt
    if (sb.timed_out) kids.push(el("p", { "data-testid": "timeout-ended", text: t("web_timeout_ended", { n: sb.hands.length }) }));
    kids.push(el("p", {}, el("a", { href: `/t/${S.tableId}/replay/${s.game_no}`, "data-testid": "replay-link", text: t("web_watch_replay") }),
      // the coach on this browser's seat (its token, or the one it left): the replay asks for it at once
      S.token || held().length ? el("a", { href: `/t/${S.tableId}/replay/${s.game_no}?coach=1`, class: "coachlink", "data-testid": "coach-link", text: t("web_coach_ask") }) : null));
    if (s.you && !s.table.event) kids.push(el("button", { "data-testid": "rematch", onclick: () => send({ type: "rematch" }), text: t("web_rematch") }));
  } else if (s.table.status === "playing") {
    kids.push(el("p", { class: "next", "data-testid": "next-in", id: "nextIn" }));
    if (s.you) kids.push(el("button", { class: "primary", "data-testid": "next", disabled: s.ready.includes(s.you) ? "disabled" : null, onclick: () => send({ type: "next" }), text: t("web_ready") }));
    if (s.ready.length) kids.push(el("p", { text: t("web_ready_list", { who: s.ready.map(seatName) }) }));
  }
  box.replaceChildren(...kids);
}
