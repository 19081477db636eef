// The tournament desk's pages (burraco.server.director): a new event, the director's desk, the public page and a
// physical table's score entry. Every text comes from the server's message catalogues, rendered for this
// language by /api/tournament-texts/<lang> (parameters left as {name}, filled in here).
"use strict";
const LANGS = ["en", "it", "de", "pt", "nl"];
const query = new URLSearchParams(location.search);
const lang = LANGS.includes(query.get("lang")) ? query.get("lang")
  : (LANGS.find((l) => (navigator.language || "en").toLowerCase().startsWith(l)) || "en");
let T = {};
const t = (code, p = {}) => (T[code] || code).replace(/\{(\w+)\}/g, (m, k) => (k in p ? String(p[k]) : m));
const parts = location.pathname.split("/").filter(Boolean);  // tournament, <id>|new, [desk|score]
const mode = parts[1] === "new" ? "new" : (parts[2] || "public");
const tid = parts[1];
const secret = new URLSearchParams(location.hash.slice(1)).get(mode === "desk" ? "d" : "t");
const FIELDS = [["clean", "t_clean", 0], ["semiclean", "t_semiclean", 0], ["dirty", "t_dirty", 0],
  ["closing", "t_closing", false], ["melds", "t_melds", 0], ["hand", "t_hand_points", 0],
  ["pozzetto", "t_pozzetto", true]];
