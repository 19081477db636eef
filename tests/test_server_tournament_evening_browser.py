"""A 16-pair club evening at the director's desk, in a real browser (issue 40): Playwright driving Debian's Chromium
against ``burraco serve`` running as a process (so it can be killed with SIGKILL). The director signs in to create
the event (the server asks for its directors' password), imports the pairs, and runs 3 Mitchell rounds and a
Danish modified one of 3 hands: table 8 online with computer players, tables 1–7 at the club, their paper sheets
typed into the desk's paper-entry grid with the keyboard alone. Round 2 has a time-out (a club table marks the
hand of the time-out, one is ended by the director, the rest end when the round closes; the online table ends
with its hand), round 1 a correction, a pair a penalty, round 3 a kill -9 of the server and a restart. The
standings on the page are checked against a computation by hand of every sheet (RULES.md §10.1, the VP table of
§12.3, the ties of §0.1), and the final results PDF is read back (and rendered to PNG where pypdfium2 is
installed, for a person to look at)."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import new_page as browser_page
from browser_support import require
from server_support import free_port, server_process, sqlite_url

require()
pypdf = pytest.importorskip("pypdf")

TIMEOUT_MS = 60000
PASSWORD = "giovedi-2026"
ENV = {"BURRACO_DIRECTOR_SIGNIN": "on", "BURRACO_DIRECTOR_PASSWORD": PASSWORD, "BURRACO_BOT_DELAY": "0.05",
       "BURRACO_COMPUTER_DELAY": "0.05", "BURRACO_BETWEEN_HANDS": "0"}
FIELDS = ("clean", "semiclean", "dirty", "closing", "melds", "hand", "pozzetto")
#: RULES.md §12.3, the 3-hand table: (largest MP difference, winner's VP, loser's VP)
VP3 = [(50, 10, 10), (150, 11, 9), (250, 12, 8), (350, 13, 7), (500, 14, 6), (650, 15, 5), (800, 16, 4),
       (1000, 17, 3), (1250, 18, 2), (1500, 19, 1), (10**9, 20, 0)]
PLAYERS = [("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco"), ("Gino", "Ida"), ("Lia", "Maria"),
           ("Nino", "Olga"), ("Paolo", "Rita"), ("Sara", "Tino"), ("Ugo", "Vera"), ("Walter", "Zoe"),
           ("Alba", "Bice"), ("Ciro", "Dina"), ("Ezio", "Fede"), ("Gaia", "Ilio"), ("Lea", "Mino"),
           ("Nora", "Otto")]
LADIES = {"5", "11"}


def points(s: dict[str, Any]) -> int:
    """A line's MP for a hand, by hand (§10.1): honours, card points, minus the points in hand and the pozzetto."""
    return (200 * s["clean"] + 150 * s["semiclean"] + 100 * s["dirty"] + (100 if s["closing"] else 0) + s["melds"]
            - s["hand"] - (0 if s["pozzetto"] else 100))


def vp(a: int, b: int) -> tuple[int, int]:
    d = abs(a - b)
    w, lo = next((w, lo) for bound, w, lo in VP3 if d <= bound)
    return (w, lo) if a >= b else (lo, w)


