// The lobby: play now against the computer in one click, a new table with its rules in words, the tables waiting
// or playing with their seats open or taken, join by link. The player's name is asked once and remembered. A player
// signed in to an account (docs/accounts.md) is offered rated tables, and the link to his account page says his name.
import { $, el, t, word, levelName, onLang, setLang, lang, seatsOf, seatTitle, tableTitle, showOffline } from "./core.js";

let presets = [];
let levels = [];
let listed = [];
let account = null;  // the account this browser is signed in to (GET /api/session), null for a guest

export async function lobby() {
  $("lobby").hidden = false;
  let p;
  for (;;) {  // offline (the page kept by the service worker): say so, and go on when the network is back
    try { p = await (await fetch("/api/presets")).json(); showOffline(false); break; } catch (e) { showOffline(true); }
    await new Promise((ok) => { window.addEventListener("online", ok, { once: true }); setTimeout(ok, 5000); });
  }
  presets = p.presets; levels = p.levels;
  try { account = (await (await fetch("/api/session")).json()).account; } catch (e) { account = null; }
  // the profile's language, on a browser that never chose one (a choice made here is remembered and wins after)
  if (account && account.language && !localStorage.getItem("lang") && account.language !== lang) await setLang(account.language);
  signedIn();
  // a name typed while the page was still loading is kept (it was overwritten with the stored one, or with "")
  if (!$("myname").value.trim()) $("myname").value = localStorage.getItem("name") || "";
  $("myname").addEventListener("change", () => localStorage.setItem("name", $("myname").value.trim()));
  fillPresets();
  $("preset").addEventListener("change", seatSpecs);
  $("goal").addEventListener("change", () => {
    $("goalValue").hidden = $("goal").value === "default";
    $("goalValue").value = $("goal").value === "hands" ? 3 : 2005;
  });
  seatSpecs();
  $("create").addEventListener("submit", (e) => { e.preventDefault(); createTable(formBody()); });
  $("playNow").addEventListener("click", () => createTable({
    preset: "italian", seats: [{ kind: "human", name: myName() }, ...[1, 2, 3].map(() => ({ kind: "computer", level: "heuristic:medium" }))],
  }));
  $("joinLink").addEventListener("submit", (e) => {
    e.preventDefault();
    const m = $("link").value.trim().match(/\/t\/([A-Za-z0-9]+)(#t=[\w-]+)?/);
    if (m) location.href = "/t/" + m[1] + (m[2] || "");
  });
  onLang(() => { fillPresets(); seatSpecs(); signedIn(); drawTables(); });
  await listTables();
  setInterval(listTables, 5000);
}
function signedIn() {  // rated tables hold accounts only: the choice is offered to a signed-in player alone
  $("ratedBox").hidden = !account;
  if (!account) $("rated").checked = false;
  $("accountLink").textContent = account ? t("web_account_of", { name: account.name }) : t("web_sign_in");
  // the account's pages and the leaderboards are made by the server: they are asked in the language chosen here
  $("accountLink").href = "/account?lang=" + encodeURIComponent(lang);
  $("leaderboardsLink").href = "/leaderboards?lang=" + encodeURIComponent(lang);
  if (account && !$("myname").value.trim()) $("myname").value = account.name;
}
function myName() { const n = $("myname").value.trim(); if (n) localStorage.setItem("name", n); return n || undefined; }
function fillPresets() {
  const cur = $("preset").value || (account && account.rules) || "italian";  // the profile's preferred rules
  $("preset").replaceChildren(...presets.map((x) => el("option", { value: x.name, text: word("preset", x.name), selected: x.name === cur ? "selected" : null })));
}
function seatSpecs() {
  const pr = presets.find((x) => x.name === $("preset").value) || presets[0];
  const opts = [["human", t("web_human")], ["open", t("web_open")], ...levels.map((l) => ["computer:" + l, levelName(l)])];
  // the seats already chosen are kept (drawn again in another language, or for other rules)
  const chosen = Object.fromEntries([...$("seatSpecs").querySelectorAll("select")].map((x) => [x.name, x.value]));
  $("seatSpecs").replaceChildren(...seatsOf(pr.players).map((s, i) => el("label", {}, t("web_seat_of", { seat: s }) + " ",
    i === 0 ? el("b", { text: t("web_you") }) :
      el("select", { name: "seat" + i, "data-testid": "seat-" + s },
        ...opts.map(([v, txt]) => el("option", { value: v, text: txt, selected: v === (chosen["seat" + i] || "computer:heuristic:medium") ? "selected" : null }))))));
}
function formBody() {
  const pr = $("preset").value;
  const players = (presets.find((x) => x.name === pr) || {}).players || 4;
  const seats = [{ kind: "human", name: myName() }];
  for (let i = 1; i < players; i++) {
    const v = document.querySelector(`[name=seat${i}]`).value;
    seats.push(v.startsWith("computer:") ? { kind: "computer", level: v.slice(9) } : { kind: v });
  }
  const body = { preset: pr, seats, clock: Number($("clock").value) || 0 };
  if ($("goal").value === "target") body.target = Number($("goalValue").value);
  if ($("goal").value === "hands") body.hands = Number($("goalValue").value);
  if (account && $("rated").checked) body.rated = true;
  return body;
}
async function createTable(body) {
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const out = await r.json();
  if (!r.ok) { alert(out.message); return; }
  if (out.creator) localStorage.setItem("creator:" + out.id, out.creator);
  const me = out.table.seats[0].seat;  // the creator sits at the first seat: N, or A with 3, 5 and 6 players
  const others = Object.fromEntries(Object.entries(out.links).filter(([s]) => s !== me));
  sessionStorage.setItem("invites:" + out.id, JSON.stringify(others));
  location.href = `/t/${out.id}#t=${out.tokens[me]}`;
}
async function listTables() {
  try { listed = (await (await fetch("/api/tables")).json()).tables; showOffline(false); } catch (e) { showOffline(true); return; }
  drawTables();
}
const STATUS = { waiting: "web_waiting", playing: "web_playing", finished: "web_finished", abandoned: "web_abandoned" };
function drawTables() {
  if (!listed.length) { $("tables").replaceChildren(el("p", { text: t("web_no_tables") })); return; }
  $("tables").replaceChildren(...listed.map((x) => {
    const open = x.seats.filter((s) => s.kind === "open");
    const goal = x.hands_per_match ? `${t("web_hands")}: ${x.hands_per_match}` : t("web_goal_to", { n: x.target });
    return el("article", { class: "trow", "data-table": x.id },
      el("h3", { text: tableTitle(x.name, x.preset) }),
      el("p", { class: "rules", text: [word("preset", x.preset), goal, x.clock ? t("web_clock_rule", { n: x.clock }) : null,
        x.rated ? t("web_rated_table") : null, t(STATUS[x.status] || "web_playing"), t("web_seats_free", { n: open.length })].filter(Boolean).join(" · ") }),
      el("ul", { class: "seatlist" }, ...x.seats.map((s) => el("li", { class: "seat-pill " + s.kind + (s.connected ? " on" : "") },
        `${s.seat}: `, s.kind === "computer" ? levelName(s.level || "heuristic:medium") : seatTitle(s.seat, s.kind, s.name),
        s.kind === "open" ? el("a", { href: `/t/${x.id}?take=${s.seat}`, class: "take", "data-testid": `take-${x.id}-${s.seat}`, text: " " + t("web_take") }) : null))),
      el("a", { href: `/t/${x.id}`, class: "watch", text: t("web_spectate") }));
  }));
}
