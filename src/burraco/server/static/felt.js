// The felt: the other seats around the table (name, cards, dealer, turn, a match total where it is a player's, the
// seat's last move in a line of its own: it never covers anything), each side's melds in its own area with the side's
// match total, its points on the table and each meld's class and points, and the stock, the pozzetti and the pile in
// the middle. The melds take the room they have before they overlap: the largest cards that fit, overlapping down
// to their corner index only when they must (fitMelds). Another seat's move flies from its seat to where it goes,
// under the seats and the melds' headings.
import { $, el, t, word, levelName, cardEl, backEl, sideOf, wildsOf, reducedMotion } from "./core.js";
import { S, act, send, myTurn, seatName, positions, sides, sideLabel, totalsByPlayer, creatorToken } from "./tablestate.js";
import { addSelected, layoutHand, roomier, roomierBy } from "./hand.js";

// how long another seat's last move stays in full (then dimmed until its next move)
export const LAST_MOVE_MS = 3500;

// ----- the top bar: the match's goal and where it stands -------------------------------------------------------------
export function drawGoal() {
  const s = S.state, tb = s.table;
  $("goalLine").textContent = tb.hands_per_match
    ? t("web_goal_hand_of", { i: s.scoreboard ? (s.hand_no ?? 0) + 1 : 1, n: tb.hands_per_match })
    : t("web_goal_to", { n: tb.target });
}
// a scorer's match total (a side's, or a player's with 3 and 5 players), null before the first hand's end
function total(scorer) {
  const sb = S.state.scoreboard;
  return sb && sb.totals[scorer] !== undefined ? sb.totals[scorer] : null;
}
function totalChip(scorer, label) {
  const n = total(scorer);
  if (n === null) return null;
  return el("span", { class: "total", "data-testid": "total-" + scorer, "data-total": String(n), "aria-label": `${label}: ${n}`,
    title: word("tui_score_row", "match") }, String(n));
}

// ----- the seats ------------------------------------------------------------------------------------------------------
export function seatBox(letter, where) {
  const s = S.state, v = s.view, tb = s.table;
  const x = tb.seats.find((q) => q.seat === letter);
  const on = S.presence ? S.presence.seats[letter] : x.connected;
  const turn = v && v.turn === letter && !v.end;
  const last = S.lastActs[letter];
  const line1 = [
    el("b", { class: "sl", text: letter }), " ",
    el("span", { class: "sname", text: seatName(letter), title: x.kind === "computer" ? levelName(x.level || "heuristic:medium") : null }),
    x.kind === "human" ? el("span", { class: "dot " + (on ? "on" : "off"), role: "img", "aria-label": on ? t("web_connected") : t("web_offline"), text: "●" }) : null,
    s.dealer === letter ? el("span", { class: "dealer", title: t("web_dealer"), "aria-label": t("web_dealer"), text: t("web_dealer").charAt(0).toUpperCase() }) : null,
    totalsByPlayer() ? totalChip(letter, seatName(letter)) : null,
  ];
  const line2 = [
    v ? el("span", { class: "count", text: t("web_cards_n", { n: v.hand_sizes[letter] }) }) : null,
    turn ? el("span", { class: "turnmark", text: t("web_turn") }) : null,
    x.away ? el("i", { text: t("web_away") }) : null,
    x.kind === "left" ? el("i", { text: t("web_left_seat") }) : null,
    v && v.known[letter] && v.known[letter].length ? el("span", { class: "known" },
      ...v.known[letter].map((c) => cardEl(c, { class: "mini" }))) : null,
  ];
  const kids = [el("span", { class: "l1" }, ...line1), el("span", { class: "l2" }, ...line2)];
  if (where !== "bottom")  // the seat's last move, in a line kept for it (bright for a moment, then dimmed)
    kids.push(el("span", { class: "last" + (last && performance.now() - last.at < LAST_MOVE_MS ? " fresh" : ""), "data-testid": "last-" + letter,
      text: last ? last.text : "" }));
  const creator = creatorToken();
  if (creator && (x.kind === "left" || x.kind === "open") && where !== "bottom")
    kids.push(el("button", { class: "give", "data-testid": "give-" + letter, onclick: () => send({ type: "give", token: creator, seat: letter }), text: t("web_give", { seat: letter }) }));
  return el("div", { class: "seat" + (turn ? " turn" : "") + (letter === s.you ? " mine" : ""), "data-seat": letter }, ...kids);
}
export function drawSeats() {
  if (!S.state) return;
  const pos = positions();
  for (const w of ["top", "left", "right"]) {
    const box = $("pos-" + w);
    box.replaceChildren(...pos[w].map((x) => seatBox(x, w)));
    box.hidden = !pos[w].length;
  }
  $("felt").dataset.players = String(S.state.table.players);
  $("meLabel").replaceChildren(seatBox(pos.bottom, "bottom"),
    el("span", { class: "spect", text: S.presence && S.presence.spectators ? `${t("web_spectators")}: ${S.presence.spectators}` : "" }));
}

