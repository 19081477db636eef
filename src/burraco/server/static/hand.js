// The player's hand at the bottom: sorted by suit or by rank, laid out in as many rows as it takes for every card to
// show its corner index and a tap target of 24 px and more (WCAG 2.2 target size) at any width, up to the 30-odd
// cards of a long hand. Tap or click selects; the selected cards are melded, discarded, or added to a meld of the
// player's side (the buttons, a tap on the meld, or a drag: the mouse's drag and drop, a finger's pointer drag);
// the keyboard moves along the hand and selects.
import { $, el, t, cardEl, backEl, cardName, cardFace, sortCards } from "./core.js";
import { S, act, say, myTurn, render, selectedCards } from "./tablestate.js";

// the least a card of the hand shows of itself beside the next one (its index, a target of 24 px and more); and
// what it shows when the table has room to spare for the hand (more rows, less overlap)
const MIN_STEP = 26, ROOMY_STEP = 36, MAX_ROWS = 4;

export function meldSelected() { if (!S.selected.size) return say(t("web_select_cards")); act("meld " + selectedCards().join(" ")); }
export function discardSelected() { if (S.selected.size !== 1) return say(t("web_select_one")); act("discard " + selectedCards()[0]); }
export function addSelected(k) { if (S.selected.size) act(`add ${k} ${selectedCards().join(" ")}`); }

export function drawHand() {
  const v = S.state.view;
  const hand = v ? sortCards(v.hand, S.sortBy) : [];
  const seen = {}, hintLeft = {}, fresh = {};
  for (const c of (S.hint && myTurn() ? S.hint.cards : [])) hintLeft[c] = (hintLeft[c] || 0) + 1;
  for (const c of S.newCards) fresh[c] = (fresh[c] || 0) + 1;
  if (v && v.drawn) fresh[v.drawn] = Math.max(fresh[v.drawn] || 0, 1);
  const cards = hand.map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    const key = c + "#" + seen[c];
    let cls = S.selected.has(key) ? "selected" : "";
    if (hintLeft[c]) { hintLeft[c]--; cls += " hinted"; }
    if (fresh[c]) { fresh[c]--; cls += " new"; }
    return cardEl(c, {
      // a button's name holds its visible text (7♥), then the card in words
      class: cls.trim(), "data-key": key, role: "button", "aria-label": `${cardFace(c)}, ${cardName(c)}`,
      tabindex: key === S.focusKey || (!S.focusKey && seen[c] === 1 && c === hand[0]) ? "0" : "-1",
      "aria-pressed": String(S.selected.has(key)), draggable: "true",
      ondragstart: (e) => { e.dataTransfer.setData("text/plain", key); },
      onpointerdown: (e) => cardPointerDown(e, key),
      onclick: () => { if (!swallowClick) toggle(key); },
    });
  });
  if (v && v.hidden_pozzetto) cards.push(backEl(t("web_hidden"), { text: "×" + v.hidden_pozzetto }));
  layoutHand(cards);  // as roomy as the last time: fitMelds (felt.js) makes it tighter or roomier
}

// the hand's width and its cards' size (style.css's --cw and --ch): read once, and again when the hand's box changes
// width (watchHand), so that a render lays the hand out without asking the page for a layout
let metrics = null;
function handMetrics() {
  if (!metrics) {
    const box = $("hand"), cs = getComputedStyle(box);
    metrics = { room: box.clientWidth - 8, cw: parseFloat(cs.getPropertyValue("--cw")) || 44, ch: parseFloat(cs.getPropertyValue("--ch")) || 62 };
  }
  return metrics;
}
// call `changed` when the hand's box changes width or its cards their size (a turned phone, a new window size)
export function watchHand(changed) {
  new ResizeObserver(() => {
    const before = metrics;
    metrics = null;
    const now = handMetrics();
    if (before && (before.room !== now.room || before.cw !== now.cw)) changed();
  }).observe($("hand"));
}
// how many rows (up to MAX_ROWS) it takes for n cards to show `step` px each beside the next one, and the step then
function rowsFor(n, step) {
  const { room, cw } = handMetrics();
  const stepOf = (rows) => { const per = Math.ceil(n / rows); return per <= 1 ? cw : Math.min(cw + 4, (room - cw) / (per - 1)); };
  let rows = 1;
  while (rows < MAX_ROWS && rows < n && stepOf(rows) < step) rows++;
  return { rows, step: stepOf(rows) };
}
// the hand in rows: the fewest rows in which each card shows at least `step` px beside the next one; the rows as
// even as can be, overlapping as little as the width allows, each showing the top of its cards (their index) above
// the next row. With no cards: those drawn, laid out again (a new width). The focused card keeps the focus.
let lastStep = MIN_STEP;
export function layoutHand(cards, step) {
  const box = $("hand");
  const focused = box.contains(document.activeElement) && document.activeElement.dataset.key;
  cards = cards || [...box.querySelectorAll(".card")];
  step = step || lastStep;
  lastStep = step;
  const n = cards.length;
  if (!n) { box.replaceChildren(); return; }
  const fit = rowsFor(n, step);
  box.style.setProperty("--overlap", `${(fit.step - handMetrics().cw).toFixed(1)}px`);  // 4 px apart where they all fit
  box.dataset.rows = String(fit.rows);
  const out = [];  // the longer rows first
  for (let r = 0, at = 0; r < fit.rows; r++) {
    const len = Math.floor(n / fit.rows) + (r < n % fit.rows ? 1 : 0);
    out.push(el("div", { class: "hrow" }, ...cards.slice(at, at + len)));
    at += len;
  }
  box.replaceChildren(...out);
  const f = focused && box.querySelector(`[data-key="${focused}"]`);
  if (f) f.focus({ preventScroll: true });
}
// how many more pixels the hand would take to show its cards roomier (in more rows); 0 when it would not
export function roomierBy() {
  const n = $("hand").querySelectorAll(".card").length;
  if (!n || lastStep >= ROOMY_STEP) return 0;
  const more = rowsFor(n, ROOMY_STEP).rows - rowsFor(n, lastStep).rows;
  return more * handMetrics().ch * 0.58;  // a row shows the top 58 % of its cards above the next (style.css)
}
export function roomier(on) { if ((lastStep >= ROOMY_STEP) !== on) layoutHand(null, on ? ROOMY_STEP : MIN_STEP); }

