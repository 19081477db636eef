"""The page's files as browsers get them (server/assets.py, issue 39 item 8): every text answer gzip-compressed where
the browser accepts it, the static files under names with their content hash and cached for a year (the plain
names revalidated), each page's message catalogue holding only the texts its modules use, the service worker's
list of files, the manifest."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from burraco.messages import catalogue
from burraco.server.assets import IMMUTABLE, PAGES, Assets, page_catalogue
from server_support import ThreadServer, fast_config, sqlite_url, thread_server

STATIC = Path(__file__).resolve().parents[1] / "src" / "burraco" / "server" / "static"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "assets.sqlite3"
    with thread_server(fast_config(sqlite_url(db))) as s:
        yield s


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """An answer's status, headers (lower-case names) and body as sent (not decompressed)."""
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


def text_of(headers: dict[str, str], body: bytes) -> str:
    return (gzip.decompress(body) if headers.get("content-encoding") == "gzip" else body).decode("utf-8")


def test_every_text_answer_is_compressed_where_gzip_is_accepted(server: ThreadServer) -> None:
    """(Answers under 500 bytes go as they are: compressing them gains nothing.)"""
    status, h, body = get(server.url + "/", **{"Accept-Encoding": "gzip, br"})
    assert status == 200 and h["content-encoding"] == "gzip" and h["cache-control"] == "no-cache"
    page = text_of(h, body)
    refs = re.findall(r'"/static/([\w.-]+)"', page)
    assert refs and all(re.fullmatch(r"[\w-]+\.[0-9a-f]{10}\.\w+", r) for r in refs), refs
    version = re.search(r'name="burraco-assets" content="([0-9a-f]+)"', page)
    assert version is not None
    for path in [f"/static/{r}" for r in refs if not r.endswith(".png")] + [
            "/sw.js", "/messages/en.json", f"/messages/de/table.json?v={version.group(1)}", "/api/presets",
            "/t/abcdef"]:
        status, h, body = get(server.url + path, **{"Accept-Encoding": "gzip"})
        assert status == 200, path
        assert h.get("content-encoding") == "gzip" and len(body) < len(text_of(h, body)), path
        status, h2, plain = get(server.url + path)  # a client that does not accept gzip gets the bytes as they are
        assert "content-encoding" not in h2 and plain.decode("utf-8") == text_of(h, body), path


def test_hashed_names_are_cached_for_a_year_and_plain_names_revalidated(server: ThreadServer) -> None:
    page = text_of(*get(server.url + "/")[1:])
    for name in re.findall(r'"/static/([\w.-]+)"', page):
        status, h, body = get(f"{server.url}/static/{name}")
        assert status == 200 and h["cache-control"] == IMMUTABLE, name
        plain = re.sub(r"\.[0-9a-f]{10}\.", ".", name)
        status, h, same = get(f"{server.url}/static/{plain}")
        assert status == 200 and h["cache-control"] == "no-cache" and same == body, plain
        status, h, _ = get(f"{server.url}/static/{plain}", **{"If-None-Match": h["etag"]})
        assert status == 304, plain
    assert get(server.url + "/static/nothing.js")[0] == 404
    assert get(server.url + "/static/../app.py")[0] == 404