// a line's name as the reader's language writes it (NS / EO, OW, LO, NZ)
const lineName = (ln) => (ln === "NS" ? t("t_ns") : ln === "EW" ? t("t_ew") : ln);
// a number of points, a negative one with a true minus sign (never "1540–-40")
const pts = (n) => (typeof n === "number" && n < 0 ? "\u2212" + String(-n) : String(n));

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "testid") e.dataset.testid = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
  return e;
}
function say(text, cls) { const m = document.getElementById("msg"); m.textContent = text; m.className = cls || ""; }
async function api(method, path, body, raw, token = secret) {
  const headers = { "Accept-Language": lang }; // refusals come back in the page's language
  if (token) headers.Authorization = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: raw !== undefined ? raw : (body === undefined ? undefined : JSON.stringify(body)) });
  const kind = r.headers.get("content-type") || "";
  const data = kind.includes("json") ? await r.json() : await r.blob();
  return { ok: r.ok, status: r.status, data };
}
// an action of the desk or a score page: refused, it says why; done, the page is refreshed first and then says so
// (what "done" shows is the state after the action). Only the last action started has its word said: an earlier
// one answered later (a slow answer) does not put its "done" over the refusal of the one after it, nor the reverse
let acts = 0;
function sayLast(n, text, cls) { if (n === acts) say(text, cls); }
async function act(path, body, raw) {
  const n = ++acts;
  say("", "");  // the last action's word goes: a "done" seen from now on is this one's
  const r = await api("POST", path, body, raw);
  if (!r.ok) { sayLast(n, t("desk_refused", { reason: r.data.message }), "error"); return null; }
  await refresh();
  sayLast(n, t("desk_done"), "ok");
  return r.data;
}
const field = (label, input) => el("label", {}, label, " ", input);
function scoreInputs(prefix) {
  return FIELDS.map(([k, code, dflt]) => field(t(code), typeof dflt === "boolean"
    ? el("input", { type: "checkbox", testid: `${prefix}-${k}`, checked: dflt })
    : el("input", { type: "number", min: 0, step: k === "melds" || k === "hand" ? 5 : 1, value: dflt, testid: `${prefix}-${k}` })));
}
function readScore(prefix) {
  const out = {};
  for (const [k, , dflt] of FIELDS) {
    const i = document.querySelector(`[data-testid=${prefix}-${k}]`);
    out[k] = typeof dflt === "boolean" ? i.checked : parseInt(i.value || "0", 10);
  }
  return out;
}
const time = (iso) => (iso ? new Date(iso).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" }) : "");
const entrantName = (ev, id) => { const e = ev.entrants.find((x) => x.id === id); return e ? `${e.id}. ${e.name}` : id; };
// a two-step button: the first click asks, the second (within 8 s) does it
function confirmButton(testid, label, question, run) {
  const b = el("button", { testid });
  let armed = 0;
  const reset = () => { armed = 0; b.textContent = label; b.classList.remove("armed"); };
  b.addEventListener("click", async () => {
    if (Date.now() - armed < 8000) { reset(); await run(); return; }
    armed = Date.now(); b.textContent = question; b.classList.add("armed");
    setTimeout(() => { if (armed && Date.now() - armed >= 8000) reset(); }, 8100);
  });
  reset();
  return b;
}

// ----- what every page shows ----------------------------------------------------------------------------------
function clockLine(ev) {
  const c = ev.clock;
  if (!c) return el("p", { class: "muted", testid: "clock" }, ev.finished ? t("desk_event_over") : t("desk_no_round"));
  const bits = [t("desk_clock", { n: c.round, start: time(c.started_at) })];
  if (c.timeout_at) bits.push(t("desk_timeout_at", { at: time(c.timeout_at) }));
  else if (c.ends_at) {
    const left = Math.ceil((new Date(c.ends_at) - new Date(c.now)) / 60000);
    bits.push(left > 0 ? t("desk_time_left", { m: left }) : t("desk_time_up"));
  }
  return el("p", { testid: "clock" }, bits.join(" · "));
}
function sheetRows(ev, tab) {
  if (!tab.sheets.length) return null;
  return el("table", { testid: `sheets-${tab.table}` },
    el("tr", {}, el("th", {}, t("t_hand", { n: "" }).trim()), el("th", {}, lineName("NS")), el("th", {}, lineName("EW")), el("th", {}, "")),
    tab.sheets.map((s) => el("tr", {}, el("td", {}, s.hand), el("td", { class: "num" }, pts(s.ns_total)), el("td", { class: "num" }, pts(s.ew_total)),
      el("td", {}, s.counts ? t("desk_counted") : t("desk_waiting_confirm"),
        s.entered_by !== "online" ? " · " + t("desk_entered_by", { line: s.entered_by.startsWith("director") ? t("desk_director") : lineName(s.entered_by) }) : "",
        s.timeout ? " · " + t("desk_timeout_mark") : "",
        s.corrected_by.map(([who, why]) => el("div", { class: "muted" }, t("desk_corrected", { who, why })))))));
}
function tableCard(ev, tab, extra) {
  const hands = ev.setup.hands;
  const line = (name, l) => el("div", {}, el("b", {}, lineName(name) + ": "), l.entrants.map((e) => entrantName(ev, e)).join(" + "),
    el("div", { class: "muted" }, l.players.join(", ")));
  const cls = "table-card" + (tab.finishing ? " finishing" : "") + (tab.complete ? " complete" : "");
  return el("div", { class: cls, testid: `table-${tab.table}` },
    el("h3", {}, t("t_table", { n: tab.table }), " · ", tab.mode === "online" ? t("desk_online") : t("desk_physical")),
    el("div", { class: "lines" }, line("NS", tab.ns), line("EW", tab.ew)),
    el("p", { testid: `progress-${tab.table}` }, t("desk_progress", { done: tab.counted, hands }),
      tab.counted ? ` · ${t("t_mp")} ${pts(tab.mp[0])} : ${pts(tab.mp[1])}` : "",
      tab.finished ? " · " + t("desk_finished") : "",
      tab.timeout_hand ? " · " + t("desk_timeout_hand", { n: tab.timeout_hand }) : "",
      tab.adjusted ? el("span", { class: "adjusted", testid: `adjusted-${tab.table}` }, " · " + t("desk_adjusted_note", { ns: tab.adjusted.ns_vp, ew: tab.adjusted.ew_vp, why: tab.adjusted.reason })) : "",
      tab.finishing ? el("b", { class: "finishing", testid: `finishing-${tab.table}` }, " · " + t("desk_finishing")) : "",
      tab.live && tab.live.playing && tab.live.totals ? ` · ${t("t_hand", { n: tab.live.hand })}: ${pts(tab.live.totals[0])} : ${pts(tab.live.totals[1])}` : "",
      Object.keys(tab.replaced).length ? " · " + Object.keys(tab.replaced).map((s) => t("desk_replaced", { seat: s })).join(", ") : ""),
    tab.mode === "online" && tab.table_id && !tab.links ? el("a", { href: `/t/${tab.table_id}` }, t("desk_watch")) : null,
    sheetRows(ev, tab), extra || null);
}
function standingsTitle(ev) {
  return ev.standings_round ? t("t_standings", { n: ev.standings_round }) : t("desk_standings_none");
}
// why a tied entrant is where it is (RULES.md §0.1 "Ranking ties")
function tieNote(s) {
  if (!s.tie) return "";
  const signed = (n) => (n > 0 ? "+" : "") + pts(n);  // a difference shows its sign; MP scored and VP do not
  const value = s.tie_value === null ? "" : s.tie.endsWith("_mp") || s.tie === "mp_diff" ? signed(s.tie_value) : pts(s.tie_value);
  const note = t(`t_tie_${s.tie}`, { value });
  return s.head_to_head || s.tie.startsWith("head") ? note : `${note} (${t("t_tie_no_h2h")})`;
}
function standingsTable(ev, desk) {
  const head = ["t_rank", "t_entrant", "t_rounds_played", "t_vp", "t_mp_for", "t_mp_against", "t_diff", "t_penalty", "t_tie"];
  const pending = {};
  for (const s of ev.standings) if (s.tie === "lot_pending") (pending[s.rank] = pending[s.rank] || []).push(s.entrant);
  return el("table", { testid: "standings" },
    el("tr", {}, head.map((c) => el("th", {}, t(c)))),
    ev.standings.map((s) => el("tr", { class: s.tie === "lot_pending" ? "level" : "" },
      el("td", {}, s.rank), el("td", {}, `${s.entrant}. ${s.name}`), el("td", { class: "num" }, s.rounds),
      el("td", { class: "num" }, s.vp), el("td", { class: "num" }, pts(s.mp_for)), el("td", { class: "num" }, pts(s.mp_against)),
      el("td", { class: "num" }, (s.diff > 0 ? "+" : "") + pts(s.diff)),
      el("td", { class: "num" }, [s.penalty_vp ? `−${s.penalty_vp} ${t("t_vp")}` : "", s.penalty_mp ? `−${s.penalty_mp} ${t("t_mp")}` : ""].filter(Boolean).join(", ")),
      el("td", { class: "tie" }, tieNote(s),
        desk && s.tie === "lot_pending" && pending[s.rank][0] === s.entrant ? el("button", { testid: `lot-${s.rank}`, onclick: async () => {
          await act(`/api/tournaments/${tid}/desk/lot`, { entrants: pending[s.rank], draw: true });
        } }, t("desk_draw_lots")) : null))));
}
function printLinks(ev, desk) {
  const p = (doc, fmt, label) => el("a", { href: `/api/tournaments/${tid}/print/${doc}.${fmt}?lang=${lang}`, target: "_blank", testid: `print-${doc}-${fmt}` }, label || `${doc}.${fmt}`);
  const links = [p("standings", "pdf"), p("standings", "html"), p("standings", "csv"), p("pairings", "pdf"), p("pairings", "html"),
    p("tablecards", "pdf"), p("namecards", "pdf"), p("sheets", "pdf"), p("sheets", "csv")];
  // the director's own files (members' numbers, the whole log): fetched with his token, then saved
  const mine = (path, name, testid) => el("button", { testid, onclick: async () => {
    const r = await api("GET", path);
    if (!r.ok) { say(t("desk_refused", { reason: r.data.message }), "error"); return; }
    el("a", { href: URL.createObjectURL(r.data instanceof Blob ? r.data : new Blob([JSON.stringify(r.data, null, 1)])), download: name }).click();
  } }, name);
  if (ev && ev.setup.duplicate) links.push(p("compare", "pdf"), p("compare", "html"));
  if (ev && ev.finished) {
    links.push(p("final", "pdf"), p("final", "html"));
    if (desk) links.push(mine(`/api/tournaments/${tid}/print/federation.csv`, `${tid}-federation.csv`, "print-federation-csv"));
  } else links.push(el("span", { class: "muted", testid: "final-not-yet" }, t("desk_final_later")));
  if (desk) links.push(mine(`/api/tournaments/${tid}/event.json`, `${tid}-event.json`, "event-json"));
  return el("section", {}, el("h2", {}, t("desk_printouts")), el("div", { class: "links" }, links));
}
// an entrant's players, each with the account of this server he is linked to (docs/accounts.md)
function playerNames(e) {
  return e.players.map((p, i) => (e.accounts && e.accounts[i] ? `${p} (@${e.accounts[i]})` : p)).join(", ");
}
function whereEverybodyPlays(ev) {
  if (!ev.clock) return null;
  return el("section", {}, el("h2", {}, t("desk_next_table")), el("table", { testid: "next" },
    ev.entrants.filter((e) => ev.next[e.id]).map((e) => {
      const n = ev.next[e.id];
      return el("tr", {}, el("td", {}, `${e.id}. ${e.name}`), el("td", {}, playerNames(e)),
        el("td", {}, n.table ? `${t("t_table", { n: n.table })} · ${lineName(n.line)}` : t("t_bye")));
    })));
}
// the duplicate comparison of each deal across tables (every table of a round plays the same deals)
function comparison(ev, data) {
  if (!data || !data.rounds.length) return null;
  return el("section", { testid: "compare" }, el("h2", {}, t("t_compare_title")),
    data.rounds.map((r) => el("div", {}, el("h3", {}, t("t_round", { n: r.round })),
      r.hands.map((h) => el("table", { testid: `compare-${r.round}-${h.hand}` },
        el("caption", {}, t("t_hand", { n: h.hand })),
        el("tr", {}, ["t_table_col", "t_ns", "t_ew", "t_ns_mp", "t_ew_mp", "t_vs_field"].map((c) => el("th", {}, t(c)))),
        h.tables.map((x) => el("tr", {}, el("td", {}, x.table), el("td", {}, entrantName(ev, x.ns)), el("td", {}, entrantName(ev, x.ew)),
          el("td", { class: "num" }, pts(x.ns_mp)), el("td", { class: "num" }, pts(x.ew_mp)),
          el("td", { class: "num" }, (x.ns_vs_field > 0 ? "+" : "") + pts(x.ns_vs_field)))))))));
}

// ----- the pages ------------------------------------------------------------------------------------------------
async function newEventPage(root) {
  document.getElementById("title").textContent = t("desk_new");
  const cfg = (await api("GET", "/api/tournament-config")).data || {};
  const inp = (name, attrs) => el("input", { name, testid: `new-${name}`, ...attrs });
  const kind = el("select", { name: "kind", testid: "new-kind" },
    ["pairs", "teams", "individual"].map((k) => el("option", { value: k }, t(`desk_kind_${k}`))));
  const adjusted = el("select", { name: "adjusted", testid: "new-adjusted" },
    (cfg.adjusted || ["draw", "bye"]).map((k) => el("option", { value: k }, t(`desk_adjusted_${k}`))));
  const password = cfg.signin ? field(t("desk_password"), inp("password", { type: "password", autocomplete: "current-password", required: true })) : null;
  // a server that lets only signed-in accounts create events (BURRACO_DIRECTOR_SIGNIN=account) says so, with who
  // is signed in here, or the way to the account page
  let signinNote = null;
  if (cfg.account) {
    let who = null;
    try { who = (await (await fetch("/api/session")).json()).account; } catch (e) { who = null; }
    signinNote = el("p", { testid: "signin-note", class: who ? "" : "error" }, t("desk_signin_needed"), " ",
      who ? t("desk_signed_in_as", { name: who.name })
        : el("a", { href: "/account?lang=" + encodeURIComponent(lang), testid: "signin-link" }, t("desk_signin_link")));
  }
  const form = el("form", { testid: "new-form", onsubmit: async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const num = (k) => (f.get(k) ? parseInt(f.get(k), 10) : null);
    const spec = { name: f.get("name"), date: f.get("date"), director: f.get("director"), kind: f.get("kind"),
      rules: f.get("rules"), hands: num("hands"), rounds: num("rounds"), adjusted: f.get("adjusted"),
      duplicate: f.get("duplicate") === "on" };
    if ((f.get("movements") || "").trim()) spec.movements = f.get("movements");
    if (num("minutes")) spec.minutes = num("minutes");
    if ((f.get("prizes") || "").trim()) spec.prizes = f.get("prizes");
    // the director's password (a server that asks for one) travels as the request's Authorization header
    const r = await api("POST", "/api/tournaments", spec, undefined, cfg.signin ? f.get("password") : null);
    if (!r.ok) { say(t("desk_refused", { reason: r.data.message }), "error"); return; }
    location.href = r.data.links.desk;
  } },
  signinNote,
  field(t("desk_name"), inp("name", { required: true })), field(t("desk_date"), inp("date", { type: "date" })),
  field(t("desk_director"), inp("director")), password, field(t("desk_kind"), kind),
  field(t("desk_rules"), inp("rules", { value: "italian-tournament" })),
  field(t("desk_hands"), inp("hands", { type: "number", value: 3, min: 2, max: 5 })),
  field(t("desk_minutes"), inp("minutes", { type: "number", min: 1 })),
  field(t("desk_rounds"), inp("rounds", { type: "number", value: 4, min: 1, max: cfg.max_rounds || 50 })),
  field(t("desk_movements"), inp("movements", { placeholder: "mitchell,mitchell,mitchell,danish_modified", size: 50 })),
  field(t("desk_adjusted"), adjusted),
  field(t("desk_prizes"), inp("prizes", { placeholder: t("desk_prizes_example"), size: 50 })),
  el("label", {}, inp("duplicate", { type: "checkbox" }), " ", t("desk_duplicate")),
  el("button", { type: "submit", testid: "new-create" }, t("desk_create")));
  root.append(form);
}