// ----- the melds ------------------------------------------------------------------------------------------------------
function meldBox(m, i, side, mine) {
  const pts = S.state.points && S.state.points[side] ? S.state.points[side].each[i] : null;
  const cls = m.burraco ? t("web_burraco_mark", { kind: m.burraco }) : t(m.wild ? "web_meld_dirty" : "web_meld_clean");
  const wild = wildsOf(m);
  // named by what it shows, its label first ("1 clean · 40", drawn below the cards), then its cards in words
  return el("div", {
    class: "meld" + (m.burraco ? " burraco " + m.burraco : "") + (m.wild ? " dirty" : " clean"), "data-meld": mine ? i + 1 : null, "data-side": side,
    role: mine ? "button" : null, tabindex: mine ? "0" : null, onclick: mine ? () => addSelected(i + 1) : null,
  }, el("span", { class: "mlab" }, el("b", { text: `${i + 1}` }), " ", el("span", { class: "cls", text: cls }),
    pts !== null ? el("span", { class: "pts", text: ` · ${pts}` }) : null),
  el("span", { class: "mcards" }, ...m.cards.map((c, k) => cardEl(c, wild.has(k) ? { class: "wild" } : null))));
}
// one side's block: its heading (who, the match total where it is the side's, points on the table, the pozzetto
// taken) and its melds
function sideBlock(side, mine, headId) {
  const v = S.state.view, p = S.state.points && S.state.points[side];
  const head = el("h2", { class: "sidelabel", id: headId },
    el("span", { class: "who", text: sideLabel(side) }),
    totalsByPlayer() ? null : totalChip(side, sideLabel(side)),
    p ? el("span", { class: "spoints", "data-testid": mine ? "points-us" : "points-" + side,
      text: p.bonuses ? t("web_points_bonus", { n: p.melds, b: p.bonuses }) : t("web_points", { n: p.melds }) }) : null,
    v && v.pozzetto_taken[side] ? el("span", { class: "ptaken", text: t("web_pozzetto_took") }) : null);
  const melds = v && v.melds[side] ? v.melds[side] : [];
  return el("div", { class: "mside", "data-side": side, "data-testid": "melds-" + side }, head,
    el("div", { class: "mlist" }, ...melds.map((m, i) => meldBox(m, i, side, mine))));
}
// one melds area per side as the sides stand: yours (#ourMelds), the others' (#theirMelds, one block each)
export function drawMelds() {
  const { us, them } = sides();
  $("ourMelds").replaceChildren(el("div", { class: "mwrap" }, sideBlock(us, !!S.state.you, "usLabel")));
  $("ourMelds").dataset.side = us;
  $("theirMelds").replaceChildren(el("div", { class: "mwrap" }, ...them.map((x, k) => sideBlock(x, false, k === 0 ? "themLabel" : null))));
  $("theirMelds").dataset.sides = String(them.length);
}
// the melds' size: the largest of the steps of style.css (data-fit 0, 1: the cards side by side, large then
// smaller; 2: overlapping down to their index; 3, 4: smaller) at which every side's melds fit their area; the areas
// share the felt's height in proportion to what they hold. Then, if the felt still has room, the hand takes it (a
// roomier layout). The areas' heights do not depend on the melds' size, so they are read once; each size tried costs
// one layout, starting from the size of the last render (most renders try one or two).
export const FIT_LEVELS = 5;
let lastFit = 0, lastRoom = 0, lastCards = 0;
export function fitMelds() {
  const felt = $("felt"), areas = [$("theirMelds"), $("ourMelds")];
  // held sideways, the two areas side by side: each as wide as what it holds asks (its cards, its headings)
  const cards = areas.map((a) => a.querySelectorAll(".card").length);
  felt.style.setProperty("--them-w", `${Math.max(10, cards[0] + 4 * areas[0].querySelectorAll(".sidelabel").length)}fr`);
  felt.style.setProperty("--us-w", `${Math.max(10, cards[1] + 4 * areas[1].querySelectorAll(".sidelabel").length)}fr`);
  const pad = areas.map((a) => { const cs = getComputedStyle(a); return parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom); });
  const measured = {}, wide = {};
  // a meld can't wrap: one wider than its list (a long run on a phone, in a narrow column of the others' melds)
  // would be cut at the side with its last indexes, however much height there is
  const lists = [...felt.querySelectorAll(".melds .mlist")];
  const natural = (level) => {
    if (felt.dataset.fit !== String(level)) felt.dataset.fit = String(level);
    wide[level] = lists.some((l) => l.scrollWidth > l.clientWidth + 1);
    return (measured[level] = areas.map((a, i) => (a.firstElementChild ? a.firstElementChild.offsetHeight + pad[i] : 0)));
  };
  let level = Math.min(lastFit, FIT_LEVELS - 1);
  natural(level);  // the one layout most renders need: the areas' room is read with it
  let room = areas.map((a) => a.clientHeight);
  const stacked = areas[0].offsetTop !== areas[1].offsetTop;  // one above the other: they share their height
  const slack = (h) => stacked ? room[0] + room[1] - h[0] - h[1] : Math.min(room[0] - h[0], room[1] - h[1]);
  const fits = (lv) => slack(measured[lv]) >= -1 && !wide[lv];
  const total = cards[0] + cards[1], roomNow = room[0] + room[1];
  if (fits(level)) {
    // larger cards only where there may be room for them now: more room, or fewer cards, than the last time
    if (roomNow > lastRoom + 1 || total < lastCards) while (level > 0 && (natural(level - 1), fits(level - 1))) level--;
  } else {
    while (level < FIT_LEVELS - 1 && (natural(level + 1), !fits(level + 1))) level++;
    if (level < FIT_LEVELS - 1) level++;
  }
  const h = measured[level];
  felt.dataset.fit = String(level);
  felt.style.setProperty("--them-fr", `${Math.max(1, h[0])}fr`);
  felt.style.setProperty("--us-fr", `${Math.max(1, h[1])}fr`);
  [lastFit, lastRoom, lastCards] = [level, roomNow, total];
  // room left over (melds few or none): more rows for the hand, if it makes the hand roomier and still fits;
  // tighter again where the melds want the room
  const want = roomierBy();
  if (want > 0 && slack(h) > want + 24) {
    roomier(true);
    room = areas.map((a) => a.clientHeight);
    if (slack(h) < -1) roomier(false);
  } else if (slack(h) < -1) roomier(false);
}
// the layout again for a new size of the window (the melds' size from the largest again)
export function relayout() { if (!S.state) return; lastRoom = 0; layoutHand(); fitMelds(); }

