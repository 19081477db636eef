// A site administrator's tools at the table (docs/accounts.md "Administrators"), loaded by panels.js for his page
// only: a button beside each chat line that removes it for everyone, and "Close this table" (it asks first). Each
// request carries the CSRF token of GET /api/session; done, the table's own event (chat_removed, closed) tells
// every page, this one too; refused, the server says why in the page's language.
import { $, el, t } from "./core.js";
import { S, say } from "./tablestate.js";

export function tools(account) {
  async function post(path, body) {
    const r = await fetch(`/api/admin/${path}?lang=` + encodeURIComponent(document.documentElement.lang || "en"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": account.csrf },
      body: JSON.stringify({ table: S.tableId, ...body }),
    });
    if (!r.ok) say(((await r.json().catch(() => null)) || {}).message || `HTTP ${r.status}`);
  }
  $("bAdminClose").onclick = () => $("confirmClose").showModal();
  $("closeYes").onclick = () => { $("confirmClose").close(); post("close-table", {}); };
  $("closeNo").onclick = () => $("confirmClose").close();
  const label = t("web_chat_remove");
  return {
    chatLine: (x) => el("div", { "data-n": x.n }, el("span", { text: x.text }), " ",
      el("button", { type: "button", class: "chat-remove", "data-testid": "chat-remove", "aria-label": label, title: label, text: "✕", onclick: () => post("remove-chat", { n: x.n }) })),
    // nothing left to close once the table is closed or finished
    drawClose() { const st = S.state && S.state.table ? S.state.table.status : null; $("bAdminClose").hidden = st === "finished" || st === "abandoned"; },
  };
}
