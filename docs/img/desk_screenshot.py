"""Draw docs/img/desk.png and docs/img/desk-public.png, the screenshots of the tournament director's desk and of an
event's public page in docs/tournaments.md.

Run from the repository root: ``python docs/img/desk_screenshot.py [OUT_DIR] [--lang en]``. A ``burraco serve``
app is started on a temporary SQLite store; an event of four pairs is created through its API, round 1 starts with
table 1 online (four computer players) and table 2 at the club, whose lines enter and countersign the first hand;
once the online table has finished a hand, Debian's Chromium (``/usr/bin/chromium``, driven by Playwright) saves
the desk and the public page.
"""

from __future__ import annotations

import argparse
import json
import socket
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

PAIRS = [("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco"), ("Gino", "Ida")]
SHEET_WIN = {"clean": 1, "semiclean": 0, "dirty": 1, "closing": True, "melds": 205, "hand": 0, "pozzetto": True}
SHEET_LOSE = {"clean": 0, "semiclean": 0, "dirty": 0, "closing": False, "melds": 95, "hand": 40, "pozzetto": True}


def _call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


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


def shoot(out: Path, lang: str) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        base, server = _serve(Path(tmp) / "desk.sqlite3")
        made = _call(base, "POST", "/api/tournaments", {
            "name": "Torneo del giovedì", "date": "2026-12-03", "rounds": 2, "movements": "mitchell,danish",
            "hands": 3, "minutes": 60, "director": "Maria"})
        tid, token = made["id"], made["token"]
        desk_api = f"/api/tournaments/{tid}/desk"
        for a, b in PAIRS:
            _call(base, "POST", desk_api + "/register", {"name": f"{a} – {b}", "people": [a, b]}, token)
        computers = {s: "heuristic:easy" for s in "NESW"}
        started = _call(base, "POST", desk_api + "/start", {"online": [1], "computers": {"1": computers}}, token)
        links = started["rounds"][0]["tables"][1]["links"]
        ns, ew = (links[k].split("#t=")[1] for k in ("NS", "EW"))
        line = f"/api/tournaments/{tid}/line"
        _call(base, "POST", line + "/enter", {"hand": 1, "ns": SHEET_WIN, "ew": SHEET_LOSE}, ns)
        _call(base, "POST", line + "/confirm", {"hand": 1}, ew)
        _call(base, "POST", line + "/enter", {"hand": 2, "ns": SHEET_LOSE, "ew": SHEET_WIN}, ew)
        for _ in range(600):  # the online table's first hand
            if _call(base, "GET", desk_api, token=token)["rounds"][0]["tables"][0]["counted"] >= 1:
                break
            time.sleep(0.1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1100, "height": 900}, locale=lang)
            for name, url in (("desk.png", f"/tournament/{tid}/desk?lang={lang}#d={token}"),
                              ("desk-public.png", f"/tournament/{tid}?lang={lang}")):
                page.goto(base + url)
                page.wait_for_selector("[data-testid=standings]")
                page.screenshot(path=str(out / name), full_page=True)
            browser.close()
        server.should_exit = True
        time.sleep(0.5)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("out", nargs="?", default="docs/img")
    ap.add_argument("--lang", default="en")
    a = ap.parse_args()
    shoot(Path(a.out), a.lang)