// ----- the middle: stock, pozzetti, pile ------------------------------------------------------------------------------
export function drawCenter() {
  const v = S.state.view;
  $("stockBox").replaceChildren(v && v.stock ? backEl(t("web_stock_n", { n: v.stock })) : el("span", { class: "card empty" }),
    el("span", { class: "label", text: v ? t("web_stock_n", { n: v.stock }) : t("web_stock") }));
  const pz = v ? v.pozzetti_left : 0;
  $("pozzBox").replaceChildren(el("span", { class: "pstack" }, ...Array.from({ length: pz }, () => backEl(t("web_pozzetto"), { class: "pozzetto" }))),
    el("span", { class: "label", text: t("web_pozzetti_n", { n: pz }) }));
  const pile = v ? v.pile : [];
  const shown = S.pileFanned ? pile : pile.slice(-3);
  const kids = [el("span", { class: "label", text: v ? t("web_pile_n", { n: v.pile_size }) + (v.pile_open ? "" : " · " + t("web_pile_closed")) : t("web_pile") })];
  if (v && !v.pile_open && v.pile_size > 1) kids.push(backEl(t("web_pile_n", { n: v.pile_size - 1 }), { text: "+" + (v.pile_size - 1) }));
  kids.push(el("span", { class: "pcards" + (S.pileFanned ? " fanned" : "") }, ...shown.map((c, i) => cardEl(c, { class: i === shown.length - 1 ? "top" : "" }))));
  if (v && v.pile_open && pile.length > 3)
    kids.push(el("button", { class: "fan-toggle", "data-testid": "fan-pile", "aria-pressed": String(S.pileFanned), onclick: () => { S.pileFanned = !S.pileFanned; drawCenter(); fitMelds(); }, text: t("web_show_pile") }));
  $("pile").replaceChildren(...kids);
}
export function wireCenter() {
  $("pile").onclick = (e) => {
    if (e.target.closest(".fan-toggle")) return;
    if (myTurn() && S.state.view.phase === "draw") act("pick");
    else if (myTurn() && S.selected.size === 1) act("discard " + [...S.selected][0].split("#")[0]);
  };
}

// ----- another seat's move, its card(s) flying from the seat to where they go (none with reduced motion): under the
// seats and the melds' headings (style.css), to the meld it made or added to, or to the pile ------------------------
export function animateMove(action) {
  if (reducedMotion() || !S.state || document.hidden) return;
  const [seat, verb, ...args] = action.split(" ");
  if (!seat || seat === S.state.you) return;
  const from = document.querySelector(`#felt [data-seat="${seat}"]`);
  const side = sideOf(seat, sides().map);
  const area = document.querySelector(`#felt .mside[data-side="${side}"]`);
  const meld = area && (verb === "add" ? area.querySelectorAll(".meld")[Number(args[0]) - 1] : verb === "meld" ? area.querySelector(".meld:last-child") : null);
  const to = verb === "discard" ? $("pile") : verb === "meld" || verb === "add" ? meld || area : verb === "draw" ? from : null;
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
