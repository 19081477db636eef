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
async function api(method, path, body, raw) {
  const headers = { "Accept-Language": lang }; // refusals come back in the page's language
  if (secret) headers.Authorization = "Bearer " + secret;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: raw !== undefined ? raw : (body === undefined ? undefined : JSON.stringify(body)) });
  const kind = r.headers.get("content-type") || "";
  const data = kind.includes("json") ? await r.json() : await r.blob();
  return { ok: r.ok, status: r.status, data };
}
async function act(path, body, raw) {
  const r = await api("POST", path, body, raw);
  if (!r.ok) { say(t("desk_refused", { reason: r.data.message }), "error"); return null; }
  say(t("desk_done"), "ok");
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

// ----- what every page shows ----------------------------------------------------------------------------------
function clockLine(ev) {
  const c = ev.clock;
  if (!c) return el("p", { class: "muted", testid: "clock" }, t("desk_no_round"));
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
    el("tr", {}, el("th", {}, t("t_hand", { n: "" }).trim()), el("th", {}, "NS"), el("th", {}, "EW"), el("th", {}, "")),
    tab.sheets.map((s) => el("tr", {}, el("td", {}, s.hand), el("td", {}, s.ns_total), el("td", {}, s.ew_total),
      el("td", {}, s.counts ? t("desk_counted") : t("desk_waiting_confirm"),
        s.entered_by !== "online" ? " · " + t("desk_entered_by", { line: s.entered_by }) : "",
        s.corrected_by.map(([who, why]) => el("div", { class: "muted" }, t("desk_corrected", { who, why })))))));
}
function tableCard(ev, tab, extra) {
  const hands = ev.setup.hands;
  const line = (name, l) => el("div", {}, el("b", {}, name + ": "), l.entrants.map((e) => entrantName(ev, e)).join(" + "),
    el("div", { class: "muted" }, l.players.join(", ")));
  return el("div", { class: "table-card", testid: `table-${tab.table}` },
    el("h3", {}, t("t_table", { n: tab.table }), " · ", tab.mode === "online" ? t("desk_online") : t("desk_physical")),
    el("div", { class: "lines" }, line("NS", tab.ns), line("EW", tab.ew)),
    el("p", { testid: `progress-${tab.table}` }, t("desk_progress", { done: tab.counted, hands }),
      tab.counted ? ` · ${t("t_mp")} ${tab.mp[0]} – ${tab.mp[1]}` : "",
      tab.finished ? " · " + t("desk_finished") : "",
      tab.live && tab.live.playing ? ` · ${t("t_hand", { n: tab.live.hand })}: ${tab.live.totals[0]} – ${tab.live.totals[1]}` : "",
      Object.keys(tab.replaced).length ? " · " + Object.keys(tab.replaced).map((s) => t("desk_replaced", { seat: s })).join(", ") : ""),
    tab.mode === "online" && tab.table_id && !tab.links ? el("a", { href: `/t/${tab.table_id}` }, t("desk_watch")) : null,
    sheetRows(ev, tab), extra || null);
}
function standingsTitle(ev) {
  const closed = ev.rounds.filter((r) => r.closed).length;
  return closed ? t("t_standings", { n: closed }) : t("desk_standings_none");
}

function standingsTable(ev) {
  return el("table", { testid: "standings" },
    el("tr", {}, ["t_rank", "t_entrant", "t_rounds_played", "t_vp", "t_mp", "t_diff"].map((c) => el("th", {}, t(c)))),
    ev.standings.map((s) => el("tr", {}, el("td", {}, s.rank), el("td", {}, `${s.entrant}. ${s.name}`), el("td", {}, s.rounds),
      el("td", {}, s.vp), el("td", {}, `${s.mp_for} – ${s.mp_against}`), el("td", {}, s.diff))));
}
function printLinks() {
  const p = (doc, fmt) => el("a", { href: `/api/tournaments/${tid}/print/${doc}.${fmt}?lang=${lang}`, target: "_blank", testid: `print-${doc}-${fmt}` }, `${doc}.${fmt}`);
  return el("section", {}, el("h2", {}, t("desk_printouts")), el("div", { class: "links" },
    p("standings", "pdf"), p("standings", "html"), p("standings", "csv"), p("pairings", "pdf"), p("pairings", "html"),
    p("sheets", "pdf"), p("final", "pdf"), p("final", "html"), p("sheets", "csv")));
}
function whereEverybodyPlays(ev) {
  if (!ev.clock) return null;
  return el("section", {}, el("h2", {}, t("desk_next_table")), el("table", { testid: "next" },
    ev.entrants.filter((e) => ev.next[e.id]).map((e) => {
      const n = ev.next[e.id];
      return el("tr", {}, el("td", {}, `${e.id}. ${e.name}`), el("td", {}, e.players.join(", ")),
        el("td", {}, n.table ? `${t("t_table", { n: n.table })} · ${n.line}` : t("t_bye")));
    })));
}