// ----- the paper-entry grid: the round's physical tables, one row each, typed with the keyboard alone -----------
const grid = { round: null, rows: {}, timer: {}, asked: {}, seq: 0 };
// each check of a row is numbered when its figures change (typed, recorded, cleared for the next hand): an answer
// about figures that have changed since comes too late and is dropped (it would mark a good row bad, or the row
// just cleared for the next hand with the verdict on the last one)
function changed(table) { grid.asked[table] = ++grid.seq; return grid.seq; }
function gridFields(ev) { return FIELDS.filter(([k]) => k !== "semiclean" || ev.semiclean); }
function paperGrid(ev) {
  const box = document.getElementById("paper");
  if (!box) return;
  const cur = ev.rounds.length ? ev.rounds[ev.rounds.length - 1] : null;
  const tabs = cur && !cur.closed ? cur.tables.filter((x) => x.mode !== "online") : [];
  const key = cur && !cur.closed ? `${cur.round}:${tabs.map((x) => x.table).join(",")}` : null;
  if (!tabs.length) { box.replaceChildren(); grid.round = null; grid.rows = {}; return; }
  const fields = gridFields(ev);
  if (grid.round !== key) {  // a new round: build the grid once; later refreshes keep what is being typed
    grid.round = key; grid.rows = {};
    const head = el("tr", {}, el("th", {}, t("t_table_col")), el("th", {}, t("t_hand_col")),
      ["NS", "EW"].flatMap((ln) => fields.map(([k, code], j) => el("th", { class: ln === "EW" && j === 0 ? "line-ew" : null, title: t(code) }, lineName(ln) + " " + t(`t_short_${k}`)))),
      el("th", {}, t("t_total")), el("th", { class: "timeout-col" }, t("desk_timeout_col")), el("th", {}, ""));
    const body = tabs.map((tab) => {
      const inputs = {};
      const cells = ["ns", "ew"].flatMap((ln) => fields.map(([k, , dflt], j) => {
        const count = ["clean", "semiclean", "dirty"].includes(k);
        const i = typeof dflt === "boolean"
          ? el("input", { type: "checkbox", testid: `paper-${tab.table}-${ln}-${k}` })
          : el("input", { type: "text", inputmode: "numeric", class: count ? "fig count" : "fig", testid: `paper-${tab.table}-${ln}-${k}` });
        inputs[`${ln}-${k}`] = i;
        i.addEventListener("input", () => checkRow(tab.table));
        i.addEventListener("change", () => checkRow(tab.table));
        i.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); submitRow(tab.table); } });
        return el("td", { class: ln === "ew" && j === 0 ? "line-ew" : null }, i);
      }));
      const timeout = el("input", { type: "checkbox", testid: `paper-${tab.table}-timeout` });
      timeout.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); submitRow(tab.table); } });
      const hand = el("td", { testid: `paper-${tab.table}-hand`, class: "num" });
      const total = el("td", { testid: `paper-${tab.table}-total`, class: "num" });
      const status = el("td", { testid: `paper-${tab.table}-status`, class: "status" });
      const tr = el("tr", { testid: `paper-row-${tab.table}` }, el("th", {}, tab.table), hand, cells, total,
        el("td", { class: "timeout-col" }, timeout), status);
      grid.rows[tab.table] = { tr, inputs, hand, total, status, timeout, next: null };
      return tr;
    });
    box.replaceChildren(el("h2", {}, t("desk_paper_title", { n: cur.round })),
      el("p", { class: "muted" }, t("desk_paper_help")),
      el("table", { class: "paper", testid: "paper" }, head, body));
  }
  box.classList.toggle("after-timeout", Boolean(cur.timeout_at));
  for (const tab of tabs) {
    const row = grid.rows[tab.table];
    if (!row) continue;
    const next = tab.complete ? null : Math.min(ev.setup.hands, tab.counted + 1);
    const waiting = tab.sheets.find((s) => s.hand === next && !s.counts);
    if (row.next !== next) {  // the hand to type changed: clear the row (or show a line's entry to confirm)
      row.next = next;
      changed(tab.table);
      for (const [k, i] of Object.entries(row.inputs)) {
        const [ln, f] = k.split("-");
        const dflt = FIELDS.find(([x]) => x === f)[2];
        const v = waiting ? waiting[ln][f] : dflt;
        if (i.type === "checkbox") i.checked = Boolean(v); else i.value = v ? String(v) : "";
      }
      row.timeout.checked = false;
      row.total.textContent = ""; row.status.textContent = waiting ? t("desk_paper_waiting", { line: lineName(waiting.entered_by) }) : "";
    }
    row.hand.textContent = next === null ? "✓" : String(next);
    for (const i of [...Object.values(row.inputs), row.timeout]) i.disabled = next === null;
    row.tr.classList.toggle("done", tab.complete);
    row.tr.classList.toggle("missing", !tab.complete && tab.counted < maxCounted(cur));
    row.tr.classList.toggle("finishing", Boolean(tab.finishing));
    if (tab.complete) row.status.textContent = t("desk_paper_done", { n: tab.counted });
  }
}
function maxCounted(cur) { return Math.max(0, ...cur.tables.map((x) => x.counted)); }
function rowBody(table) {
  const row = grid.rows[table];
  const out = { table, hand: row.next, ns: {}, ew: {} };
  for (const [k, i] of Object.entries(row.inputs)) {
    const [ln, f] = k.split("-");
    out[ln][f] = i.type === "checkbox" ? i.checked : (i.value.trim() === "" ? 0 : Number(i.value.trim()));
  }
  if (row.timeout.checked) out.timeout = true;
  return out;
}
function checkRow(table) {  // checked as typed: the server's own checks, nothing stored
  clearTimeout(grid.timer[table]);
  const n = changed(table);
  grid.timer[table] = setTimeout(async () => {
    const row = grid.rows[table];
    if (!row || row.next === null) return;
    const r = await api("POST", `/api/tournaments/${tid}/desk/check`, rowBody(table));
    if (grid.asked[table] !== n) return;
    row.tr.classList.toggle("bad", !r.ok);
    row.status.textContent = r.ok ? "" : r.data.message;
    row.total.textContent = r.ok ? `${pts(r.data.ns_total)} : ${pts(r.data.ew_total)}` : "";
  }, 250);
}
async function submitRow(table) {
  const row = grid.rows[table];
  if (!row || row.next === null) return;
  clearTimeout(grid.timer[table]);
  changed(table);  // a check still on its way says nothing more about this row
  const n = ++acts;
  const from = document.activeElement;  // where Enter was pressed
  say("", "");
  const r = await api("POST", `/api/tournaments/${tid}/desk/enter`, rowBody(table));
  if (!r.ok) { row.tr.classList.add("bad"); row.status.textContent = r.data.message; sayLast(n, t("desk_refused", { reason: r.data.message }), "error"); return; }
  row.tr.classList.remove("bad");
  const entered = row.next;
  await refresh();
  sayLast(n, t("desk_paper_entered", { table, hand: entered }), "ok");
  // the same table's next hand, or the next table that still has one; only while the focus is still where Enter
  // was pressed (or fell to the page, the row done): the director may have gone on typing, in this row or another,
  // while the answer came, and his keys must not land elsewhere
  if (document.activeElement && document.activeElement !== document.body && document.activeElement !== from) return;
  const order = Object.keys(grid.rows).map(Number);
  const nextTable = row.next !== null ? table : order.find((x) => x > table && grid.rows[x].next !== null) ?? order.find((x) => grid.rows[x].next !== null);
  if (nextTable !== undefined) Object.values(grid.rows[nextTable].inputs)[0].focus();
}

