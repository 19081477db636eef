// What the modules of the table share: the last state the server sent and what this page keeps beside it (the
// selection, the moves log, the chat, the hint…), how to send (the socket) and redraw, and who is who at the table
// (where each seat sits, the sides as they stand, how the player calls each one). The server decides, the page asks:
// everything drawn comes from `S.state`.
import { $, el, t, lang, seatsOf, startSides, sideOf, seatTitle, seatLabel as labelOf } from "./core.js";

export const S = {
  state: null, tableId: null, token: null, lastN: 0, presence: null, online: false,
  selected: new Set(), sortBy: localStorage.getItem("sort") || "suit", focusKey: null,
  log: [], chat: [], notice: "", noticeRules: [], hint: null, lastActs: {}, newCards: new Set(), prevHand: null,
  pileFanned: false, clockBase: null, timeoutIn: null,  // timeoutIn: the hand whose time-out this page saw called
};

let sender = () => false, renderer = () => {};
// the table's module sets how a message goes out (its socket) and how the whole table is drawn
export function setSocket(send) { sender = send; }
export function setRenderer(render) { renderer = render; }
export function send(m) { return sender(m); }
export function render() { renderer(); }
// an action of the player's seat in the notation of RECORDS.md §4 ("draw", "meld 7h 8h 9h"…), sent to the server
export function act(what) {
  const s = S.state;
  if (!s || !s.you || !S.online) return;
  send({ type: "act", action: `${s.you} ${what}`, n: S.lastN });
}
// a line for the player under his seat (a refusal, a prompt): it stays until the next move; `rules`: the rules of
// the rule book it names (the server's `rules`)
export function say(text, rules) { S.notice = text; S.noticeRules = rules || []; showLine($("msg"), text, S.noticeRules); }
// a line of text in `box`, and where it names rules of the rule book "Why?": the book in the page's language at the
// first of them (its end stays in view however long the line: style.css)
export function showLine(box, text, rules) {
  box.replaceChildren(el("span", { class: "txt", text }), ...(rules && rules.length ? [" ", el("a", {
    href: `/rules/${lang}#rule-${rules[0]}`, target: "_blank", rel: "noopener", class: "why", "data-testid": "why" }, t("web_why"))] : []));
}

export function myTurn() {
  const s = S.state, v = s && s.view;
  return !!(v && s.you && v.turn === s.you && !v.end && s.table.status === "playing");
}
export function selectedCards() { return [...S.selected].map((k) => k.split("#")[0]); }

// the seat tokens this browser holds for the table (its seat, and those it left and may come back to)
const heldKey = () => "held:" + S.tableId;
export function held() { try { return JSON.parse(localStorage.getItem(heldKey()) || "[]"); } catch (e) { return []; } }
export function keepHeld(tok) { const h = held().filter((x) => x !== tok); h.push(tok); localStorage.setItem(heldKey(), JSON.stringify(h.slice(-8))); }
export function dropHeld(tok) { localStorage.setItem(heldKey(), JSON.stringify(held().filter((x) => x !== tok))); }
export const creatorToken = () => localStorage.getItem("creator:" + S.tableId);

// ----- who is who ---------------------------------------------------------------------------------------------------
// a seat by its name: "Anna", "Computer B", "Player C" (core.seatTitle), the same everywhere on the page
export function seatName(letter) {
  const s = S.state && S.state.table.seats.find((x) => x.seat === letter);
  return s ? seatTitle(letter, s.kind, s.name) : letter;
}
// …with its letter where the name does not hold it: "Anna (A)", "Computer B" (core.seatLabel)
export function seatLabel(letter) {
  const s = S.state && S.state.table.seats.find((x) => x.seat === letter);
  return s ? labelOf(letter, s.kind, s.name) : letter;
}
// where the others sit: in playing order from you, the next on your left, on round the table to your right
// (2 players: opposite; 3: left and right; 4: left, opposite, right; 5 and 6: two on the side(s))
const SLOTS = { 2: ["top"], 3: ["left", "right"], 4: ["left", "top", "right"], 5: ["left", "top", "top", "right"],
  6: ["left", "left", "top", "right", "right"] };
export function positions() {
  const n = S.state.table.players, seats = seatsOf(n);
  const me = S.state.you || seats[0];
  const i = seats.indexOf(me);
  const out = { bottom: me, left: [], top: [], right: [] };
  (SLOTS[n] || SLOTS[4]).forEach((w, k) => out[w].push(seats[(i + k + 1) % n]));
  return out;
}
// a seat's place in playing order counted from you (0: you)
function turnsFrom(seat) {
  const seats = seatsOf(S.state.table.players), n = seats.length;
  return (seats.indexOf(seat) - seats.indexOf(S.state.you || seats[0]) + n) % n;
}
// the sides as they stand: the view's (they change when a pair forms with 3 and 5 players), else the hand's end,
// else those a hand starts with; yours first, the others in playing order from you
export function sides() {
  const s = S.state, v = s.view;
  const map = (v && v.sides) || (s.hand_end && s.hand_end.sides) || startSides(s.table.players);
  const us = sideOf(s.you || seatsOf(s.table.players)[0], map);
  const key = (x) => Math.min(...(map[x] || [x]).map(turnsFrom));
  const them = Object.keys(map).filter((x) => x !== us).sort((a, b) => key(a) - key(b));
  return { us, them, map };
}
// who keeps match totals (the sides; the players with 3 and 5), yours first, the others in playing order
export function scorers(list) {
  const { map } = sides();
  const key = (x) => Math.min(...(map[x] || startSides(S.state.table.players)[x] || [x]).map(turnsFrom));
  return [...list].sort((a, b) => key(a) - key(b));
}
// the match totals are the players' (3 and 5 players), not the sides'
export function totalsByPlayer() {
  const sb = S.state.scoreboard;
  return !!(sb && S.state.table.players !== 2 && Object.keys(sb.totals).every((x) => x.length === 1));
}
// a side as the player calls it: "us"/"them"; a player alone (3, 5 players) by his name; a spectator has no side:
// the side's letters
export function sideWord(side, scorer = false) {
  const { us } = sides(), s = S.state, n = s.table.players;
  if (n !== 2 && side.length === 1 && !(s.you && side === s.you)) return seatName(side);
  if (!s.you) return side;
  if (scorer && n !== 2 && side === s.you) return t("web_you");
  return side === us ? t("web_us") : t("web_them");
}
// "us (NS)", "Anna (B)"; a spectator: the side's letters (a player alone: his name too)
export function sideLabel(side, scorer = false) {
  const s = S.state, solo = s.table.players !== 2 && side.length === 1;
  if (solo && !(s.you && side === s.you)) return seatLabel(side);
  return s.you || solo ? `${sideWord(side, scorer)} (${side})` : side;
}