// ----- the pages ------------------------------------------------------------------------------------------------
function newEventPage(root) {
  document.getElementById("title").textContent = t("desk_new");
  const inp = (name, attrs) => el("input", { name, testid: `new-${name}`, ...attrs });
  const kind = el("select", { name: "kind", testid: "new-kind" },
    ["pairs", "teams", "individual"].map((k) => el("option", { value: k }, t(`desk_kind_${k}`))));
  const form = el("form", { testid: "new-form", onsubmit: async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const num = (k) => (f.get(k) ? parseInt(f.get(k), 10) : null);
    const spec = { name: f.get("name"), date: f.get("date"), director: f.get("director"), kind: f.get("kind"),
      rules: f.get("rules"), hands: num("hands"), rounds: num("rounds"), movements: f.get("movements") };
    if (num("minutes")) spec.minutes = num("minutes");
    const out = await act("/api/tournaments", spec);
    if (out) location.href = out.links.desk;
  } },
  field(t("desk_name"), inp("name", { required: true })), field(t("desk_date"), inp("date", { type: "date" })),
  field(t("desk_director"), inp("director")), field(t("desk_kind"), kind),
  field(t("desk_rules"), inp("rules", { value: "italian-tournament" })),
  field(t("desk_hands"), inp("hands", { type: "number", value: 3, min: 2, max: 5 })),
  field(t("desk_minutes"), inp("minutes", { type: "number", min: 1 })),
  field(t("desk_rounds"), inp("rounds", { type: "number", value: 4, min: 1 })),
  field(t("desk_movements"), inp("movements", { value: "mitchell,mitchell,mitchell,danish", size: 50 })),
  el("button", { type: "submit", testid: "new-create" }, t("desk_create")));
  root.append(form);
}

function deskStatic(root) {
  const path = (a) => `/api/tournaments/${tid}/desk/${a}`;
  const regName = el("input", { testid: "reg-name", size: 30 }), regPlayers = el("input", { testid: "reg-players", size: 40 });
  const csv = el("textarea", { testid: "csv-text", placeholder: "entrant,name,club,member" });
  const online = el("input", { testid: "online-tables", value: "" }), comps = el("input", { type: "checkbox", testid: "computers" });
  const corr = ["round", "table", "hand"].map((k) => el("input", { type: "number", min: 1, testid: `corr-${k}`, style: "width:4rem" }));
  const reason = el("input", { testid: "corr-reason", size: 40 });
  root.append(
    el("p", { class: "muted" }, t("desk_keep_link"), " ", el("a", { href: `/tournament/${tid}`, testid: "public-link" }, t("desk_public_page"))),
    el("section", {}, el("h2", {}, t("desk_participants")),
      field(t("desk_entrant_name"), regName), field(t("desk_player_names"), regPlayers),
      el("button", { testid: "reg-submit", onclick: async () => {
        const people = regPlayers.value.split(",").map((x) => x.trim()).filter(Boolean);
        if (await act(path("register"), { name: regName.value, people })) { regName.value = ""; regPlayers.value = ""; refresh(); }
      } }, t("desk_register")),
      csv, el("button", { testid: "csv-import", onclick: async () => { if (await act(path("import"), undefined, csv.value)) refresh(); } }, t("desk_import")),
      el("button", { testid: "csv-export", onclick: async () => {
        const r = await api("GET", `/api/tournaments/${tid}/print/participants.csv`);
        if (r.ok) { const a = el("a", { href: URL.createObjectURL(r.data), download: `${tid}-participants.csv` }); a.click(); }
      } }, t("desk_export"))),
    el("section", {}, el("h2", {}, t("desk_tables")),
      field(t("desk_online_tables"), online), field(t("desk_computers"), comps),
      el("button", { testid: "start-round", onclick: async () => {
        const v = online.value.trim();
        const tables = v === "all" ? "all" : v.split(",").map((x) => parseInt(x, 10)).filter((x) => !isNaN(x));
        const body = { online: tables };
        if (comps.checked) {
          body.computers = {};
          const nums = tables === "all" ? (state && state.next ? [...new Set(Object.values(state.next).map((n) => n.table).filter(Boolean))] : []) : tables;
          for (const n of nums) body.computers[String(n)] = { N: "heuristic:easy", E: "heuristic:easy", S: "heuristic:easy", W: "heuristic:easy" };
        }
        if (await act(path("start"), body)) refresh();
      } }, t("desk_start", { n: "" }).trim()),
      el("button", { testid: "timeout", onclick: async () => { if (await act(path("timeout"), {})) refresh(); } }, t("desk_timeout")),
      el("button", { testid: "close-round", onclick: async () => { if (await act(path("close"), {})) refresh(); } }, t("desk_close"))),
    el("section", {}, el("h2", {}, t("desk_correct")),
      el("div", {}, t("t_round", { n: "" }), corr[0], " ", t("t_table", { n: "" }), corr[1], " ", t("t_hand", { n: "" }), corr[2]),
      el("div", { class: "lines" }, el("div", {}, el("b", {}, "NS"), scoreInputs("corr-ns")), el("div", {}, el("b", {}, "EW"), scoreInputs("corr-ew"))),
      field(t("desk_reason"), reason),
      el("button", { testid: "corr-apply", onclick: async () => {
        const [r, tb, h] = corr.map((i) => parseInt(i.value, 10));
        if (await act(path("correct"), { round: r, table: tb, hand: h, ns: readScore("corr-ns"), ew: readScore("corr-ew"), reason: reason.value })) refresh();
      } }, t("desk_apply"))),
    printLinks());
}