function deskStatic(root) {
  const path = (a) => `/api/tournaments/${tid}/desk/${a}`;
  const regName = el("input", { testid: "reg-name", size: 30 }), regPlayers = el("input", { testid: "reg-players", size: 40 });
  const regAccounts = el("input", { testid: "reg-accounts", size: 40 });
  const csv = el("textarea", { testid: "csv-text", placeholder: "entrant,name,club,member,category" });
  const online = el("input", { testid: "online-tables", value: "" }), comps = el("input", { type: "checkbox", testid: "computers" });
  const corr = ["round", "table", "hand"].map((k) => el("input", { type: "number", min: 1, testid: `corr-${k}`, class: "short" }));
  const reason = el("input", { testid: "corr-reason", size: 40 });
  const pen = { entrant: el("input", { testid: "pen-entrant", class: "short" }), vp: el("input", { type: "number", min: 0, testid: "pen-vp", class: "short" }),
    mp: el("input", { type: "number", min: 0, step: 5, testid: "pen-mp", class: "short" }), reason: el("input", { testid: "pen-reason", size: 40 }) };
  const adj = { round: el("input", { type: "number", min: 1, testid: "adj-round", class: "short" }), table: el("input", { type: "number", min: 1, testid: "adj-table", class: "short" }),
    nsvp: el("input", { type: "number", min: 0, testid: "adj-ns-vp", class: "short" }), nsmp: el("input", { type: "number", step: 5, testid: "adj-ns-mp", class: "short" }),
    ewvp: el("input", { type: "number", min: 0, testid: "adj-ew-vp", class: "short" }), ewmp: el("input", { type: "number", step: 5, testid: "adj-ew-mp", class: "short" }),
    reason: el("input", { testid: "adj-reason", size: 40 }) };
  const sheetsCsv = el("textarea", { testid: "sheets-csv", placeholder: "round,table,hand,ns_clean,…,ew_pozzetto" });
  const timeoutBtn = confirmButton("timeout", t("desk_timeout"), t("desk_timeout_sure"), async () => { await act(path("timeout"), {}); });
  const closeBtn = confirmButton("close-round", t("desk_close"), t("desk_close_sure"), async () => { await act(path("close"), {}); });
  // at the top what a round needs (its buttons, the paper sheets); the round's tables and the standings follow
  // (#live); below them what is done now and then (registration, corrections, penalties, printouts)
  root.append(
    el("p", { class: "muted" }, t("desk_keep_link"), " ", el("a", { href: `/tournament/${tid}`, testid: "public-link" }, t("desk_public_page"))),
    el("section", {}, el("h2", {}, t("desk_tables")),
      field(t("desk_online_tables"), online), field(t("desk_computers"), comps),
      el("button", { testid: "start-round", onclick: async () => {
        const v = online.value.trim();
        const tables = v === "all" ? "all" : v.split(",").map((x) => parseInt(x, 10)).filter((x) => !isNaN(x));
        const body = { online: tables };
        if (comps.checked) body.all_computers = true;
        await act(path("start"), body);
      } }, t("desk_start", { n: "" }).trim()),
      timeoutBtn, closeBtn),
    el("section", { id: "paper", testid: "paper-section" }));
  document.getElementById("static-bottom").append(
    el("section", {}, el("h2", {}, t("desk_participants")),
      field(t("desk_entrant_name"), regName), field(t("desk_player_names"), regPlayers),
      field(t("desk_player_accounts"), regAccounts),
      el("button", { testid: "reg-submit", onclick: async () => {
        const accounts = regAccounts.value.split(",").map((x) => x.trim());
        const people = regPlayers.value.split(",").map((x) => x.trim()).filter(Boolean)
          .map((name, i) => (accounts[i] ? { name, account: accounts[i] } : name));
        const boxes = [regName, regPlayers, regAccounts], sent = boxes.map((i) => i.value);
        // done: the boxes are emptied for the next entrant, but not one the director has typed into meanwhile (a
        // slow answer must not take away the next entrant's name)
        if (await act(path("register"), { name: regName.value, people })) boxes.forEach((i, k) => { if (i.value === sent[k]) i.value = ""; });
      } }, t("desk_register")),
      csv, el("button", { testid: "csv-import", onclick: async () => { await act(path("import"), undefined, csv.value); } }, t("desk_import")),
      el("button", { testid: "csv-export", onclick: async () => {
        const r = await api("GET", `/api/tournaments/${tid}/print/participants.csv`);
        if (r.ok) { const a = el("a", { href: URL.createObjectURL(r.data), download: `${tid}-participants.csv` }); a.click(); }
      } }, t("desk_export"))),
    el("section", {}, el("h2", {}, t("desk_correct")),
      el("div", {}, t("t_round", { n: "" }), corr[0], " ", t("t_table", { n: "" }), corr[1], " ", t("t_hand", { n: "" }), corr[2]),
      el("div", { class: "lines" }, el("div", {}, el("b", {}, lineName("NS")), scoreInputs("corr-ns")), el("div", {}, el("b", {}, lineName("EW")), scoreInputs("corr-ew"))),
      field(t("desk_reason"), reason),
      el("button", { testid: "corr-apply", onclick: async () => {
        const [r, tb, h] = corr.map((i) => parseInt(i.value, 10));
        await act(path("correct"), { round: r, table: tb, hand: h, ns: readScore("corr-ns"), ew: readScore("corr-ew"), reason: reason.value });
      } }, t("desk_apply")),
      el("h3", {}, t("desk_import_sheets")), sheetsCsv,
      el("button", { testid: "sheets-import", onclick: async () => { await act(path("import_sheets"), undefined, sheetsCsv.value); } }, t("desk_import"))),
    el("section", {}, el("h2", {}, t("desk_penalties")),
      el("div", {}, field(t("t_entrant"), pen.entrant), field(t("t_vp"), pen.vp), field(t("t_mp"), pen.mp), field(t("desk_reason"), pen.reason),
        el("button", { testid: "pen-apply", onclick: async () => {
          const n = (i) => (i.value.trim() ? parseInt(i.value, 10) : 0);
          const reason = pen.reason.value;
          if (await act(path("penalty"), { entrant: pen.entrant.value.trim(), vp: n(pen.vp), mp: n(pen.mp), reason }) && pen.reason.value === reason) pen.reason.value = "";
        } }, t("desk_penalty_apply"))),
      el("div", { id: "penalties", testid: "penalties" }),
      el("h3", {}, t("desk_adjust")), el("p", { class: "muted", testid: "adj-help" }),
      el("div", {}, t("t_round", { n: "" }), adj.round, " ", t("t_table", { n: "" }), adj.table, " ",
        lineName("NS"), " ", t("t_vp"), adj.nsvp, t("t_mp"), adj.nsmp, " ", lineName("EW"), " ", t("t_vp"), adj.ewvp, t("t_mp"), adj.ewmp),
      field(t("desk_reason"), adj.reason),
      el("button", { testid: "adj-apply", onclick: async () => {
        const body = { round: parseInt(adj.round.value, 10), table: parseInt(adj.table.value, 10), reason: adj.reason.value };
        if ([adj.nsvp, adj.nsmp, adj.ewvp, adj.ewmp].some((i) => i.value.trim() !== "")) {
          const n = (i) => parseInt(i.value || "0", 10);
          body.ns = { vp: n(adj.nsvp), mp: n(adj.nsmp) }; body.ew = { vp: n(adj.ewvp), mp: n(adj.ewmp) };
        }
        await act(path("adjust"), body);
      } }, t("desk_apply"))),
    el("div", { id: "desk-print" }));
}

