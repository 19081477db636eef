// The replay of a finished game: step through it, play it at a chosen speed, jump to a hand; every hand face up
// (the game is over), the names of the table, and at the end of each hand its score breakdown as on the table.
import { $, el, t, word, onLang, cardEl, sortCards, seatsOf, startSides } from "./core.js";

let data = null, hand = 0, step = 0, timer = null, names = {}, tableId = "", gameNo = 0;

export async function replayMain(id, g) {
  tableId = id; gameNo = g;
  $("replay").hidden = false;
  data = await (await fetch(`/api/tables/${id}/games/${g}/replay`)).json();
  names = data.players || {};
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
  onLang(show);
  show();
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
function nameOf(seat) { return names[seat] ? `${names[seat]} (${seat})` : seat; }
function show() {
  if (!data) return;
  const players = Object.keys(data.hands[0].steps[0].table.hand_cards).length;
  $("rtitle").textContent = `${t("web_replay_of")} · ${word("preset", typeof data.rules === "string" ? data.rules : (data.rules.name || ""))} · #${gameNo + 1}`;
  $("rHand").replaceChildren(...data.hands.map((h, i) => el("option", { value: i, text: `${t("web_hand_n")} ${i + 1}`, selected: i === hand ? "selected" : null })));
  const h = data.hands[hand], st = h.steps[step], tb = st.table;
  $("rSlider").max = h.steps.length - 1;
  $("rSlider").value = step;
  $("rAction").textContent = `${step}/${h.steps.length - 1} ${st.action || ""}`;
  $("rAction").title = t("web_step", { i: step, n: h.steps.length - 1 });
  const seatRows = seatsOf(players).map((seat) => el("div", { class: "seat rseat" + (tb.turn === seat ? " turn" : ""), "data-seat": seat },
    el("b", { text: nameOf(seat) + " " }), el("span", { class: "rcards" }, ...sortCards(tb.hand_cards[seat] || [], "suit").map((c) => cardEl(c, { class: "mini" })))));
  // the sides as they stand at this step (with 3 and 5 players a pair forms when the first player goes out)
  const sides = tb.sides || startSides(players);
  const sideBoxes = Object.entries(tb.melds).map(([side, ms]) => el("section", { class: "melds rside" },
    el("h2", { class: "sidelabel", text: (sides[side] || [side]).map((x) => names[x] || x).join(" & ") + ` (${side})` }),
    el("div", { class: "mlist" }, ...ms.map((m) => el("div", { class: "meld" + (m.burraco ? " burraco " + m.burraco : "") },
      el("span", { class: "mcards" }, ...m.cards.map((c) => cardEl(c))),
      el("span", { class: "mclass", text: m.burraco ? t("web_burraco_mark", { kind: m.burraco }) : t("web_meld_class", { kind: m.wild ? "dirty" : "clean" }) }))))));
  const kids = [...seatRows,
    el("div", { class: "rcenter" }, `${t("web_stock_n", { n: tb.stock })} · ${t("web_pozzetti_n", { n: tb.pozzetti_left })}`),
    el("div", { class: "pile" }, el("span", { class: "label", text: t("web_pile") }), el("span", { class: "pcards fanned" }, ...tb.pile.map((c) => cardEl(c, { class: "mini" })))),
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
}