// a team event, between rounds: each team's pairs for the next round (two players per pair, by their index)
function lineupForm(ev, cur) {
  if (ev.setup.kind !== "teams" || (cur && !cur.closed) || ev.rounds.length >= ev.setup.rounds) return null;
  const path = `/api/tournaments/${tid}/desk/lineup`;
  const rows = ev.entrants.filter((e) => !e.withdrawn).map((e) => {
    const selects = (e.lineup || []).map((pair, i) => pair.map((who, j) => el("select", { testid: `lineup-${e.id}-${i}-${j}` },
      e.players.map((name, k) => { const o = el("option", { value: k }, name); if (k === who) o.selected = true; return o; }))));
    return el("div", { class: "lineup", testid: `lineup-${e.id}` }, el("b", {}, e.name), " ",
      selects.map((pair, i) => el("span", {}, t("desk_lineup_pair", { n: i + 1 }), ": ", pair[0], " + ", pair[1], " ")),
      el("button", { testid: `lineup-set-${e.id}`, onclick: async () => {
        const pairs = selects.map((pair) => pair.map((x) => parseInt(x.value, 10)));
        if (await act(path, { team: e.id, pairs })) refresh();
      } }, t("desk_lineup_set")));
  });
  return el("section", {}, el("h2", {}, t("desk_lineups", { n: ev.rounds.length + 1 })), rows);
}

let state = null;
function deskLive(ev) {
  const path = (a) => `/api/tournaments/${tid}/desk/${a}`;
  const cur = ev.rounds.length ? ev.rounds[ev.rounds.length - 1] : null;
  const startBtn = document.querySelector("[data-testid=start-round]");
  if (startBtn) {  // no second round while one is in play: the button says so
    const inPlay = cur && !cur.closed;
    startBtn.disabled = Boolean(inPlay);
    startBtn.textContent = inPlay ? t("desk_in_play", { n: cur.round }) : t("desk_start", { n: ev.rounds.length + 1 });
  }
  const tables = cur ? cur.tables.map((tab) => {
    const extra = [];
    if (tab.links) {
      extra.push(el("div", { class: "links", testid: `links-${tab.table}` }, t("desk_links"), ": ",
        Object.entries(tab.links).map(([k, href]) => el("a", { href, testid: `link-${tab.table}-${k}` }, k === "watch" ? t("desk_watch") : k))));
    }
    if (!cur.closed && tab.mode === "online") {
      const seat = el("select", { testid: `replace-seat-${tab.table}` }, ["N", "E", "S", "W"].map((s) => el("option", { value: s }, s)));
      extra.push(el("div", {}, t("desk_replace"), " ", seat, el("button", { testid: `replace-${tab.table}`, onclick: async () => {
        if (await act(path("replace"), { table: tab.table, seat: seat.value, level: "heuristic:medium" })) refresh();
      } }, t("desk_apply"))));
    }
    if (!cur.closed && tab.mode === "physical" && cur.timeout_at && !tab.complete) {
      extra.push(el("button", { testid: `finish-${tab.table}`, onclick: async () => { if (await act(path("finish"), { table: tab.table })) refresh(); } }, t("desk_finish")));
    }
    return tableCard(ev, tab, extra);
  }) : [];
  return [
    clockLine(ev),
    el("section", {}, el("h2", {}, t("desk_participants")), el("table", { testid: "entrants" },
      ev.entrants.map((e) => el("tr", {}, el("td", {}, e.id), el("td", {}, e.name), el("td", {}, e.players.join(", ")),
        el("td", {}, e.withdrawn ? t("desk_withdrawn") : el("button", { testid: `withdraw-${e.id}`, onclick: async () => {
          if (await act(path("withdraw"), { entrant: e.id })) refresh();
        } }, t("desk_withdraw"))))))),
    lineupForm(ev, cur),
    cur ? el("section", {}, el("h2", {}, t("t_round", { n: cur.round })), tables, cur.byes.length ? el("p", {}, t("t_bye"), ": ", cur.byes.map((b) => entrantName(ev, b)).join(", ")) : null) : null,
    el("section", {}, el("h2", {}, standingsTitle(ev)), standingsTable(ev)),
  ];
}