// what the director picked in a select that the 2-second refresh draws again (line-ups, the seat to replace), by
// the select's testid: kept until its form is sent, so a refresh never undoes a choice being made
const choices = {};
function kept(sel) {
  const id = sel.getAttribute("data-testid");
  if (id in choices) sel.value = choices[id];
  sel.addEventListener("change", () => { choices[id] = sel.value; });
  return sel;
}
function forget(prefix) { for (const id of Object.keys(choices)) if (id.startsWith(prefix)) delete choices[id]; }
// a team event, between rounds: each team's pairs for the next round (two players per pair, by their index)
function lineupForm(ev, cur) {
  if (ev.setup.kind !== "teams" || (cur && !cur.closed) || ev.rounds.length >= ev.setup.rounds) return null;
  const path = `/api/tournaments/${tid}/desk/lineup`;
  const rows = ev.entrants.filter((e) => !e.withdrawn).map((e) => {
    const selects = (e.lineup || []).map((pair, i) => pair.map((who, j) => kept(el("select", { testid: `lineup-${e.id}-${i}-${j}` },
      e.players.map((name, k) => { const o = el("option", { value: k }, name); if (k === who) o.selected = true; return o; })))));
    return el("div", { class: "lineup", testid: `lineup-${e.id}` }, el("b", {}, e.name), " ",
      selects.map((pair, i) => el("span", {}, t("desk_lineup_pair", { n: i + 1 }), ": ", pair[0], " + ", pair[1], " ")),
      el("button", { testid: `lineup-set-${e.id}`, onclick: async () => {
        const pairs = selects.map((pair) => pair.map((x) => parseInt(x.value, 10)));
        if (await act(path, { team: e.id, pairs })) { forget(`lineup-${e.id}-`); await refresh(); }
      } }, t("desk_lineup_set")));
  });
  return el("section", {}, el("h2", {}, t("desk_lineups", { n: ev.rounds.length + 1 })), rows);
}