def possible_sheet(rng: random.Random) -> dict[str, dict[str, Any]]:
    """A hand's two lines as a club's sheet may have them (always possible under §0.1 "Score sheets")."""
    closer = rng.choice(["ns", "ew", None])
    out: dict[str, dict[str, Any]] = {}
    for ln in ("ns", "ew"):
        clean = 1 if closer == ln else rng.randint(0, 1)
        dirty = rng.randint(0, 1)
        least = max(15, 35 * (clean + dirty))
        out[ln] = {"clean": clean, "semiclean": 0, "dirty": dirty, "closing": closer == ln,
                   "melds": 5 * rng.randint(least // 5, 60), "hand": 5 * rng.randint(0, 6 if closer == ln else 30),
                   "pozzetto": closer == ln or rng.random() < 0.8}
    return out


class Evening:
    """The server process, the director's page and what the test typed (its own record of every sheet)."""

    def __init__(self, db: str, browser: Any, tmp: Path) -> None:
        self.db, self.browser, self.tmp = db, browser, tmp
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = server_process(db, self.port, ENV)
        self.page = browser_page(browser, 1400, 1000, timeout_ms=TIMEOUT_MS)
        self.rng = random.Random(40)
        self.typed: dict[tuple[int, int, int], dict[str, dict[str, Any]]] = {}  # (round, table, hand) -> sheet
        self.tid = ""
        self.token = ""

    def restart(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.proc = server_process(self.db, self.port, ENV)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)

    def api(self, path: str) -> Any:
        req = urllib.request.Request(self.base + path, headers={"Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    def desk(self) -> dict[str, Any]:
        return dict(self.api(f"/api/tournaments/{self.tid}/desk"))

    def click_twice(self, testid: str) -> None:
        """A button that asks first (the time-out, the close): click, see the question, click again."""
        b = self.page.locator(f"[data-testid={testid}]")
        b.click()
        assert "Click again" in b.text_content()
        b.click()

    def wait_done(self) -> None:
        self.page.wait_for_selector("[data-testid=msg].ok")

    def start_round(self, online: str) -> int:
        p = self.page
        n = len(self.desk()["rounds"]) + 1
        p.fill("[data-testid=online-tables]", online)
        if online:
            p.check("[data-testid=computers]")
        p.click("[data-testid=start-round]")
        p.wait_for_selector(f"[data-testid=start-round] >> text=Round {n} in play")
        p.wait_for_selector("[data-testid=paper-row-1]")
        return n

    def type_hand(self, rnd: int, table: int, timeout: bool = False) -> None:
        """The next hand of a club table into the paper grid, with the keyboard alone: figures typed, Tab from box
        to box, Space for a tick box, Enter to record the row."""
        p = self.page
        hand = int(p.locator(f"[data-testid=paper-{table}-hand]").text_content())
        sheet = possible_sheet(self.rng)
        boxes = [(ln, k) for ln in ("ns", "ew") for k in FIELDS]
        p.locator(f"[data-testid=paper-{table}-ns-clean]").focus()
        for i, (ln, k) in enumerate(boxes):
            v = sheet[ln][k]
            if isinstance(v, bool):
                if p.locator(f"[data-testid=paper-{table}-{ln}-{k}]").is_checked() != v:
                    p.keyboard.press("Space")
            elif v:
                p.keyboard.type(str(v))
            if i < len(boxes) - 1:
                p.keyboard.press("Tab")
        if timeout:  # the last box: "the time-out was announced during this hand"
            p.keyboard.press("Tab")
            p.keyboard.press("Space")
        # every key landed in its box (the page must never move the focus while the director types)
        for ln, k in boxes:
            box = p.locator(f"[data-testid=paper-{table}-{ln}-{k}]")
            v = sheet[ln][k]
            got = box.is_checked() if isinstance(v, bool) else box.input_value()
            assert got == (v if isinstance(v, bool) else (str(v) if v else "")), (table, hand, ln, k, got, sheet)
        p.keyboard.press("Enter")
        try:
            p.wait_for_function(
                f"document.querySelector('[data-testid=paper-{table}-hand]').textContent !== '{hand}'")
        except Exception as e:  # say what the page said: the row's status and the desk's message
            status = p.locator(f"[data-testid=paper-{table}-status]").text_content()
            msg = p.locator("[data-testid=msg]").text_content()
            values = {f"{ln}-{k}": p.locator(f"[data-testid=paper-{table}-{ln}-{k}]").input_value() for ln, k in boxes}
            raise AssertionError(f"table {table} hand {hand} not recorded: status {status!r}, message {msg!r}, "
                                 f"typed {sheet}, boxes {values}") from e
        self.typed[(rnd, table, hand)] = sheet

    def wait_online_complete(self, table: int) -> None:
        self.page.wait_for_function(
            f"document.querySelector('[data-testid=table-{table}]').classList.contains('complete')", timeout=240000)


@pytest.fixture()
def evening(tmp_path: Path, browser: Any) -> Iterator[Evening]:
    e = Evening(sqlite_url(tmp_path / "evening.sqlite3"), browser, tmp_path)
    try:
        yield e
    finally:
        e.stop()


def test_a_16_pair_evening_on_the_desk(evening: Evening) -> None:
    e, p = evening, evening.page
    # ----- the director signs in to create the event (this server asks for its directors' password)
    p.goto(e.base + "/tournament/new?lang=en")
    p.wait_for_selector("[data-testid=new-password]")
    p.fill("[data-testid=new-name]", "Giovedì sera")
    p.fill("[data-testid=new-director]", "Rita")
    p.fill("[data-testid=new-prizes]", "3, ladies:1")
    p.fill("[data-testid=new-password]", "wrong")
    p.click("[data-testid=new-create]")
    p.wait_for_selector("[data-testid=msg].error")
    assert "not the directors' password" in p.locator("[data-testid=msg]").text_content()
    p.fill("[data-testid=new-password]", PASSWORD)
    p.click("[data-testid=new-create]")
    p.wait_for_url("**/desk#d=*")
    e.tid = p.url.split("/tournament/")[1].split("/")[0]
    e.token = p.url.split("#d=")[1]
    # ----- sixteen pairs from a CSV, with clubs, membership numbers and the ladies' category
    rows = ["entrant,name,club,member,categories"]
    for i, (a, b) in enumerate(PLAYERS, 1):
        cat = "ladies" if str(i) in LADIES else ""
        rows += [f"{a} – {b},{a},BC Roma,IT{i:03d}1,{cat}", f"{a} – {b},{b},BC Roma,IT{i:03d}2,"]
    p.wait_for_selector("[data-testid=csv-text]")
    p.fill("[data-testid=csv-text]", "\n".join(rows))
    p.click("[data-testid=csv-import]")
    p.wait_for_function("document.querySelectorAll('[data-testid=entrants] tr').length === 16")
    assert e.desk()["setup"]["movements"] == ["mitchell", "mitchell", "mitchell", "danish_modified"]

    # ----- round 1: table 8 online, tables 1-7 from paper
    r = e.start_round("8")
    # an impossible sheet is refused as it is typed, naming the rule (§0.1 "Score sheets"), and stores nothing
    p.locator("[data-testid=paper-1-ns-melds]").focus()
    p.keyboard.type("5000")
    p.wait_for_selector("[data-testid=paper-1-status] >> text=more than the whole deck holds")
    p.keyboard.press("Enter")
    p.wait_for_selector("[data-testid=msg].error")
    assert e.desk()["rounds"][0]["tables"][0]["sheets"] == []
    p.fill("[data-testid=paper-1-ns-melds]", "")
    for t in range(1, 8):
        for _ in range(3):
            e.type_hand(r, t)
    assert "done" in p.locator("[data-testid=paper-row-1]").get_attribute("class")
    e.wait_online_complete(8)
    e.click_twice("close-round")
    e.wait_done()
    p.wait_for_selector("[data-testid=standings-title] >> text=Standings after round 1")
    # the director corrects a sheet of round 1 (with the reason) and gives a penalty
    fixed = {"ns": {"clean": 1, "semiclean": 0, "dirty": 0, "closing": True, "melds": 150, "hand": 0,
                    "pozzetto": True},
             "ew": {"clean": 0, "semiclean": 0, "dirty": 0, "closing": False, "melds": 40, "hand": 90,
                    "pozzetto": False}}
    for k, v in (("round", 1), ("table", 3), ("hand", 2)):
        p.fill(f"[data-testid=corr-{k}]", str(v))
    for ln in ("ns", "ew"):
        for k in FIELDS:
            box = p.locator(f"[data-testid=corr-{ln}-{k}]")
            if isinstance(fixed[ln][k], bool):
                box.set_checked(fixed[ln][k])
            else:
                box.fill(str(fixed[ln][k]))
    p.fill("[data-testid=corr-reason]", "EW's points in hand miscounted")
    p.click("[data-testid=corr-apply]")
    e.wait_done()
    e.typed[(1, 3, 2)] = fixed
    p.fill("[data-testid=pen-entrant]", "6")
    p.fill("[data-testid=pen-vp]", "2")
    p.fill("[data-testid=pen-reason]", "slow play")
    p.click("[data-testid=pen-apply]")
    p.wait_for_selector("[data-testid=penalties] >> text=slow play")

    # ----- round 2: the time-out
    r = e.start_round("8")
    for t in range(1, 8):
        e.type_hand(r, t)
    e.click_twice("timeout")
    p.wait_for_selector("[data-testid=clock] >> text=time-out announced")
    assert p.locator("[data-testid=finishing]").count() == 1  # "still finishing after the time-out: …"
    e.type_hand(r, 1, timeout=True)  # table 1 marks hand 2 as the hand of the time-out: its match ends with it
    p.wait_for_selector("[data-testid=progress-1] >> text=the hand of the time-out")
    e.type_hand(r, 2)  # table 2 finished hand 2 when time was called; the director ends it
    p.click("[data-testid=finish-2]")
    p.wait_for_selector("[data-testid=progress-2] >> text=finished after the time-out")
    e.wait_online_complete(8)  # the online table ends with the hand it was playing (or stops between hands)
    e.click_twice("close-round")  # tables 3-7 end with their one hand
    e.wait_done()
    r2 = e.desk()["rounds"][1]
    assert [t["counted"] for t in r2["tables"][:7]] == [2, 2, 1, 1, 1, 1, 1]
    online = r2["tables"][7]
    assert online["counted"] <= 3 and (online["timeout_hand"] == online["counted"] or online["finished"]
                                       or online["counted"] == 3)

    # ----- round 3: the server is killed mid-round and started again
    r = e.start_round("8")
    for t in range(1, 8):
        e.type_hand(r, t)
    for t in range(1, 4):
        e.type_hand(r, t)
    before = e.desk()["rounds"][2]
    e.restart()
    p.reload()
    p.wait_for_selector("[data-testid=paper-row-1]")
    after = e.desk()["rounds"][2]
    assert [t["sheets"] for t in after["tables"][:7]] == [t["sheets"] for t in before["tables"][:7]]
    for t in range(1, 8):
        while p.locator(f"[data-testid=paper-{t}-hand]").text_content() != "✓":
            e.type_hand(r, t)
    e.wait_online_complete(8)
    e.click_twice("close-round")
    e.wait_done()

    # ----- round 4: Danish modified, every table at the club
    r = e.start_round("")
    tables4 = e.desk()["rounds"][3]["tables"]
    previous = {x: y for t in e.desk()["rounds"][2]["tables"] for x, y in ((t["ns"]["entrants"][0],
                t["ew"]["entrants"][0]), (t["ew"]["entrants"][0], t["ns"]["entrants"][0]))}
    assert not any(previous[t["ns"]["entrants"][0]] == t["ew"]["entrants"][0] for t in tables4)  # no rematch
    for t in range(1, 9):
        for _ in range(3):
            e.type_hand(r, t)
    e.click_twice("close-round")
    e.wait_done()
    p.wait_for_selector("[data-testid=start-round] >> text=All 4 rounds played")
    assert p.locator("[data-testid=start-round]").is_disabled()

    # ----- the standings against a computation by hand
    final = e.desk()
    want = by_hand(final, e.typed)
    got = [(s["rank"], s["entrant"], s["vp"], s["mp_for"], s["mp_against"]) for s in final["standings"]]
    assert got == want, (got, want)
    page_rows = [r.locator("td").all_text_contents() for r in p.locator("[data-testid=standings] tr").all()[1:]]
    assert [(int(c[0]), c[1].split(".")[0], int(c[3])) for c in page_rows] == [(g[0], g[1], g[2]) for g in want]
    six = next(s for s in final["standings"] if s["entrant"] == "6")
    assert six["penalty_vp"] == 2
    assert final["prizes"][1]["category"] == "ladies" and final["prizes"][1]["winners"]
    # ----- the final results, printed
    resp = p.request.get(e.base + f"/api/tournaments/{e.tid}/print/final.pdf?lang=en")
    assert resp.ok
    text = "".join(x.extract_text() for x in pypdf.PdfReader(io.BytesIO(resp.body())).pages)
    assert "Final results" in text and "slow play" in text and "Prizes" in text
    for a, b in PLAYERS:
        assert f"{a} – {b}" in text
    try:  # for a person to look at (docs/tournaments.md): the PDF as a picture
        import pypdfium2

        out = Path(os.environ.get("BURRACO_EVENING_PNG", e.tmp))
        pypdfium2.PdfDocument(resp.body())[0].render(scale=1.2).to_pil().save(out / "final-results.png")
    except ImportError:
        pass


def by_hand(desk: dict[str, Any], typed: dict[tuple[int, int, int], dict[str, dict[str, Any]]]) -> list[Any]:
    """The standings computed from the sheets alone: each table's counted hands (the typed ones, the online
    table's as its sheets say), their MP by §10.1, the VP by §12.3, the penalties, then the order of §0.1
    "Ranking ties" (head-to-head only where every member of a group met every other equally; then MP
    difference; then MP scored; level after that: one shared rank)."""
    acc: dict[str, list[int]] = {x["id"]: [0, 0, 0] for x in desk["entrants"]}  # vp, for, against
    met: dict[frozenset[str], list[tuple[str, int, int]]] = {}
    for rnd in desk["rounds"]:
        for t in rnd["tables"]:
            ns, ew = t["ns"]["entrants"][0], t["ew"]["entrants"][0]
            mp = [0, 0]
            for s in t["sheets"][: t["counted"]]:
                sheet = typed.get((rnd["round"], t["table"], s["hand"])) if t["mode"] == "physical" else s
                assert sheet is not None
                mp[0] += points(sheet["ns"])
                mp[1] += points(sheet["ew"])
            v = vp(mp[0], mp[1])
            for x, i in ((ns, 0), (ew, 1)):
                acc[x][0] += v[i]
                acc[x][1] += mp[i]
                acc[x][2] += mp[1 - i]
            met.setdefault(frozenset((ns, ew)), []).append((ns, v[0], mp[0] - mp[1]))
    for pen in desk["penalties"]:
        acc[pen["entrant"]][0] -= pen["vp"]
        acc[pen["entrant"]][1] -= pen["mp"]
    out: list[tuple[str, Any]] = []
    for level in sorted({a[0] for a in acc.values()}, reverse=True):
        group = [x for x in acc if acc[x][0] == level]
        keys: list[dict[str, int]] = []
        counts = {len(met.get(frozenset((a, b)), [])) for a in group for b in group if a < b}
        if len(group) > 1 and len(counts) == 1 and min(counts) > 0:  # step 1: every member met every other
            h2h_vp = dict.fromkeys(group, 0)
            h2h_mp = dict.fromkeys(group, 0)
            for a in group:
                for b in group:
                    for ns, v_ns, d in met.get(frozenset((a, b)), []) if a < b else []:
                        ew = b if ns == a else a
                        h2h_vp[ns] += v_ns
                        h2h_vp[ew] += 20 - v_ns
                        h2h_mp[ns] += d
                        h2h_mp[ew] -= d
            keys += [h2h_vp, h2h_mp]
        keys += [{x: acc[x][1] - acc[x][2] for x in group}, {x: acc[x][1] for x in group}]
        out += [(x, tuple(-k[x] for k in keys)) for x in group]
    out.sort(key=lambda xk: (-acc[xk[0]][0], xk[1]))
    ranked: list[Any] = []
    for i, (x, key) in enumerate(out):
        level_with_previous = i and acc[out[i - 1][0]][0] == acc[x][0] and out[i - 1][1] == key
        rank = ranked[-1][0] if level_with_previous else i + 1
        ranked.append((rank, x, acc[x][0], acc[x][1], acc[x][2]))
    # entrants level on everything share a rank; the page lists them in its own (seeded) order
    by_rank: dict[int, list[Any]] = {}
    for row in ranked:
        by_rank.setdefault(row[0], []).append(row)
    page_order = [s["entrant"] for s in desk["standings"]]
    return [row for rank in sorted(by_rank) for row in sorted(by_rank[rank], key=lambda r: page_order.index(r[1]))]
