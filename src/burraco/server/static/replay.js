// The replay of a finished game: step through it, play it at a chosen speed, jump to a hand; every hand face up
// (the game is over), the names of the table, and at the end of each hand its score breakdown as on the table.
// The moves of the hand in a list; "Analyse my play" asks the coach about the seat this browser held (its token):
// a progress bar while it runs, then its marks in the list, its word and the better move's cards on a marked move,
// and each hand's summary (docs/protocol.md "The coach").
import { $, el, t, word, lang, onLang, cardEl, cardFace, sortCards, seatsOf, startSides, seatLabel, tableTitle, deckOption, showOffline, wildsOf } from "./core.js";
import { replayCheck } from "./fair.js";

let data = null, hand = 0, step = 0, timer = null, info = null, tableId = "", gameNo = 0;
let coach = null, marks = {}, asking = false, summaryOpen = false;  // the coach's answer; its decisions by "hand:index"

export async function replayMain(id, g) {
  tableId = id; gameNo = g;
  $("replay").hidden = false;
  $("rAsk").hidden = !myToken();
  $("rAsk").onclick = () => askCoach();
  deckOption($("rDeckOpt"));
  try {
    [data, info] = await Promise.all([fetch(`/api/tables/${id}/games/${g}/replay`).then((r) => r.json()),
      fetch(`/api/tables/${id}`).then((r) => r.json())]);
  } catch (e) { showOffline(true); return; }
  $("rDownload").href = `/api/tables/${id}/games/${g}/record`;
  $("rDownload").setAttribute("download", `burraco-${id}-${g}.json`);
  $("rPrev").onclick = () => { stop(); go(step - 1); };
  $("rNext").onclick = () => { stop(); go(step + 1); };
  $("rPlay").onclick = () => (timer ? stop() : play());
  $("rSpeed").onchange = () => { if (timer) { stop(); play(); } };
  $("rSlider").oninput = (e) => { stop(); go(Number(e.target.value)); };
  $("rHand").onchange = (e) => { stop(); hand = Number(e.target.value); step = 0; show(); };
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, select")) return;
    if (e.key === "ArrowLeft") { stop(); go(step - 1); } else if (e.key === "ArrowRight") { stop(); go(step + 1); }
  });
  onLang(() => { if (coach) askCoach(true); show(); replayCheck(data); });
  show();
  replayCheck(data);  // every deal against its commitment, computed here (docs/fairness.md)
  if (myToken() && new URLSearchParams(location.search).get("coach")) askCoach();
}
// the seat token this browser keeps for the table: its seat now, else the last one it left (docs/protocol.md)
function myToken() {
  const tok = localStorage.getItem("tok:" + tableId);
  if (tok) return tok;
  try { return JSON.parse(localStorage.getItem("held:" + tableId) || "[]").slice(-1)[0] || null; } catch (e) { return null; }
}
// ----- the coach: POST …/analysis with the seat's token; the answer is JSON lines (progress, then the analysis) -----
async function askCoach(quiet) {
  const tok = myToken();
  if (!tok || asking) return;
  asking = true;
  $("rAsk").disabled = true;
  if (!quiet) { coachSays(""); progress(0, null); }
  try {
    const r = await fetch(`/api/tables/${tableId}/games/${gameNo}/analysis?lang=${lang}`,
      { method: "POST", headers: { Authorization: "Bearer " + tok } });
    if (!r.ok) {
      const e = await r.json().catch(() => ({}));
      coachSays(e.message || String(r.status));
      return;
    }
    const reader = r.body.getReader(), dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let k;
      while ((k = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, k).trim();
        buf = buf.slice(k + 1);
        if (line) onCoach(JSON.parse(line));
      }
    }
  } catch (e) {
    coachSays(t("web_offline"));
  } finally {
    asking = false;
    $("rAsk").disabled = false;
    $("rBar").hidden = true;
  }
  if (coach && coach.lang !== lang) askCoach(true);  // the language changed meanwhile: its words again (at once)
}
function onCoach(m) {
  if (m.type === "progress") progress(m.done, m.total);
  else if (m.type === "error") coachSays(m.message);
  else if (m.type === "analysis") {
    coach = m;
    marks = {};
    for (const d of m.analysis.decisions) if (d.mark) marks[`${d.hand}:${d.index}`] = d;
    for (const n of m.notes) if (marks[`${n.hand}:${n.index}`]) marks[`${n.hand}:${n.index}`].note = n.text;
    $("rAsk").hidden = true;
    coachSays("");
    show();
  }
}
function progress(done, total) {
  const bar = $("rBar");
  bar.hidden = false;
  if (total) { bar.max = total; bar.value = done; } else bar.removeAttribute("value");
  const text = t("web_coach_running", { i: done, n: total || "…" });
  bar.setAttribute("aria-label", text);
  $("rCoachMsg").textContent = text;
}
function coachSays(text) { $("rCoachMsg").textContent = text; }
// an action's cards as a player reads them (K♣, the joker by its name)
function cardsText(cards) { return cards.map((c) => (c === "JK" ? word("joker", "JK") : cardFace(c))).join(" "); }
// the cards an action moves: "S add 2 Ac Ad" -> Ac Ad
function actionCards(action) {
  const p = action.split(" ");
  return p.slice(p[1] === "add" || p[1] === "swap" ? 3 : 2);
}
// a move in words, as the coach says it ("discard K♣", "add A♣ to meld 2"); the record's notation otherwise
function moveText(action) {
  const [seat, verb, ...rest] = action.split(" ");
  const code = "coach_" + verb;
  const text = t(code, { cards: cardsText(actionCards(action)), k: rest[0] });
  return `${seat || "—"}: ${text === code ? action : text}`;
}
function steps() { return data.hands[hand].steps; }
function go(i) {
  if (i >= steps().length && hand < data.hands.length - 1) { hand++; step = 0; }
  else step = Math.max(0, Math.min(steps().length - 1, i));
  show();
}
function play() {
  timer = setInterval(() => {
    if (step >= steps().length - 1 && hand >= data.hands.length - 1) { stop(); return; }
    go(step + 1);
  }, Number($("rSpeed").value));
  $("rPlay").textContent = t("web_pause");
  $("rPlay").setAttribute("aria-pressed", "true");
}
function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  $("rPlay").textContent = t("web_autoplay");
  $("rPlay").setAttribute("aria-pressed", "false");
}
// a seat by the name the table gave it ("Anna (A)", "Computer B": core.seatLabel), the kinds from the table's seats
function nameOf(seat) {
  const x = (info && info.seats || []).find((q) => q.seat === seat);
  const name = (data.players || {})[seat];
  return x || name ? seatLabel(seat, x ? x.kind : "human", name) : seat;
}
function show() {
  if (!data) return;
  const players = Object.keys(data.hands[0].steps[0].table.hand_cards).length;
  const preset = info ? info.preset : typeof data.rules === "string" ? data.rules : data.rules.name || "";
  $("rtitle").textContent = `${t("web_replay_of")} · ${info ? tableTitle(info.name, preset) : word("preset", preset)} · ${t("web_game_n", { n: gameNo + 1 })}`;
  $("rHand").replaceChildren(...data.hands.map((h, i) => el("option", { value: i, text: `${t("web_hand_n")} ${i + 1}`, selected: i === hand ? "selected" : null })));
  const h = data.hands[hand], st = h.steps[step], tb = st.table;
  $("rSlider").max = h.steps.length - 1;
  $("rSlider").value = step;
  $("rAction").textContent = `${step}/${h.steps.length - 1} ${st.action || ""}`;
  $("rAction").title = t("web_step", { i: step, n: h.steps.length - 1 });
  // on a move the coach marked: its word, and the better move's cards highlighted where they are on the table
  const d = step > 0 ? marks[`${hand}:${step - 1}`] : null;
  const best = d ? d.best.split(" ") : [];
  const bestLeft = {};
  if (d) for (const c of actionCards(d.best)) bestLeft[c] = (bestLeft[c] || 0) + 1;
  const seatRows = seatsOf(players).map((seat) => el("div", { class: "seat rseat" + (tb.turn === seat ? " turn" : ""), "data-seat": seat },
    el("b", { text: nameOf(seat) + " " }), el("span", { class: "rcards" }, ...sortCards(tb.hand_cards[seat] || [], "suit").map((c) => {
      const hit = d && seat === d.seat && bestLeft[c] > 0;
      if (hit) bestLeft[c]--;
      return cardEl(c, { class: "mini" + (hit ? " coach-best" : "") });
    }))));
  // the sides as they stand at this step (with 3 and 5 players a pair forms when the first player goes out)
  const sides = tb.sides || startSides(players);
  const sideBoxes = Object.entries(tb.melds).map(([side, ms]) => el("section", { class: "melds rside" },
    el("h2", { class: "sidelabel", text: (sides[side] || [side]).length === 1 ? nameOf(side) : `${(sides[side] || [side]).map(nameOf).join(" & ")}` }),
    el("div", { class: "mlist" }, ...ms.map((m) => {
      const wild = wildsOf(m);
      return el("div", { class: "meld" + (m.burraco ? " burraco " + m.burraco : "") + (m.wild ? " dirty" : " clean") },
        el("span", { class: "mlab", text: m.burraco ? t("web_burraco_mark", { kind: m.burraco }) : t(m.wild ? "web_meld_dirty" : "web_meld_clean") }),
        el("span", { class: "mcards" }, ...m.cards.map((c, k) => cardEl(c, wild.has(k) ? { class: "wild" } : null))));
    }))));
  // a better move's card the move played has just discarded: on the pile now
  const pileHit = tb.pile.map((c, i) => i === tb.pile.length - 1 && bestLeft[c] > 0);
  const kids = [...seatRows,
    el("div", { class: "rcenter" + (best[1] === "draw" ? " coach-best" : "") }, `${t("web_stock_n", { n: tb.stock })} · ${t("web_pozzetti_n", { n: tb.pozzetti_left })}`),
    el("div", { class: "pile" + (best[1] === "pick" ? " coach-best" : "") }, el("span", { class: "label", text: t("web_pile") }), el("span", { class: "pcards fanned" }, ...tb.pile.map((c, i) => cardEl(c, { class: "mini" + (pileHit[i] ? " coach-best" : "") })))),
    ...sideBoxes];
  if (step === h.steps.length - 1 && h.scores) {
    const cols = Object.keys(h.scores);
    const rows = ["melds", "bonuses", "closing", "hand", "pozzetto", "total"];
    kids.push(el("table", { class: "breakdown", "data-testid": "r-scores" },
      el("caption", { text: t("web_hand_end_title", { i: hand + 1, end: h.end || "closed" }) }),
      el("tr", {}, el("th", {}), ...cols.map((x) => el("th", { scope: "col", text: x }))),
      ...rows.map((r) => el("tr", { class: r === "total" ? "total" : "" }, el("th", { scope: "row", text: word("tui_score_row", r) }),
        ...cols.map((x) => el("td", { text: String(h.scores[x][r]) }))))));
    if (h.points && Object.keys(h.points).some((x) => !h.scores[x]))  // 3, 5 players: what each player scores
      kids.push(el("table", { class: "breakdown", "data-testid": "r-points" },
        el("tr", {}, el("th", {}), ...Object.keys(h.points).map((x) => el("th", { scope: "col", text: nameOf(x) }))),
        el("tr", { class: "total" }, el("th", { scope: "row", text: t("web_this_hand") }), ...Object.values(h.points).map((p) => el("td", { text: String(p) })))));
  }
  $("rBoard").replaceChildren(...kids);
  $("rNote").replaceChildren(...(d ? [el("span", { class: "mark " + d.mark, text: word("coach_mark", d.mark) }), " ",
    el("span", { "data-testid": "r-note-text", text: d.note || "" }), " ",
    el("span", { class: "rcards" }, ...actionCards(d.best).map((c) => cardEl(c, { class: "mini coach-best" })))] : []));
  $("rNote").hidden = !d;
  // the hand's summary: the coach's title and the points lost by kind; its marked moves (also in the list) folded
  const summary = coach ? coach.hands.find((x) => x.hand === hand) : null;
  const lines = summary ? summary.lines : [];
  const count = {};
  for (const m of Object.values(marks)) if (m.hand === hand) count[m.mark] = (count[m.mark] || 0) + 1;
  const middle = lines.slice(1, -1).map((x) => el("p", { text: x }));  // the marked moves, or "well played"
  const kinds = ["blunder", "mistake", "inaccuracy"].filter((k) => count[k]);
  $("rSummary").replaceChildren(...(summary ? [el("h2", { text: lines[0] }), el("p", { text: lines[lines.length - 1] }),
    ...(kinds.length ? [el("details", { open: summaryOpen ? "open" : null, ontoggle: (e) => { summaryOpen = e.target.open; } }, el("summary", { text: kinds.map((k) => `${word("coach_mark", k)}: ${count[k]}`).join(" · ") }), ...middle)] : middle)] : []));
  drawMoves(h);
}
// the moves of the hand; those the coach marked carry their mark; a click goes there
function drawMoves(h) {
  const box = $("rMoves");
  box.replaceChildren(...h.steps.slice(1).map((st, i) => {
    const m = marks[`${hand}:${i}`];
    return el("li", {}, el("button", {
      class: "mv" + (m ? " marked " + m.mark : ""), "data-index": i, "aria-current": i === step - 1 ? "step" : null,
      onclick: () => { stop(); go(i + 1); },
    }, `${i + 1}. ${moveText(st.action)}`, m ? el("span", { class: "mark " + m.mark, text: word("coach_mark", m.mark) }) : null));
  }));
  const cur = box.querySelector("[aria-current]");  // kept in view inside the list (the page does not move)
  if (cur && (cur.offsetTop < box.scrollTop || cur.offsetTop + cur.offsetHeight > box.scrollTop + box.clientHeight))
    box.scrollTop = cur.offsetTop - box.clientHeight / 2;
}