let state = null;
function deskLive(ev) {
  const path = (a) => `/api/tournaments/${tid}/desk/${a}`;
  const cur = ev.rounds.length ? ev.rounds[ev.rounds.length - 1] : null;
  const inPlay = Boolean(cur && !cur.closed);
  const startBtn = document.querySelector("[data-testid=start-round]");
  if (startBtn) {  // no second round while one is in play, none after the last: the button says so
    startBtn.disabled = inPlay || ev.finished;
    startBtn.textContent = inPlay ? t("desk_in_play", { n: cur.round }) : ev.finished ? t("desk_all_played", { n: ev.setup.rounds })
      : t("desk_start", { n: ev.rounds.length + 1 });
  }
  for (const id of ["timeout", "close-round"]) {
    const b = document.querySelector(`[data-testid=${id}]`);
    if (b) b.disabled = !inPlay || (id === "timeout" && Boolean(cur.timeout_at));
  }
  const help = document.querySelector("[data-testid=adj-help]");
  if (help) help.textContent = t("desk_adjust_help", { convention: t(`desk_adjusted_${ev.setup.adjusted}`) });
  const pens = document.getElementById("penalties");
  if (pens) pens.replaceChildren(ev.penalties.length ? el("ul", {}, ev.penalties.map((p) => el("li", {},
    t("desk_penalty_line", { round: p.round, who: entrantName(ev, p.entrant), vp: p.vp, mp: p.mp, why: p.reason })))) : "");
  paperGrid(ev);
  const pr = document.getElementById("desk-print");
  if (pr) pr.replaceChildren(printLinks(ev, true));
  const tables = cur ? cur.tables.map((tab) => {
    const extra = [];
    if (tab.links) {
      extra.push(el("div", { class: "links", testid: `links-${tab.table}` }, t("desk_links"), ": ",
        Object.entries(tab.links).map(([k, href]) => el("a", { href, testid: `link-${tab.table}-${k}` }, k === "watch" ? t("desk_watch") : lineName(k)))));
    }
    if (!cur.closed && tab.mode === "online") {
      const seat = kept(el("select", { testid: `replace-seat-${tab.table}` }, ["N", "E", "S", "W"].map((s) => el("option", { value: s }, s))));
      extra.push(el("div", {}, t("desk_replace"), " ", seat, el("button", { testid: `replace-${tab.table}`, onclick: async () => {
        if (await act(path("replace"), { table: tab.table, seat: seat.value, level: "heuristic:medium" })) forget(`replace-seat-${tab.table}`);
      } }, t("desk_apply"))));
    }
    if (!cur.closed && cur.timeout_at && !tab.complete) {
      extra.push(el("button", { testid: `finish-${tab.table}`, onclick: async () => { await act(path("finish"), { table: tab.table }); } }, t("desk_finish")));
    }
    return tableCard(ev, tab, extra);
  }) : [];
  const finishing = cur && !cur.closed ? cur.tables.filter((x) => x.finishing).map((x) => x.table) : [];
  return [
    clockLine(ev),
    finishing.length ? el("p", { class: "finishing", testid: "finishing" }, t("desk_still_finishing", { tables: finishing.join(", ") })) : null,
    el("section", {}, el("h2", { testid: "standings-title" }, standingsTitle(ev)), standingsTable(ev, true), prizes(ev)),
    cur ? el("section", {}, el("h2", {}, t("t_round", { n: cur.round })), tables, cur.byes.length ? el("p", {}, t("t_bye"), ": ", cur.byes.map((b) => entrantName(ev, b)).join(", ")) : null) : null,
    comparison(ev, compareData),
    lineupForm(ev, cur),
    el("section", {}, el("h2", {}, t("desk_participants")), el("table", { testid: "entrants" },
      ev.entrants.map((e) => el("tr", {}, el("td", {}, e.id), el("td", {}, e.name), el("td", { testid: `players-${e.id}` }, playerNames(e)),
        el("td", {}, e.withdrawn ? t("desk_withdrawn") : el("button", { testid: `withdraw-${e.id}`, onclick: async () => {
          await act(path("withdraw"), { entrant: e.id });
        } }, t("desk_withdraw"))))))),
  ];
}
function prizes(ev) {
  if (!ev.prizes || !ev.prizes.length) return null;
  return el("div", { testid: "prizes" }, el("h3", {}, t("t_prizes")), ev.prizes.map((p) => el("p", {},
    el("b", {}, p.category ? p.category : t("t_overall")), ": ",
    p.winners.length ? p.winners.map((w) => `${w.place}. ${entrantName(ev, w.entrant)}`).join(" · ") : "–")));
}