def test_a_module_is_renamed_when_a_module_it_imports_changes(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    before = Assets(folder, catalogue, ("en",))
    core = folder / "core.js"
    core.write_text(core.read_text(encoding="utf-8") + "\n// changed\n", encoding="utf-8")
    after = Assets(folder, catalogue, ("en",))
    for name in ("core.js", "table.js", "hand.js", "main.js", "lobby.js", "replay.js"):
        assert before.names[name] != after.names[name], name  # core.js and every module that imports it
    assert before.names["style.css"] == after.names["style.css"]
    assert before.version != after.version
    # the modules import each other by their hashed names
    main = after.files["main.js"].body.decode()
    assert f'"./{after.names["table.js"]}"' in main and f'"./{after.names["core.js"]}"' in main
    # a module imported only when called for (the replay's check of the deals) is renamed the same way, and so is
    # every module that imports it
    deal = folder / "fairdeal.js"
    deal.write_text(deal.read_text(encoding="utf-8") + "\n// changed\n", encoding="utf-8")
    last = Assets(folder, catalogue, ("en",))
    for name in ("fairdeal.js", "fair.js", "table.js", "replay.js", "main.js"):
        assert last.names[name] != after.names[name], name
    assert f'import("./{last.names["fairdeal.js"]}")' in last.files["fair.js"].body.decode()
    assert last.needed("replay.js") - last.needed("replay.js", lazy=False) == {"fairdeal.js"}


def test_each_page_gets_only_the_texts_it_uses(server: ThreadServer) -> None:
    whole = catalogue("en")
    sizes = {}
    for page in PAGES:
        status, h, body = get(f"{server.url}/messages/en/{page}.json", **{"Accept-Encoding": "gzip"})
        assert status == 200 and h["cache-control"] == "no-cache"  # asked without the version: revalidated
        cat = json.loads(text_of(h, body))
        sizes[page] = len(body)
        assert set(cat["templates"]) < set(whole["templates"]) and cat["lang"] == "en"
        for code, tpl in cat["templates"].items():  # every word table a template names comes with it
            assert all(t in cat["words"] for t in re.findall(r"\{\w+:(\w+)", tpl)), code
    table = json.loads(text_of(*get(server.url + "/messages/en/table.json")[1:]))["templates"]
    lobby = json.loads(text_of(*get(server.url + "/messages/en/lobby.json")[1:]))["templates"]
    replay = json.loads(text_of(*get(server.url + "/messages/en/replay.json")[1:]))["templates"]
    assert {"web_draw", "web_computer", "web_card", "web_we_win"} <= set(table) and "web_play_now" not in table
    assert "web_play_now" in lobby and "web_draw" not in lobby
    assert "coach_discard" in replay  # named as "coach_" + the move's verb
    # fair play (fair.js): the take-back and two seats from one address at the table, every deal's check (fairdeal.js,
    # imported when the replay calls for it) in the replay
    assert {"web_takeback", "web_took_back", "web_shared_address", "web_replace"} <= set(table)
    assert {"web_fair_title", "fair_ok", "fair_deal_mismatch", "fair_where", "fair_place_hand"} <= set(replay)
    assert max(sizes.values()) * 8 < len(json.dumps(whole, ensure_ascii=False).encode())
    assert get(server.url + "/messages/xx/table.json")[0] == 404 and get(server.url + "/messages/en/desk.json")[0] == 404


def test_page_catalogue_takes_codes_prefixes_and_word_tables() -> None:
    whole = {"lang": "en", "templates": {"web_a": "a {x:suits}", "web_b": "b", "coach_draw": "draw", "coach_meld": "m",
                                         "tui_z": "z"},
             "words": {"suits": {"h": "hearts"}, "level": {"easy": "easy"}, "join": {"and": " and "}, "other": {}}}
    got = page_catalogue(whole, ['t("web_a"); word("level", x); const code = "coach_" + verb;'])
    assert set(got["templates"]) == {"web_a", "coach_draw", "coach_meld"}
    assert set(got["words"]) == {"suits", "level", "join"}


def test_the_service_worker_keeps_the_page_and_its_files(server: ThreadServer) -> None:
    sw = text_of(*get(server.url + "/sw.js")[1:])
    version = re.search(r'^const VERSION = "([0-9a-f]+)";$', sw, re.M)
    files = re.search(r"^const FILES = (\[.*\]);$", sw, re.M)
    assert version is not None and files is not None
    kept = json.loads(files.group(1))
    page = text_of(*get(server.url + "/")[1:])
    assert f'content="{version.group(1)}"' in page
    assert "/" in kept and all(get(server.url + f)[0] == 200 for f in kept)
    names = {re.sub(r"\.[0-9a-f]{10}\.", ".", f.rsplit("/", 1)[-1]) for f in kept if f != "/"}
    assert {"main.js", "core.js", "table.js", "lobby.js", "replay.js", "style.css", "manifest.webmanifest",
            "icon-192.png", "fair.js", "fairdeal.js"} <= names and not any(n.startswith("director") for n in names)


def test_the_rule_book_names_its_style_sheet_by_its_hash(server: ThreadServer) -> None:
    """The rule book (/rules/<lang>, where "Why?" leads) is a page made elsewhere (burraco.rulebook): its style sheet
    under its hashed name, the page compressed and revalidated like the page of the table."""
    status, h, body = get(server.url + "/rules/it", **{"Accept-Encoding": "gzip"})
    assert status == 200 and h["content-encoding"] == "gzip" and h["cache-control"] == "no-cache"
    css = re.findall(r'href="/static/([\w.-]+)"', text_of(h, body))
    assert len(css) == 1 and re.fullmatch(r"rulebook\.[0-9a-f]{10}\.css", css[0]), css
    status, h2, _ = get(f"{server.url}/static/{css[0]}")
    assert status == 200 and h2["cache-control"] == IMMUTABLE
    assert get(server.url + "/rules/it", **{"If-None-Match": h["etag"]})[0] == 304


def test_the_manifest_and_its_icons(server: ThreadServer) -> None:
    page = text_of(*get(server.url + "/")[1:])
    href = re.search(r'<link rel="manifest" href="([^"]+)"', page)
    assert href is not None
    status, h, body = get(server.url + href.group(1))
    assert status == 200 and h["content-type"].startswith("application/manifest+json")
    m: dict[str, Any] = json.loads(body)
    assert m["start_url"] == "/" and m["display"] == "standalone" and m["name"]
    for icon in m["icons"]:
        status, h, data = get(server.url + icon["src"])
        assert status == 200 and h["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            w, hgt = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")  # the PNG's IHDR
            assert f"{w}x{hgt}" == icon["sizes"], icon

