"""Draw docs/img/coach-hint-only.png: the browser's analysis of a game in which North played only the Hint button's
moves (issue 38: the coach never marks the hint's move), for docs/analysis.md.

Run from the repository root: ``python docs/img/coach_screenshot.py [OUT]``. A server (the tests' thread server, on
a temporary SQLite store) hosts an italian-2p table of one hand, North a human seat played through the websocket
with the server's hints (``hint`` then ``act``), South ``heuristic:hard``; then Debian's Chromium (driven by
Playwright) opens North's table link, asks "Analyse my play" and saves the replay with the coach's page once the
analysis is there.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT / "tests"))

from browser_support import launch, new_page  # noqa: E402
from server_support import Client, create, fast_config, hint_player, run, sqlite_url, thread_server  # noqa: E402


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img" / "coach-hint-only.png"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "coach.sqlite3"
        with thread_server(fast_config(sqlite_url(db), bot_delay=0.0, between_hands=600.0)) as s:
            t = create(s.url, preset="italian-2p", hands=1,
                       seats=[{"kind": "human", "name": "Ada"}, {"kind": "computer", "level": "heuristic:hard"}])

            async def go() -> int:
                c = await Client.open(s.ws_url)
                await c.hello(t["id"], t["tokens"]["N"])
                n = await hint_player(c)
                await c.close()
                return n

            moves = run(go(), 600)
            for browser in launch():
                page = new_page(browser, 1280, 900, timeout_ms=180000)
                page.goto(s.url + t["links"]["N"])
                page.locator("[data-testid=coach-link]").click()
                page.wait_for_url(f"**/t/{t['id']}/replay/0?coach=1")
                page.locator("[data-testid=r-summary]", has_text="Points lost").wait_for()
                page.screenshot(path=str(out), full_page=True)
                print(f"{out}: {moves} hinted moves, the coach's page: "
                      f"{page.locator('[data-testid=r-summary]').text_content()}")
                page.context.close()


if __name__ == "__main__":
    main()