function publicLive(ev) {
  return [
    clockLine(ev), whereEverybodyPlays(ev),
    ev.rounds.slice().reverse().map((r) => el("section", {}, el("h2", {}, t("t_round", { n: r.round })), r.tables.map((tab) => tableCard(ev, tab)))),
    el("section", {}, el("h2", {}, standingsTitle(ev)), standingsTable(ev)),
    printLinks(),
  ];
}

let scoreInfo = null;
function scoreStatic(root) {
  const hand = el("span", { testid: "score-hand" });
  root.append(el("section", {}, el("h2", { testid: "score-enter-title" }, t("desk_enter", { n: "" }), hand),
    el("div", { class: "lines" }, el("div", {}, el("b", {}, "NS"), scoreInputs("ns")), el("div", {}, el("b", {}, "EW"), scoreInputs("ew"))),
    el("button", { testid: "score-submit", onclick: async () => {
      if (!scoreInfo) return;
      const next = scoreInfo.table.sheets.length + 1;
      if (await act(`/api/tournaments/${tid}/line/enter`, { hand: next, ns: readScore("ns"), ew: readScore("ew") })) refresh();
    } }, t("desk_enter", { n: "" }).trim())));
}
function scoreLive(info) {
  scoreInfo = info;
  document.getElementById("title").textContent = `${info.event} — ${t("desk_score_title", { round: info.round, table: info.table.table, line: info.line })}`;
  const hn = document.querySelector("[data-testid=score-hand]");
  if (hn) hn.textContent = info.table.sheets.length < info.hands ? String(info.table.sheets.length + 1) : "–";
  const pending = info.table.sheets.filter((s) => !s.counts && s.entered_by !== info.line);
  return [
    info.table.counted === info.hands ? el("p", { class: "ok", testid: "score-all" }, t("desk_all_entered")) : null,
    tableCard({ setup: { hands: info.hands }, entrants: [] }, info.table),
    pending.map((s) => el("button", { testid: `confirm-${s.hand}`, onclick: async () => {
      if (await act(`/api/tournaments/${tid}/line/confirm`, { hand: s.hand })) refresh();
    } }, `${t("desk_confirm")} — ${t("t_hand", { n: s.hand })}: NS ${s.ns_total}, EW ${s.ew_total}`)),
  ];
}

async function refresh() {
  const live = document.getElementById("live");
  let r;
  if (mode === "desk") r = await api("GET", `/api/tournaments/${tid}/desk`);
  else if (mode === "score") r = await api("GET", `/api/tournaments/${tid}/line`);
  else if (mode === "public") r = await api("GET", `/api/tournaments/${tid}`);
  else return;
  if (!r.ok) { say(t("desk_refused", { reason: r.data.message }), "error"); return; }
  let kids;
  if (mode === "score") kids = scoreLive(r.data);
  else {
    state = r.data;
    document.getElementById("title").textContent = `${r.data.setup.name}${r.data.setup.date ? " · " + r.data.setup.date : ""}` + (mode === "desk" ? ` — ${t("desk_title")}` : "");
    kids = mode === "desk" ? deskLive(r.data) : publicLive(r.data);
  }
  live.replaceChildren(...kids.flat().filter(Boolean));
  document.body.dataset.loaded = String(Date.now());
}

(async function main() {
  T = await (await fetch(`/api/tournament-texts/${lang}`)).json();
  document.documentElement.lang = lang;
  const root = document.getElementById("static");
  if (mode === "new") { newEventPage(root); return; }
  if (mode === "desk") deskStatic(root);
  if (mode === "score") scoreStatic(root);
  await refresh();
  setInterval(refresh, 2000);
})();
