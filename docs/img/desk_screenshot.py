"""Draw docs/img/desk.png, docs/img/desk-public.png and docs/img/desk-print.png: the tournament director's desk, an
event's public page and two printouts, for docs/tournaments.md.

Run from the repository root: ``python docs/img/desk_screenshot.py [OUT_DIR] [--lang en]``. A ``burraco serve``
app is started on a temporary SQLite store; a 16-pair event is created through its API, round 1 is played (table 8
online with computer players, the club tables' sheets entered by the director) and closed, a pair is penalised,
round 2 starts and a few of its sheets are entered; then Debian's Chromium (``/usr/bin/chromium``, driven by
Playwright) types an impossible figure into the paper-entry grid and saves the desk and the public page. The table
card and the score sheet of round 2 are rendered from their PDF with pypdfium2 (``pip install pypdfium2``: only
this script needs it) and put side by side.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

PLAYERS = [("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco"), ("Gino", "Ida"), ("Lia", "Maria"),
           ("Nino", "Olga"), ("Paolo", "Rita"), ("Sara", "Tino"), ("Ugo", "Vera"), ("Walter", "Zoe"),
           ("Alba", "Bice"), ("Ciro", "Dina"), ("Ezio", "Fede"), ("Gaia", "Ilio"), ("Lea", "Mino"),
           ("Nora", "Otto")]


def _call(base: str, method: str, path: str, body: Any = None, token: str | None = None, raw: bytes | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:
        out = r.read()
        return json.loads(out) if "json" in r.headers.get("content-type", "") else out


def _serve(db: Path) -> tuple[str, Any]:
    import uvicorn

    from burraco.server import ServerConfig, create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    cfg = ServerConfig(db_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.01, between_hands=0.0,
                       computer_table_delay=0.0)
    server = uvicorn.Server(uvicorn.Config(create_app(cfg), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/api/health", timeout=1).read()
            return base, server
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the server did not start")


def _sheet(rng: random.Random) -> dict[str, dict[str, Any]]:
    """Two lines of a possible hand (RULES.md §0.1 "Score sheets")."""
    closer = rng.choice(["ns", "ew"])
    out = {}
    for ln in ("ns", "ew"):
        clean, dirty = (1 if ln == closer else rng.randint(0, 1)), rng.randint(0, 1)
        out[ln] = {"clean": clean, "semiclean": 0, "dirty": dirty, "closing": ln == closer,
                   "melds": 5 * rng.randint(max(3, 7 * (clean + dirty)), 60),
                   "hand": 5 * rng.randint(0, 4 if ln == closer else 30), "pozzetto": ln == closer or rng.random() < .8}
    return out


def _wait(base: str, api: str, token: str, pred: Any) -> dict[str, Any]:
    for _ in range(1200):
        d = _call(base, "GET", api, token=token)
        if pred(d):
            return dict(d)
        time.sleep(0.1)
    raise RuntimeError("the online table did not get there")


def shoot(out: Path, lang: str) -> None:
    from playwright.sync_api import sync_playwright

    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        base, server = _serve(Path(tmp) / "desk.sqlite3")
        made = _call(base, "POST", "/api/tournaments", {
            "name": "Torneo del giovedì", "date": "2026-12-03", "rounds": 4, "hands": 3, "minutes": 60,
            "director": "Maria", "prizes": "3, ladies:1"})
        tid, token = made["id"], made["token"]
        api = f"/api/tournaments/{tid}/desk"
        rows = ["entrant,name,club,member,categories"]
        for i, (a, b) in enumerate(PLAYERS, 1):
            rows += [f"{a} – {b},{a},BC Roma,IT{i:03d}1,{'ladies' if i in (5, 11) else ''}",
                     f"{a} – {b},{b},BC Roma,IT{i:03d}2,"]
        _call(base, "POST", api + "/import", raw="\n".join(rows).encode(), token=token)
        computers = {"8": {s: "heuristic:easy" for s in "NESW"}}
        _call(base, "POST", api + "/start", {"online": [8], "computers": computers}, token)
        for t in range(1, 8):
            for h in (1, 2, 3):
                _call(base, "POST", api + "/enter", {"table": t, "hand": h, **_sheet(rng)}, token)
        _wait(base, api, token, lambda d: d["rounds"][0]["tables"][7]["complete"])
        _call(base, "POST", api + "/close", {}, token)
        _call(base, "POST", api + "/penalty", {"entrant": "6", "vp": 2, "reason": "slow play"}, token)
        _call(base, "POST", api + "/start", {"online": [8], "computers": computers}, token)
        for t in range(1, 6):
            _call(base, "POST", api + "/enter", {"table": t, "hand": 1, **_sheet(rng)}, token)
        for t in (1, 2, 3):
            _call(base, "POST", api + "/enter", {"table": t, "hand": 2, **_sheet(rng)}, token)
        _wait(base, api, token, lambda d: d["rounds"][1]["tables"][7]["counted"] >= 1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1400, "height": 1250}, locale=lang)
            page.goto(base + f"/tournament/{tid}/desk?lang={lang}#d={token}")
            page.wait_for_selector("[data-testid=paper-row-6]")
            page.locator("[data-testid=paper-6-ns-clean]").focus()
            page.keyboard.type("1")
            page.keyboard.press("Tab")
            page.keyboard.press("Tab")
            page.keyboard.press("Tab")
            page.keyboard.press("Space")
            page.keyboard.press("Tab")
            page.keyboard.type("5000")
            page.wait_for_selector("[data-testid=paper-6-status] >> text=/\\S/")
            page.wait_for_selector("[data-testid=standings]")
            page.screenshot(path=str(out / "desk.png"))
            page = browser.new_page(viewport={"width": 1100, "height": 1000}, locale=lang)
            page.goto(base + f"/tournament/{tid}?lang={lang}")
            page.wait_for_selector("[data-testid=standings]")
            page.screenshot(path=str(out / "desk-public.png"))
            browser.close()
        pdfs = [_call(base, "GET", f"/api/tournaments/{tid}/print/{doc}.pdf?round=2&lang={lang}")
                for doc in ("tablecards", "sheets")]
        server.should_exit = True
        time.sleep(0.5)
    _side_by_side(pdfs, out / "desk-print.png")


def _side_by_side(pdfs: list[bytes], path: Path) -> None:
    """The first page of each PDF, rendered, on one picture (the same height)."""
    import pypdfium2
    from PIL import Image

    pages = [pypdfium2.PdfDocument(b)[0].render(scale=1.0).to_pil() for b in pdfs]
    height = 760
    pages = [p.resize((round(p.width * height / p.height), height)) for p in pages]
    gap = 24
    canvas = Image.new("RGB", (sum(p.width for p in pages) + gap * (len(pages) + 1), height + 2 * gap), "#d9d9d9")
    x = gap
    for p in pages:
        canvas.paste(p, (x, gap))
        x += p.width + gap
    canvas.save(path)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("out", nargs="?", default="docs/img")
    ap.add_argument("--lang", default="en")
    a = ap.parse_args()
    shoot(Path(a.out), a.lang)