function publicLive(ev) {
  return [
    clockLine(ev), whereEverybodyPlays(ev),
    ev.rounds.slice().reverse().map((r) => el("section", {}, el("h2", {}, t("t_round", { n: r.round })), r.tables.map((tab) => tableCard(ev, tab)))),
    el("section", {}, el("h2", { testid: "standings-title" }, standingsTitle(ev)), standingsTable(ev, false), prizes(ev)),
    comparison(ev, compareData),
    el("section", {}, el("h2", {}, t("desk_participants")), el("ul", { testid: "public-entrants" },
      ev.entrants.map((e) => el("li", {}, `${e.id}. ${e.name}: ${playerNames(e)}`)))),
    printLinks(ev, false),
  ];
}

let scoreInfo = null;
function scoreStatic(root) {
  const hand = el("span", { testid: "score-hand" });
  const last = el("input", { type: "checkbox", testid: "score-timeout" });
  root.append(el("section", {}, el("h2", { testid: "score-enter-title" }, t("desk_enter", { n: "" }), hand),
    el("div", { class: "lines" }, el("div", {}, el("b", { testid: "score-ns-name" }, lineName("NS")), scoreInputs("ns")),
      el("div", {}, el("b", { testid: "score-ew-name" }, lineName("EW")), scoreInputs("ew"))),
    el("label", { class: "timeout-hand", testid: "score-timeout-label", hidden: true }, last, " ", t("desk_is_timeout_hand")),
    el("button", { testid: "score-submit", onclick: async () => {
      if (!scoreInfo) return;
      const next = scoreInfo.table.sheets.length + 1;
      const body = { hand: next, ns: readScore("ns"), ew: readScore("ew") };
      if (last.checked) body.timeout = true;
      if (await act(`/api/tournaments/${tid}/line/enter`, body)) { last.checked = false; }
    } }, t("desk_enter", { n: "" }).trim())));
}
function scoreLive(info) {
  scoreInfo = info;
  document.getElementById("title").textContent = `${info.event} — ${t("desk_score_title", { round: info.round, table: info.table.table, line: lineName(info.line) })}`;
  const box = document.querySelector("[data-testid=score-timeout-label]");
  if (box) box.hidden = !info.timeout_at;  // only after the time-out: the hand in which it was announced
  const hn = document.querySelector("[data-testid=score-hand]");
  if (hn) hn.textContent = info.table.complete ? "–" : String(info.table.sheets.length + 1);
  // each line's number and name over its figures (never "NS: 5" alone)
  for (const ln of ["NS", "EW"]) {
    const b = document.querySelector(`[data-testid=score-${ln.toLowerCase()}-name]`);
    if (b) b.textContent = `${lineName(ln)}: ${info.table[ln.toLowerCase()].entrants.map((e) => entrantName(info, e)).join(" + ")}`;
  }
  const pending = info.table.sheets.filter((s) => !s.counts && s.entered_by !== info.line);
  return [
    info.table.complete ? el("p", { class: "ok", testid: "score-all" }, t("desk_all_entered")) : null,
    tableCard({ setup: { hands: info.hands }, entrants: info.entrants }, info.table),
    pending.map((s) => el("button", { testid: `confirm-${s.hand}`, onclick: async () => {
      await act(`/api/tournaments/${tid}/line/confirm`, { hand: s.hand });
    } }, `${t("desk_confirm")} — ${t("t_hand", { n: s.hand })}: ${lineName("NS")} ${pts(s.ns_total)}, ${lineName("EW")} ${pts(s.ew_total)}`)),
  ];
}