export function toggle(key) {
  S.selected.has(key) ? S.selected.delete(key) : S.selected.add(key);
  S.focusKey = key;
  render();
  const f = document.querySelector(`#hand .card[data-key="${key}"]`);
  if (f) f.focus();
}

// ----- keys: d p m x, 1-9 (add to that meld), arrows and space ------------------------------------------------------
export function onKey(e) {
  if (e.target.closest && e.target.closest("input, select, textarea, dialog")) return;
  if (e.ctrlKey || e.metaKey || e.altKey || !S.state || !S.state.you) return;
  const keys = [...document.querySelectorAll("#hand .card[data-key]")].map((x) => x.dataset.key);
  const k = e.key;
  if (k === "d") act("draw");
  else if (k === "p") act("pick");
  else if (k === "m") meldSelected();
  else if (k === "x") discardSelected();
  else if (/^[1-9]$/.test(k)) addSelected(k);
  else if (k === "ArrowLeft" || k === "ArrowRight") {
    if (!keys.length) return;
    const i = keys.indexOf(S.focusKey);
    S.focusKey = keys[i < 0 ? 0 : Math.max(0, Math.min(keys.length - 1, i + (k === "ArrowLeft" ? -1 : 1)))];
    render();
    const f = document.querySelector(`#hand .card[data-key="${S.focusKey}"]`);
    if (f) f.focus();
  } else if (k === " " || k === "Enter") {
    const card = e.target.closest && e.target.closest("#hand .card[data-key]");
    if (card) toggle(card.dataset.key);
    else if (S.focusKey && keys.includes(S.focusKey) && !(e.target.closest && e.target.closest("button, a"))) toggle(S.focusKey);
    else return;
  } else return;
  e.preventDefault();
}

// ----- drag and drop: the dragged card, with the selected ones when it is one of them -----------------------------
export function cardsFor(key) {
  const keys = S.selected.has(key) ? [...S.selected] : [key];
  return keys.filter((k) => k).map((k) => k.split("#")[0]);
}
export function dropTarget(node) {
  return node && node.closest && (node.closest("#ourMelds .meld[data-meld]") || node.closest("#ourMelds") || node.closest("#pile"));
}
// cards dropped on an element: a meld of our side (add), beside our melds (a new meld), the pile (discard)
export function dropOn(target, cards) {
  if (!target || !cards.length) return;
  const meld = target.closest("#ourMelds .meld[data-meld]");
  if (meld) act(`add ${meld.dataset.meld} ${cards.join(" ")}`);
  else if (target.closest("#ourMelds")) act("meld " + cards.join(" "));
  else if (target.closest("#pile")) { if (cards.length === 1) act("discard " + cards[0]); else say(t("web_select_one")); }
}
export function markDrop(node) {
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
  S.notice = "";
  if (drop) dropOn(dropTarget(document.elementFromPoint(e.clientX, e.clientY)), cardsFor(d.key));
}
// the listeners of the hand's keys and drags (once, when the table starts)
export function wireHand() {
  for (const box of [$("pile"), $("ourMelds")]) {
    box.addEventListener("dragover", (e) => { e.preventDefault(); markDrop(dropTarget(e.target)); });
    box.addEventListener("dragleave", () => markDrop(null));
    box.addEventListener("drop", (e) => { e.preventDefault(); markDrop(null); dropOn(e.target, cardsFor(e.dataTransfer.getData("text/plain"))); });
  }
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointermove", onPointerMove, { passive: false });
  document.addEventListener("pointerup", (e) => endTouchDrag(e, true));
  document.addEventListener("pointercancel", (e) => endTouchDrag(e, false));
}
