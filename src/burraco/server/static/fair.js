// Fair play in the browser (docs/fairness.md): the contribution a seated browser sends to every deal, the replay's
// check of every deal against its commitment (fairdeal.js, the procedure burraco-deal/1, loaded by the replay only),
// the take-back button, and the notice of two seats played from one address.
import { $, el, t, renderMsg, lang } from "./core.js";

// ----- at the table -------------------------------------------------------------------------------------------------
// A fresh random contribution (32 bytes) to the deal the table has committed to, once per commitment.
const sent = new Set();
export function contribute(state, send) {
  const f = state && state.fair;
  if (!f || f.dealt || !f.contribute || !state.you || f.contributions[state.you] || sent.has(f.commitment)) return;
  const value = Array.from(crypto.getRandomValues(new Uint8Array(32)), (x) => x.toString(16).padStart(2, "0")).join("");
  if (send({ type: "contribute", commitment: f.commitment, value })) sent.add(f.commitment);
}
// The take-back button, beside the table's other buttons: shown to the seat that may take back its last play now.
export function takebackButton(state, online, send, lastN) {
  const box = $("buttons");
  if (!box) return;
  let b = $("bTakeBack");
  if (!b) {
    b = el("button", { id: "bTakeBack", "data-testid": "takeback", type: "button" });
    b.onclick = () => send({ type: "takeback", n: lastN() });
    box.insertBefore(b, $("bSort") || null);
  }
  b.textContent = t("web_takeback");
  b.hidden = !(state.you && state.takeback === state.you);
  b.disabled = !online;
}
// "Two seats from one address: N and S", to the whole table; the creator may give one of them to a computer.
export function sharedNotice(state, presence, creator, send) {
  const groups = (presence && presence.shared_address) || (state.table && state.table.shared_address) || [];
  let box = $("sharedAddress");
  if (!box) {
    box = el("div", { id: "sharedAddress", role: "status", "data-testid": "shared-address" });
    const table = $("table");
    if (table) table.prepend(box);
  }
  box.hidden = !groups.length;
  box.replaceChildren(...groups.map((g) => el("p", {}, t("web_shared_address", { seats: g }),
    ...(creator ? g.map((seat) => el("button", { type: "button", "data-testid": "replace-" + seat, text: t("web_replace", { seat }),
      onclick: () => send({ type: "replace", token: creator, seat }) })) : []))));
}

// ----- in the replay: every deal checked against its commitment, in the page's language ------------------------------
export async function replayCheck(data) {
  const { checkDeal } = await import("./fairdeal.js");
  let box = $("rFair");
  if (!box) {
    box = el("section", { id: "rFair", class: "rfair", "data-testid": "r-fair", "aria-live": "polite" });
    const title = $("rtitle");
    if (title) title.after(box);
    else document.body.append(box);
  }
  const seats = Object.keys((data.hands[0] && data.hands[0].deal && data.hands[0].deal.hands) || {});
  const rows = data.hands.map((h, i) => {
    const r = checkDeal(h.deal, h.fair, seats, i);
    return el("li", { class: r.ok ? "ok" : r.ok === false ? "bad" : "unchecked", "data-ok": String(r.ok) },
      (r.ok ? "✓ " : r.ok === false ? "✗ " : "? ") + (renderMsg(r.msg, lang) ?? r.msg.code));
  });
  box.replaceChildren(el("h2", { text: t("web_fair_title") }), el("ul", {}, ...rows));
}
