"""Tournament entrants linked to accounts (docs/accounts.md "Tournament entrants"), over real HTTP on SQLite and on
a real PostgreSQL server: the link is the account's id, so a renamed account stays linked (the desk, the public
page and the participants' CSV show its new name; a deleted one, the name it had); the participants' CSV carries
the accounts out (its ``account`` column) and in (checked all or nothing: an unknown account, or a bot's, changes
nothing)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from account_support import PASSWORD, account
from burraco.server.store import Store
from burraco.server.tournament_store import entries_t
from server_support import database, fast_config, run, thread_server
from test_server_tournament import call, new_event


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path / "store.sqlite3") as url:
        yield url


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def logged_people(db_url: str, tid: str) -> list[dict[str, Any]]:
    """The players of the event's ``register`` entries, as its log in the store keeps them."""
    async def go() -> list[dict[str, Any]]:
        store = Store(db_url)
        try:
            async with store.engine.connect() as conn:
                entries = list((await conn.execute(sa.select(entries_t.c.data).where(entries_t.c.tournament_id == tid)
                                                   .order_by(entries_t.c.n))).scalars())
        finally:
            await store.close()
        return [p for e in entries if e.get("type") == "register" for p in e["people"]]

    return run(go())


def test_entrants_are_linked_by_account_id_and_travel_in_the_csv(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        ann, bea = account(server.url, "Ann Rossi"), account(server.url, "Bea Bianchi")
        ann_id = ann.me()[1]["account"]["id"]
        status, page = ann.post("bot", {"name": "Annbot One"})
        assert status == 201
        d = new_event(server.url, rounds=1, movements="mitchell")
        d.ok("register", {"name": "Rossi – Neri", "people": [{"name": "Anna", "account": "ann rossi"}, "Bruno"]})

        # renamed: still linked, under the new name, on the desk, the public page and in the CSV
        assert ann.post("profile", {"name": "Ann Verdi"})[0] == 200
        [e] = d.desk()["entrants"]
        assert e["accounts"] == ["Ann Verdi", ""] and d.public()["entrants"][0]["accounts"] == ["Ann Verdi", ""]
        status, text = call(server.url, "GET", f"/api/tournaments/{d.id}/print/participants.csv", token=d.token)
        assert status == 200
        text = text.decode() if isinstance(text, bytes) else text
        assert text.splitlines()[0] == "id,entrant,name,club,member,categories,account"
        assert [(r["name"], r["account"]) for r in rows(text)] == [("Anna", "Ann Verdi"), ("Bruno", "")]

        # the CSV goes into another event with its accounts, each linked by its id
        other = new_event(server.url, rounds=1, movements="mitchell")
        extra = text + "2,Bianchi – Gallo,Bea,,,,BEA BIANCHI\n2,Bianchi – Gallo,Gino,,,,\n"
        out = other.ok("import", raw=extra.encode())
        assert [x["accounts"] for x in out["entrants"]] == [["Ann Verdi", ""], ["Bea Bianchi", ""]]
        linked = [p for p in logged_people(db_url, other.id) if p.get("account_id")]
        assert [(p["account"], p["account_id"]) for p in linked] == [
            ("Ann Verdi", ann_id), ("Bea Bianchi", bea.me()[1]["account"]["id"])]

        # all or nothing: an unknown account's name, or a bot's, registers nobody
        for bad, name in (("Nobody Here", "Nobody Here"), ("annbot one", "annbot one")):
            third = new_event(server.url, rounds=1, movements="mitchell")
            status, answer = third.do("import", raw=f"entrant,name,account\nX – Y,Xavier,{bad}\nX – Y,Yves,\n"
                                      .encode())
            assert status == 400 and answer["error"] == "no_account" and name in answer["message"], answer
            assert third.desk()["entrants"] == []

        # deleted: each event shows the name the account had when it was linked there (as the log keeps it)
        assert ann.post("delete", {"password": PASSWORD})[0] == 303
        assert d.public()["entrants"][0]["accounts"] == ["Ann Rossi", ""]
        assert other.public()["entrants"][0]["accounts"] == ["Ann Verdi", ""]

