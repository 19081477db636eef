"""Take the screenshots of the browser table in the README (docs/img/web-table-1280x800.png and
docs/img/web-table-390x844.png) and measure the page (first paint, time per incoming message; docs/performance.md).

Run from the repository root: ``python docs/img/web_screenshots.py [--out docs/img] [--lang en] [--chromium PATH]``.
A real server (SQLite in a temporary folder, quick computer players) seats you at North against three computers;
Playwright plays your moves from the hint in a 1280×800 window until both sides have melds on the table, asks for a
hint (it highlights its cards), and takes the desktop picture; the same seat opened on a 390×844 phone gives the
other. Prints the figures measured as JSON.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _create(url: str) -> dict[str, Any]:
    body = {"preset": "italian", "hands": 1, "name": "Friday club",
            "seats": [{"kind": "human", "name": "Anna"}, {"kind": "computer", "level": "heuristic:medium"},
                      {"kind": "computer", "level": "heuristic:medium"}, {"kind": "computer", "level": "heuristic:medium"}]}
    req = urllib.request.Request(url + "/api/tables", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as r:
        out: dict[str, Any] = json.loads(r.read())
    return out


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
            page.locator(f"[data-testid=hand] .card[data-card='{c}']:not(.selected)").first.click()
        if verb == "add":
            page.locator(f"[data-testid=our-melds] [data-meld='{args[0]}']").click()
        else:
            page.click(f"[data-testid={'meld' if verb == 'meld' else 'discard'}]")
    page.wait_for_function(f"Number(document.body.dataset.n) > {before}")


def shoot(out: Path, lang: str, chromium: str) -> dict[str, Any]:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from burraco.server import ServerConfig, create_app

    tmp = tempfile.mkdtemp()
    cfg = ServerConfig(db_url=f"sqlite+aiosqlite:///{tmp}/shots.sqlite3", bot_delay=0.05, between_hands=600.0)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(cfg), host="127.0.0.1", port=port, log_level="warning",
                                           ws="websockets-sansio", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    t = _create(url)
    link = url + t["links"]["N"]
    figures: dict[str, Any] = {}
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            locale = {"en": "en-US", "it": "it-IT", "de": "de-DE", "pt": "pt-BR", "nl": "nl-NL"}[lang]
            ctx = b.new_context(viewport={"width": 1280, "height": 800}, locale=locale, bypass_csp=True,
                                reduced_motion="reduce")
            page = ctx.new_page()
            page.set_default_timeout(20000)
            page.goto(link)
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
            phone = b.new_context(viewport={"width": 390, "height": 844}, locale=locale, bypass_csp=True,
                                  has_touch=True, is_mobile=True, storage_state=storage, reduced_motion="reduce")
            page = phone.new_page()
            page.goto(url + f"/t/{t['id']}")
            page.locator("[data-testid=hand] .card").first.wait_for()
            page.wait_for_timeout(500)
            page.screenshot(path=str(out / "web-table-390x844.png"))
            phone.close()
            b.close()
    finally:
        server.should_exit = True
        thread.join(timeout=20)
    static = Path(__file__).resolve().parents[2] / "src" / "burraco" / "server" / "static"
    figures["js_css_bytes"] = sum(f.stat().st_size for f in static.iterdir() if f.suffix in (".js", ".css"))
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    ap.add_argument("--lang", default="en", choices=["en", "it", "de", "pt", "nl"])
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    print(json.dumps(shoot(args.out, args.lang, args.chromium), indent=1))


if __name__ == "__main__":
    main()
