// Entry point: the language first (the engine's catalogues), then the lobby, a table or a replay by the address.
import { start } from "./core.js";
import { lobby } from "./lobby.js";
import { tableMain } from "./table.js";
import { replayMain } from "./replay.js";

const path = location.pathname;
const mTable = path.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
const mReplay = path.match(/^\/t\/([A-Za-z0-9]+)\/replay\/(\d+)$/);
start().then(() => {
  if (mReplay) replayMain(mReplay[1], Number(mReplay[2]));
  else if (mTable) tableMain(mTable[1]);
  else lobby();
});
