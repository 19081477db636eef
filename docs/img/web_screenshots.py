"""Take the screenshots of the browser table in the README and docs/web.md (docs/img/web-table-1280x800.png,
docs/img/web-table-390x844.png and docs/img/web-table-phone-big-hand.png) and measure the page (first paint, time
per incoming message, bytes on the wire; docs/performance.md).

Run from the repository root: ``python docs/img/web_screenshots.py [--out docs/img] [--lang en] [--chromium PATH]``.
A real server (SQLite in a temporary folder, quick computer players) seats you at North against three computers;
Playwright plays your moves from the hint in a 1280×800 window until both sides have melds on the table, asks for a
hint (it highlights its cards), and takes the desktop picture; the same seat opened on a 390×844 phone gives the
second. The third is a phone in the middle of a hand of 25 cards: two players draw and discard until North can
take the pile into 25 cards (the test deal of tests/server_support.py's ``big_hand``), then North asks for a hint.
Then the lobby, the table and a replay are loaded once each with an empty cache at 390×844 and the bytes they take
on the wire are added up (Chromium's own count, through the DevTools protocol). Prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # the tests' server and table helpers (server_support.py)

LOCALES = {"en": "en-US", "it": "it-IT", "de": "de-DE", "pt": "pt-BR", "nl": "nl-NL"}
MEDIUM = {"kind": "computer", "level": "heuristic:medium"}


def _my_move(page: Any) -> None:
    """One move from the hint, by clicks."""
    before = int(page.evaluate("document.body.dataset.n || '0'"))
    page.click("[data-testid=hint]")
    box = page.locator("[data-testid=hint-text][data-action]")
    box.wait_for()
    _, verb, *args = (box.get_attribute("data-action") or "").split()
    if verb in ("draw", "pick"):
        page.click(f"[data-testid={verb}]")
    else:
        for c in args[1:] if verb == "add" else args:
            page.locator(f"[data-testid=hand] .card[data-card='{c}']:not(.selected)").first.click(position={"x": 8, "y": 12})
        if verb == "add":
            page.locator(f"[data-testid=our-melds] [data-meld='{args[0]}']").click()
        else:
            page.click(f"[data-testid={'meld' if verb == 'meld' else 'discard'}]")
    page.wait_for_function(f"Number(document.body.dataset.n) > {before}")


def on_the_wire(browser: Any, url: str, ready: str) -> dict[str, Any]:
    """The bytes a first load of ``url`` (empty cache, 390×844) takes on the wire until ``ready`` shows and the
    page is quiet: Chromium's ``encodedDataLength`` of every HTTP answer (headers included), and per file."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", service_workers="block")
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    got: dict[str, dict[str, Any]] = {}
    cdp.on("Network.responseReceived", lambda e: got.setdefault(e["requestId"], {}).update(url=e["response"]["url"]))
    cdp.on("Network.loadingFinished", lambda e: got.setdefault(e["requestId"], {}).update(bytes=e["encodedDataLength"]))
    page.goto(url)
    page.locator(ready).first.wait_for()
    page.wait_for_timeout(1000)
    ctx.close()
    files = {x["url"].split("/", 3)[-1]: x["bytes"] for x in got.values() if x.get("url", "").startswith("http") and "bytes" in x}
    return {"total": sum(files.values()), "files": files}


def shoot(out: Path, lang: str, chromium: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from server_support import ThreadServer, big_hand, create, fast_config, in_thread, played_out, sqlite_url

    tmp = tempfile.mkdtemp()
    server = ThreadServer(fast_config(sqlite_url(Path(tmp) / "shots.sqlite3"), bot_delay=0.05,
                                      between_hands=600.0)).start()
    url = server.url
    figures: dict[str, Any] = {}
    locale = LOCALES[lang]
    try:
        t = create(url, preset="italian", hands=1, name="Friday club",
                   seats=[{"kind": "human", "name": "Anna"}, MEDIUM, MEDIUM, MEDIUM])
        big = create(url, preset="italian-2p", hands=1, name="Friday club",
                     seats=[{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "Bruno"}])
        in_thread(big_hand(server.ws_url, big, 25))
        done = create(url, preset="italian-2p", hands=1, seats=[{"kind": "human", "name": "Anna"}, MEDIUM])
        in_thread(played_out(server.ws_url, done))  # a finished game for the replay
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            ctx = b.new_context(viewport={"width": 1280, "height": 800}, locale=locale, bypass_csp=True,
                                reduced_motion="reduce")
            page = ctx.new_page()
            page.set_default_timeout(20000)
            page.goto(url + t["links"]["N"])
            page.locator("[data-testid=hand] .card").first.wait_for()
            figures["first_contentful_paint_ms"] = page.evaluate(
                "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
            for _ in range(300):
                page.wait_for_function("document.body.dataset.myturn || !document.querySelector('[data-testid=hand-end]').hidden")
                if page.locator("[data-testid=hand-end]").is_visible():
                    break
                melds = [page.locator(f"[data-testid={w}] .meld").count() for w in ("our-melds", "their-melds")]
                if min(melds) >= 2 and page.evaluate("document.body.dataset.myturn") == "play":
                    break
                _my_move(page)
            page.click("[data-testid=hint]")
            page.locator("[data-testid=hint-text][data-action]").wait_for()
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / "web-table-1280x800.png"))
            times = sorted(page.evaluate("window.__burracoRender || []"))
            figures["messages_measured"] = len(times)
            figures["per_message_ms_median"] = round(statistics.median(times), 3)
            figures["per_message_ms_p95"] = round(times[int(len(times) * 0.95)], 3)
            figures["per_message_ms_max"] = round(times[-1], 3)
            storage = ctx.storage_state()
            ctx.close()
            for name, link, w, h, hint in (("web-table-390x844.png", url + f"/t/{t['id']}", 390, 844, False),
                                           ("web-table-phone-big-hand.png", url + big["links"]["N"], 390, 844, True)):
                phone = b.new_context(viewport={"width": w, "height": h}, locale=locale, bypass_csp=True, has_touch=True,
                                      is_mobile=True, storage_state=storage, reduced_motion="reduce")
                page = phone.new_page()
                page.goto(link)
                page.locator("[data-testid=hand] .card").first.wait_for()
                if hint:
                    page.locator("[data-testid=hint]").tap()
                    page.locator("[data-testid=hint-text][data-action]").wait_for()
                page.wait_for_timeout(500)
                page.screenshot(path=str(out / name))
                phone.close()
            figures["on_the_wire_bytes"] = {
                "lobby": on_the_wire(b, url + "/", "[data-testid=tables] .trow"),
                "table": on_the_wire(b, url + t["links"]["N"], "[data-testid=hand] .card"),
                "replay": on_the_wire(b, url + f"/t/{done['id']}/replay/0", "[data-testid=r-board] .card"),
            }
            b.close()
    finally:
        server.stop()
    static = ROOT / "src" / "burraco" / "server" / "static"
    figures["js_css_bytes"] = sum(f.stat().st_size for f in static.iterdir() if f.suffix in (".js", ".css"))
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    ap.add_argument("--lang", default="en", choices=sorted(LOCALES))
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    print(json.dumps(shoot(args.out, args.lang, args.chromium), indent=1))


if __name__ == "__main__":
    main()