let compareData = null;
// refreshes overlap (the 2-second timer, and one after every action): each is numbered, and an answer older than
// one already shown is dropped, so a slow answer never puts back a state from before an entry (it would clear the
// paper grid's row being typed, or offer a hand already recorded)
const seen = { asked: 0, shown: 0 };
async function refresh() {
  const live = document.getElementById("live");
  const n = ++seen.asked;
  let r;
  if (mode === "desk") r = await api("GET", `/api/tournaments/${tid}/desk`);
  else if (mode === "score") r = await api("GET", `/api/tournaments/${tid}/line`);
  else if (mode === "public") r = await api("GET", `/api/tournaments/${tid}`);
  else return;
  if (n < seen.shown) return;
  if (!r.ok) { say(t("desk_refused", { reason: r.data.message }), "error"); return; }
  let kids;
  if (mode === "score") kids = scoreLive(r.data);
  else {
    let compare = null;
    if (r.data.setup.duplicate) {
      const c = await api("GET", `/api/tournaments/${tid}/compare`);
      compare = c.ok ? c.data : null;
      if (n < seen.shown) return;
    }
    state = r.data;
    compareData = compare;
    document.getElementById("title").textContent = `${r.data.setup.name}${r.data.setup.date ? " · " + r.data.setup.date : ""}` + (mode === "desk" ? ` — ${t("desk_title")}` : "");
    kids = mode === "desk" ? deskLive(r.data) : publicLive(r.data);
  }
  seen.shown = n;
  live.replaceChildren(...kids.flat().filter(Boolean));
  document.body.dataset.loaded = String(Date.now());
}

(async function main() {
  T = await (await fetch(`/api/tournament-texts/${lang}`)).json();
  document.documentElement.lang = lang;
  const root = document.getElementById("static");
  if (mode === "new") { await newEventPage(root); return; }
  if (mode === "desk") deskStatic(root);
  if (mode === "score") scoreStatic(root);
  await refresh();
  setInterval(refresh, 2000);
})();
