"""Refusals in the requester's language (docs/protocol.md "Error codes", docs/accounts.md): every refusal of the
JSON API (tables, lobby, accounts, tournaments) and of the websocket is a message of the one catalogue
(burraco.lang), rendered over HTTP in ``?lang=``, else the signed-in account's language, else ``Accept-Language``;
over the websocket in hello's ``lang``, else the ``Accept-Language`` of the handshake. The machine-readable codes
stay what docs/protocol.md lists; a websocket refusal keeps its English ``message`` and adds ``msg`` and ``text``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from account_support import PASSWORD, Browser, visitor
from burraco.messages import msg, render
from server_support import WAIT, Client, create, fast_config, run, sqlite_url, thread_server

SERVER = Path(__file__).resolve().parents[1] / "src" / "burraco" / "server"


def call(b: Browser, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, dict[str, Any]]:
    data = None if body is None else json.dumps(body).encode()
    status, _, text = b.request(method, path, data, {"Content-Type": "application/json", **headers})
    return status, json.loads(text)


def test_http_refusals_speak_the_requesters_language(tmp_path: Path) -> None:
    """The same refusals in Italian (``?lang=it``) and German (``Accept-Language: de``), English by default; a
    signed-in account's own language comes before the browser's, ``?lang=`` before both; the codes do not move."""
    with thread_server(fast_config(sqlite_url(tmp_path / "s.sqlite3"))) as server:
        guest = Browser(server.url)
        status, out = call(guest, "GET", "/api/tables/nosuchtable?lang=it")
        assert status == 404 and out["error"] == "not_found"
        assert out["message"] == "nessun tavolo con questo nome" == render(msg("srv_no_such_table"), "it")
        assert out["msg"] == {"code": "srv_no_such_table", "params": {}}
        status, out = call(guest, "GET", "/api/tables/nosuchtable")
        assert status == 404 and out["message"] == "no such table"

        status, out = call(guest, "POST", "/api/tables", {"preset": "briscola"},
                           **{"Accept-Language": "de-CH, fr;q=0.8"})
        assert status == 400 and out["error"] == "bad_request"
        assert out["message"].startswith("unbekannte Variante 'briscola' (die Varianten sind italian, ")
        status, out = call(guest, "POST", "/api/tables?lang=it", {"preset": "italian", "rated": "yes"},
                           **{"Accept-Language": "de"})
        assert status == 400 and out["message"] == "'rated' dev'essere true o false"

        # the account API and the tournament desk
        status, out = call(guest, "GET", "/api/account", **{"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})
        assert status == 401 and out["error"] == "signin"
        assert out["message"] == render(msg("acc_e_signed_out"), "it") and "entra di nuovo" in out["message"]
        status, out = call(guest, "GET", "/api/ratings/nosuchpool", **{"Accept-Language": "de"})
        assert status == 404 and out["error"] == "not_found" and out["message"].startswith("keine Wertung 'nosuchpool'")
        status, out = call(guest, "POST", "/api/tournaments?lang=de", {"name": "Torneo", "rounds": 2, "stars": 5})
        assert status == 400 and out["error"] == "bad_request"
        assert out["message"].startswith("unbekannte(s) Feld(er) stars (Felder: ")
        status, out = call(guest, "POST", "/api/tournaments", {"name": "Torneo", "rounds": 2, "stars": 5},
                           **{"Accept-Language": "it"})
        assert status == 400 and out["message"].startswith("campo/i sconosciuto/i stars (campi: ")

        # a signed-in player whose profile says German, in a browser that asks for Italian
        ann = visitor(server.url)
        assert ann.post("signup", {"name": "Anna Weber", "password": PASSWORD})[0] == 303
        assert ann.post("profile", {"name": "Anna Weber", "language": "de"})[0] == 200
        status, out = call(ann, "GET", "/api/tables/nosuchtable", **{"Accept-Language": "it"})
        assert status == 404 and out["message"] == "diesen Tisch gibt es nicht"
        status, out = call(ann, "GET", "/api/tables/nosuchtable?lang=nl", **{"Accept-Language": "it"})
        assert out["message"] == "die tafel bestaat niet"


def test_websocket_refusals_speak_the_connections_language(tmp_path: Path) -> None:
    """hello's ``lang`` (Italian here) gives a connection's refusals their ``text``; without it, the handshake's
    ``Accept-Language`` (German) does, before hello too. ``message`` stays English, ``code`` stays the code."""
    with thread_server(fast_config(sqlite_url(tmp_path / "s.sqlite3"))) as server:
        t = create(server.url, preset="italian-2p", seats=[{"kind": "human"}, {"kind": "open"}])

        async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
            italian = await Client.open(server.ws_url)
            await italian.hello(t["id"], lang="it")  # a spectator
            await italian.send({"type": "act", "action": "N draw", "n": italian.last_n, "ref": 7})
            spectator = await italian.until("error")
            await italian.send({"type": "take", "seat": "N"})
            taken = await italian.until("error")
            german = Client(await connect(server.ws_url, open_timeout=WAIT,
                                          additional_headers={"Accept-Language": "de-DE,de;q=0.9"}))
            await german.send({"type": "act", "action": "N draw", "n": 1})
            early = await german.until("error")  # before its hello: the handshake's language already
            await german.hello(t["id"])
            await german.send({"type": "act", "action": "N draw", "n": german.last_n})
            later = await german.until("error")
            for c in (italian, german):
                await c.close()
            return spectator, taken, early, later

        spectator, taken, early, later = run(go())
        assert spectator["code"] == "not_seated" and spectator["ref"] == 7
        assert spectator["message"] == "spectators cannot play: take an open seat first"
        assert spectator["text"] == "gli spettatori non possono giocare: prendi prima un posto libero"
        assert spectator["msg"] == {"code": "srv_spectator_play", "params": {}}
        assert taken["code"] == "seat_taken" and taken["text"] == "il posto N non è libero"
        assert taken["msg"] == {"code": "srv_seat_not_open", "params": {"seat": "N"}}
        assert early["code"] == "no_table" and early["text"].startswith("sende zuerst hello: ")
        assert later["code"] == "not_seated"
        assert later["text"] == "Zuschauer können nicht spielen: nimm zuerst einen freien Platz"


def test_every_refusal_of_the_server_is_a_message_of_the_catalogue() -> None:
    """No refusal of the server's code is a plain English string: each names a message code (``msg(...)``) or
    passes one on, so that every language renders it."""
    plain = re.compile(r"\b(ClientError|DeskError|AccountError|CoachRefusal|refusal)\(\s*\"\w+\",\s*(\d+,\s*)?f?[\"']")
    found = [f"{p.name}: {m.group(0)}" for p in sorted(SERVER.glob("*.py"))
             for m in plain.finditer(p.read_text(encoding="utf-8"))]
    assert found == []
