// Entry point: the page by the address (the lobby, a table or a replay), its modules only (asked for all at once),
// its texts in the chosen language (the engine's catalogues), then the page; the service worker that keeps the
// page for offline use. The server gives every module its content-hashed name (server/assets.py).
import { start } from "./core.js";

const MODULES = {
  lobby: ["./lobby.js"],
  table: ["./table.js", "./tablestate.js", "./hand.js", "./felt.js", "./panels.js", "./fair.js"],
  replay: ["./replay.js", "./fair.js"],
};
const path = location.pathname;
const mTable = path.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
const mReplay = path.match(/^\/t\/([A-Za-z0-9]+)\/replay\/(\d+)$/);
const page = mReplay ? "replay" : mTable ? "table" : "lobby";
for (const href of MODULES[page].slice(1)) {
  const link = document.createElement("link");
  link.rel = "modulepreload";
  link.href = new URL(href, import.meta.url).href;
  document.head.append(link);
}
Promise.all([import(MODULES[page][0]), start(page)]).then(([mod]) => {
  if (mReplay) mod.replayMain(mReplay[1], Number(mReplay[2]));
  else if (mTable) mod.tableMain(mTable[1]);
  else mod.lobby();
});
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => navigator.serviceWorker.register("/sw.js").catch(() => { /* not over plain http on another host */ }));
}
