"""The ASGI application: HTTP routes (lobby, tables, finished games, records, replays, static files) and the
websocket endpoint ``/ws`` (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..game import Game
from ..messages import LANGS, Message, catalogue, msg
from ..rules import PRESETS, rules_from_json
from .account_html import page_lang
from .account_pages import AccountPages
from .accounts import COOKIE as SESSION_COOKIE
from .accounts import Accounts, Limits, session_token
from .assets import IMMUTABLE, PAGES, REVALIDATE, Asset, Assets
from .cluster import MOVED_CODE, Cluster, ClusterError
from .coach import Coach
from .coach import routes as coach_routes
from .config import ServerConfig
from .director import Directors
from .director_routes import routes as director_routes
from .events import TableGone, encode
from .guard import QuietDisconnects
from .guests import COOKIE, MAX_AGE, guest_of, new_guest
from .hub import Hub
from .narration import check_lang
from .protocol import CLIENT_TYPES, LEVELS, PROTOCOL_MINOR, PROTOCOL_VERSION, ClientError, refusal
from .quietlog import quiet
from .ratelimit import Bucket, BucketMap, admit, ip_key
from .relay import Relay, Relays, RemoteConn
from .security import SecurityHeaders, origin_allowed
from .store import Store
from .tables import Table

log = logging.getLogger("burraco.server")
STATIC = Path(__file__).parent / "static"

#: a connection whose outgoing queue grows past this is too slow to follow the table: it is closed
MAX_QUEUE = 2000
#: the close code of a connection whose ``hello`` could not be answered for a while (Redis did not answer):
#: "try again later"
TRY_LATER_CODE = 1013
#: a batch (protocol 1.4, ``hello.batch``) holds at most this many characters of messages; one longer message
#: goes alone
MAX_BATCH = 256 * 1024


class Connection:
    """One websocket: its seat, its rate limit and its outgoing queue (sent by a writer task)."""

    def __init__(self, ws: WebSocket, ip: str, config: ServerConfig) -> None:
        self.ws = ws
        self.ip = ip
        self.guest: str | None = None  # its browser's guest id, from the signed cookie (server/guests.py)
        self.account: str | None = None  # the account its browser is signed in to (server/accounts.py)
        self.bot = False  # that account is a bot's: a program signed in with its bot token
        self.bot_token = ""  # that token (checked against the store at each of its messages: it may be replaced)
        self.seat: int | None = None
        self.table: Table | None = None
        self.lang = "en"
        self.bucket = Bucket(config.conn_rate, config.conn_burst)
        #: messages it may still send past its rate limit, each refused ``rate_limited``, before it is closed
        #: (code 1008): a client that does not slow down when told to is cut off
        self.refusals = Bucket(config.flood_refill, config.flood_refusals)
        #: it said ``hello`` (a connection that has not within ``hello_deadline`` seconds is closed)
        self.greeted = False
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1008  # 1012 when no process can take its table now (cluster.py): reconnect
        self.relay: Relay | None = None  # its table is owned by another process: every message goes there
        self.hello: dict[str, Any] | None = None  # the hello it joined its table with
        self.moving: asyncio.Task[None] | None = None  # joining its table again where it is now (relay.py)
        self.moves: list[float] = []  # when it did lately
        self.on_moved: Callable[[Connection, list[str]], None] | None = None
        #: (1.4) the client asked in ``hello`` for the messages queued together to come as one JSON array
        self.batch = False

    def moved(self, last: int) -> None:
        """Its table left this process (its lease was lost), with event ``last`` the last it was sent: join the
        table again where it is now (or close, code 1012, when no process can take it)."""
        self.table = None
        self.seat = None
        if self.hello is None or self.on_moved is None:
            self.close_code = MOVED_CODE
            self.send_close()
            return
        self.on_moved(self, [encode({**self.hello, "last": last})])

    def send(self, msg: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or one already encoded as JSON text)."""
        if self.closed:
            return
        if self.queue.qsize() > MAX_QUEUE:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(msg if isinstance(msg, str) else encode(msg))

    def send_close(self) -> None:
        """Close the connection once everything queued before has been sent."""
        self.queue.put_nowait(None)
        self.closed = True

    async def writer(self) -> None:
        """Send what is queued, in order. With ``batch`` (1.4) what is queued by the time the last send ended goes
        as one websocket message, a JSON array of the messages (one frame, one write, where there were three per
        action: its event, the moves log and the state)."""
        queue = self.queue
        while True:
            text = await queue.get()
            if text is not None and self.batch and not queue.empty():
                texts = [text]
                size = len(text)
                while not queue.empty() and size < MAX_BATCH:
                    nxt = queue.get_nowait()
                    if nxt is None:
                        text = None
                        break
                    texts.append(nxt)
                    size += len(nxt)
                await self.ws.send_text(texts[0] if len(texts) == 1 else "[" + ",".join(texts) + "]")
                if text is not None:
                    continue
            elif text is not None:
                await self.ws.send_text(text)
                continue
            with contextlib.suppress(Exception):
                await self.ws.close(code=self.close_code)
            return


class IpLimits:
    """Per client address (an IPv4 address, an IPv6 /64: :func:`ip_key`): open connections, a message bucket
    shared by its connections, an HTTP request bucket and a table-creation bucket. The buckets are kept by last
    use (:class:`BucketMap`), never all cleared at once."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.conns: dict[str, int] = {}
        cap = config.ip_memory
        self.buckets = BucketMap(config.ip_rate, config.ip_burst, cap)
        self.http = BucketMap(config.http_rate, config.http_burst, cap)
        per_min = config.ip_tables_per_minute
        self.create = BucketMap(per_min / 60.0, max(1.0, per_min), cap)
        #: address -> until when (monotonic) it may open no websocket: one of its connections was cut off for
        #: flooding (its other connections stay open)
        self.flooded: dict[str, float] = {}

    def cooling(self, ip: str) -> bool:
        """Whether ``ip`` is kept off new websockets now (a flood of its was cut off lately)."""
        until = self.flooded.get(ip)
        if until is None:
            return False
        if until > time.monotonic():
            return True
        del self.flooded[ip]
        return False

    def cut_off(self, ip: str) -> None:
        now = time.monotonic()
        if len(self.flooded) >= self.config.ip_memory:
            self.flooded = {k: v for k, v in self.flooded.items() if v > now}
        self.flooded[ip] = now + self.config.flood_cooldown

    def bucket(self, ip: str) -> Bucket:
        return self.buckets.get(ip)

    def create_bucket(self, ip: str) -> Bucket:
        return self.create.get(ip)


def _ip(scope_client: Any) -> str:
    """The key the limits count against: the client's IPv4 address, or its IPv6 /64."""
    return ip_key(scope_client.host) if scope_client is not None else "?"


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The server as an ASGI app (``burraco serve`` runs it with uvicorn)."""
    cfg = config or ServerConfig()
    quiet()  # a fault that hits every connection is logged once per interval, not once per connection
    store = Store(cfg.db_url)
    hub = Hub(cfg, store)
    cluster = Cluster(cfg, hub) if cfg.redis_url else None  # several processes (server/cluster.py)
    if cluster is not None:  # a write its process sits in past the lease holds the next owner's up: ended
        store.write_idle_limit = max(3.0, cfg.lease_ttl)
    hub.cluster = cluster
    relays: Relays | None = None  # their connections relayed to each other (server/relay.py)
    desks = Directors(hub)
    coach = Coach(cfg, store)  # the analyses of finished games (server/coach.py)
    limits = IpLimits(cfg)
    catalogues: dict[str, bytes] = {}  # language -> its encoded message catalogue
    keys: dict[str, bytes] = {}  # the server's keys: "guest" signs the guest cookies (server/guests.py)
    assets = Assets(STATIC, catalogue, LANGS)  # the page's files under their hashed names (server/assets.py)
    rulebooks: dict[str, Asset] = {}  # language -> the rule book's page as served (made at its first request)
    accounts = Accounts(store, Limits(cfg.signin_account_failures, cfg.signin_ip_failures, cfg.signin_window))
    bot_conns: dict[str, set[Connection]] = {}  # a bot account's id -> its websockets open on this process

    def close_bot(bot: str) -> int:
        """Its token was replaced: the websockets the bot opened here with the old one are closed now (those on
        another process, at their next message: each is checked against the store)."""
        open_ = bot_conns.pop(bot, set())
        for c in open_:
            c.send(with_text(ClientError("bad_token", msg("srv_bot_replaced")).to_json(), c.lang))
            c.send_close()
        return len(open_)

    account_pages = AccountPages(accounts, keys, lambda: assets.url("rulebook.css"), lambda: assets.url("account.js"),
                                 hub.close_table, hub.remove_chat, close_bot)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if cluster is not None and relays is not None:
            await cluster.start()
            await relays.start()
        await hub.start()
        keys["guest"] = await store.server_key("guest")
        keys["session"] = await store.server_key("session")  # the session cookies (server/accounts.py)
        keys["csrf"] = await store.server_key("csrf")  # the account forms' CSRF tokens
        app.state.hub = hub
        await desks.resume()  # the online tables of events in play are followed from the start
        yield
        await desks.stop()
        await coach.stop()
        await hub.stop()

    async def err(request: Request, code: str, message: Message, status: int = 400) -> JSONResponse:
        """A refused request: its code, and its message in the requester's language (``account_pages.lang``)."""
        return refusal(code, message, await account_pages.lang(request), status)

    def send(request: Request, asset: Asset, cache: str) -> Response:
        """A file of the page: 304 where the browser's copy is current, else its bytes (gzip where accepted)."""
        if request.headers.get("if-none-match") == f'"{asset.etag}"':
            return Response(status_code=304, headers={"ETag": f'"{asset.etag}"', "Cache-Control": cache})
        body, headers = asset.pick(request.headers.get("accept-encoding", ""))
        return Response(body, media_type=asset.media_type, headers={**headers, "Cache-Control": cache})

    async def index(request: Request) -> Response:
        resp = send(request, assets.index, REVALIDATE)
        if guest_of(request.cookies.get(COOKIE), keys["guest"]) is None:  # a browser new here: its guest id
            _, value = new_guest(keys["guest"])
            resp.set_cookie(COOKIE, value, max_age=MAX_AGE, path="/", secure=request.url.scheme == "https",
                            httponly=True, samesite="lax")
        return resp

    async def static(request: Request) -> Response:
        found = assets.static(request.path_params["path"])
        if found is None:
            return Response("not found", status_code=404, media_type="text/plain")
        asset, hashed = found
        return send(request, asset, IMMUTABLE if hashed else REVALIDATE)

    async def service_worker(request: Request) -> Response:
        return send(request, assets.service_worker, REVALIDATE)

    async def page_messages(request: Request) -> Response:
        lang, page = request.path_params["lang"], request.path_params["page"]
        asset = assets.catalogues.get((lang, page))
        if asset is None:
            return await err(request, "not_found", msg("srv_no_page_messages", lang=lang, page=page,
                                                       langs=", ".join(LANGS), pages=", ".join(PAGES)), 404)
        return send(request, asset, IMMUTABLE if request.query_params.get("v") == assets.version else REVALIDATE)

    def limited(handler: Any) -> Any:
        """An HTTP route behind the per-IP request limit (``429`` with a JSON error past it)."""

        async def wrapped(request: Request) -> Response:
            if not limits.http.take(_ip(request.client)):
                return refusal("rate_limited", msg("srv_http_rate"), str(page_lang(request)), 429)
            out: Response = await handler(request)
            return out

        return wrapped

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "tables": len(hub.tables), "protocol": PROTOCOL_VERSION,
                             "minor": PROTOCOL_MINOR, "node": cluster.node if cluster is not None else None})

    async def presets(request: Request) -> Response:
        return JSONResponse(
            {
                "presets": [
                    {"name": k, "players": r.players, "target": r.target, "hands_per_match": r.hands_per_match}
                    for k, r in PRESETS.items()
                ],
                "levels": list(LEVELS),
                "protocol": PROTOCOL_VERSION,
                "minor": PROTOCOL_MINOR,
            }
        )

    async def tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse({"tables": await hub.lobby()})
        ip = _ip(request.client)
        if not limits.create_bucket(ip).take():
            return await err(request, "rate_limited", msg("srv_tables_rate"), 429)
        declared = request.headers.get("content-length", "0")
        if not declared.isdigit() or int(declared) > 16384:
            return await err(request, "too_large", msg("srv_body_large", kib=16), 413)
        body = b""
        async for chunk in request.stream():  # read no more than the limit, whatever the header said
            body += chunk
            if len(body) > 16384:
                break
        if len(body) > 16384:
            return await err(request, "too_large", msg("srv_body_large", kib=16), 413)
        try:
            spec = json.loads(body or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            return await err(request, "bad_json", msg("srv_body_json"))
        try:
            out = await hub.create_table(spec, owner_ip=ip)
        except ClientError as e:
            return await err(request, e.code, e.msg, 429 if e.code == "rate_limited" else 400)
        return JSONResponse(out, status_code=201)

    async def _table(request: Request) -> Table:
        t = await hub.get(request.path_params["table_id"])
        if t is None:
            raise ClientError("not_found", msg("srv_no_such_table"))
        return t

    async def table_info(request: Request) -> Response:
        try:
            t = await _table(request)
        except ClientError as e:
            return await err(request, e.code, e.msg, 404)
        return JSONResponse(t.info_json())

    async def sealed(request: Request, t: Any) -> Response | None:
        """A duplicate event's table in its running round keeps its records closed (docs/tournaments.md)."""
        if desks.sealed(t.id):
            return await err(request, "sealed", msg("te_sealed"), 403)
        return None

    async def games(request: Request) -> Response:
        try:
            t = await _table(request)
        except ClientError as e:
            return await err(request, e.code, e.msg, 404)
        if (closed := await sealed(request, t)) is not None:
            return closed
        return JSONResponse({"table": t.id, "games": t.finished_games()})

    async def record(request: Request) -> Response:
        try:
            t = await _table(request)
            rec = t.record(int(request.path_params["game_no"]))
        except ClientError as e:
            return await err(request, e.code, e.msg, 404)
        if (closed := await sealed(request, t)) is not None:
            return closed
        if request.query_params.get("analysis") != "0":  # (1.5) the coach's analyses kept with the game
            kept = await coach.annotation(t.id, int(request.path_params["game_no"]), t.seat_names)
            if kept is not None:
                rec["analysis"] = kept
        name = f"burraco-{t.id}-game{request.path_params['game_no']}.json"
        return JSONResponse(rec, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def replay(request: Request) -> Response:
        try:
            t = await _table(request)
            game_no = int(request.path_params["game_no"])
            body = t.replay_cache.get(game_no)
            if body is None:
                rec = t.record(game_no)
        except ClientError as e:
            return await err(request, e.code, e.msg, 404)
        if (closed := await sealed(request, t)) is not None:
            return closed
        if body is None:  # computed once per finished game (it never changes), off the event loop
            async with t.replay_lock:  # requests arriving meanwhile wait for this one's result
                body = t.replay_cache.get(game_no)
                if body is None:
                    steps = await asyncio.to_thread(replay_steps, rec)
                    body = t.replay_cache[game_no] = json.dumps(steps, separators=(",", ":")).encode()
        return Response(body, media_type="application/json")

    async def messages(request: Request) -> Response:
        lang = request.path_params["lang"]
        body = catalogues.get(lang)
        if body is None:
            from ..messages import LANGS, catalogue

            if lang not in LANGS:
                return await err(request, "not_found", msg("srv_no_lang", what="catalogue", lang=lang,
                                                           langs=", ".join(LANGS)), 404)
            body = catalogues[lang] = json.dumps(catalogue(lang), ensure_ascii=False).encode()
        return Response(body, media_type="application/json", headers={"Cache-Control": "max-age=3600"})

    async def rulebook(request: Request) -> Response:
        """The rule book in a language (English for one it is not written in), one HTML page with an anchor per
        rule, ``#rule-3.2``: where the table's "Why?" leads (issue 44)."""
        from ..messages import LANGS
        from ..rulebook import html_page

        lang = request.path_params["lang"]
        if lang not in LANGS:
            return await err(request, "not_found", msg("srv_no_lang", what="rule book", lang=lang,
                                                       langs=", ".join(LANGS)), 404)
        page = rulebooks.get(lang)
        if page is None:  # its style sheet by its hashed name: revalidated, as the page that names the files
            page = rulebooks[lang] = assets.page(html_page(lang))
        return send(request, page, REVALIDATE)

    async def ws_endpoint(ws: WebSocket) -> None:
        ip = _ip(ws.client)
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), cfg.origins):
            # another site's page may not play from its visitors' browsers: refused before the handshake (403)
            await ws.close(code=1008)
            return
        if limits.cooling(ip):  # it flooded lately: refused before the handshake (403), which costs next to nothing
            await ws.close(code=1008)
            return
        await ws.accept()
        conn = Connection(ws, ip, cfg)
        # its language until its hello says one: the browser's (docs/protocol.md, hello's ``lang``)
        conn.lang = str(page_lang(ws))
        conn.guest = guest_of(ws.cookies.get(COOKIE), keys["guest"])
        if ws.cookies.get(SESSION_COOKIE):  # a signed-in browser: its account (one indexed query)
            signed_in = await accounts.account_of(session_token(ws.cookies.get(SESSION_COOKIE), keys["session"]))
            conn.account = signed_in.id if signed_in is not None else None
        bearer = ws.headers.get("authorization", "")
        if bearer:  # a program playing as a bot account (docs/accounts.md "Bots")
            scheme, _, token = bearer.partition(" ")
            bot = await accounts.bot_of_token(token.strip()) if scheme.lower() == "bearer" else None
            if bot is None:
                await ws.send_text(encode(with_text(ClientError("bad_token", msg("srv_bot_token")).to_json(),
                                                    conn.lang)))
                await ws.close(code=1008)
                return
            conn.account, conn.bot, conn.bot_token = bot.id, True, token.strip()
            bot_conns.setdefault(bot.id, set()).add(conn)
        conn.on_moved = rejoin
        writer = asyncio.create_task(conn.writer())
        if limits.conns.get(ip, 0) >= cfg.ip_connections:
            conn.send(with_text(ClientError("rate_limited", msg("srv_connections")).to_json(), conn.lang))
            conn.send_close()
            await writer
            return
        limits.conns[ip] = limits.conns.get(ip, 0) + 1
        deadline = asyncio.get_running_loop().call_later(cfg.hello_deadline, no_hello, conn)
        try:
            while not conn.closed:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:  # a binary frame: refused, the connection stays
                    conn.send(with_text(ClientError("bad_message", msg("srv_binary")).to_json(), conn.lang))
                    continue
                if conn.moving is not None:  # joining its table again elsewhere: its messages wait for that
                    with contextlib.suppress(Exception):
                        await asyncio.shield(conn.moving)
                    conn.moving = None
                    if conn.closed:
                        break
                if conn.bot and await accounts.bot_of_token(conn.bot_token) is None:
                    # its token was replaced (or its account disabled) since the handshake, on any process
                    conn.send(with_text(ClientError("bad_token", msg("srv_bot_invalid")).to_json(), conn.lang))
                    conn.send_close()
                    break
                reply = await on_message(conn, text)
                if reply is not None:
                    conn.send(with_text(reply, conn.lang))
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket went away while we were sending
            pass
        finally:
            deadline.cancel()
            held = bot_conns.get(conn.account or "") if conn.bot else None
            if held is not None:
                held.discard(conn)
                if not held:
                    del bot_conns[conn.account or ""]
            limits.conns[ip] -= 1
            if limits.conns[ip] <= 0:
                del limits.conns[ip]
            closing = conn.closed  # the server closes it (a flood, no hello, ...): what is queued goes first
            conn.closed = True
            if conn.moving is not None:
                conn.moving.cancel()
            if conn.table is not None:
                conn.table.detach(conn)
            if conn.relay is not None and relays is not None:
                relays.end(conn.relay)
            if closing:
                with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                    async with asyncio.timeout(5.0):
                        await asyncio.shield(writer)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    def no_hello(conn: Connection) -> None:
        """``hello_deadline`` seconds after a websocket opened: closed (code 1008) unless it said ``hello``."""
        if not conn.greeted and not conn.closed:
            conn.send(with_text(ClientError("no_table", msg("srv_hello_late", seconds=f"{cfg.hello_deadline:g}"))
                                .to_json(), conn.lang))
            conn.send_close()

    async def on_message(conn: Connection | RemoteConn, text: str) -> dict[str, Any] | None:
        """Answer one client message: a direct reply, an error, or None (the effect is broadcast)."""
        # every message counts against the limits, an oversized one too; a refused one still gets its ``ref`` back
        # when it can be read (a message of at most max_message bytes: parsing it costs little)
        allowed = admit(conn.bucket, limits.bucket(conn.ip))
        if not allowed:  # refused as cheaply as can be: no size check, its ``ref`` read only from a short message
            if isinstance(conn, Connection) and not conn.refusals.take():
                conn.send(with_text(ClientError("rate_limited", msg("srv_flood_closed")).to_json(), conn.lang))
                conn.close_code = 1008
                conn.send_close()
                limits.cut_off(conn.ip)
                return None
            return slow_down(conn.lang, _ref(text) if len(text) <= SHORT else None)
        oversized = len(text) > cfg.max_message or len(text.encode("utf-8", "replace")) > cfg.max_message
        message: Any = None
        unreadable: Message | None = None
        if not oversized:
            try:
                message = json.loads(text)
            except json.JSONDecodeError:
                unreadable = msg("srv_not_json")
            except RecursionError:
                unreadable = msg("srv_too_deep")
        ref = message.get("ref") if isinstance(message, dict) else None
        if ref is not None and not isinstance(ref, str | int):
            ref = None
        if oversized:
            return ClientError("too_large", msg("srv_too_large", n=cfg.max_message)).to_json()
        if unreadable is not None:
            return ClientError("bad_json", unreadable).to_json()
        return await dispatch(conn, text, message, ref)

    async def dispatch(conn: Connection | RemoteConn, text: str, message: Any, ref: Any,
                       again: bool = False) -> dict[str, Any] | None:
        """A message admitted by the limits and read as JSON (``message``): its answer."""
        try:
            if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                raise ClientError("bad_message", msg("srv_message_object"))
            t = message["type"]
            if t not in CLIENT_TYPES:
                raise ClientError("unknown_type", msg("srv_unknown_type", type=t))
            if t == "ping":
                return {"type": "pong", "ref": ref}
            if isinstance(conn, Connection) and conn.relay is not None and relays is not None:
                relays.forward(conn.relay, text, t)  # the table's owner answers (through this process's channel)
                return None
            if t == "hello":
                return await hello(conn, message, text)
            if conn.table is None:
                raise ClientError("no_table", msg("srv_hello_first"))
            if t == "sync":
                await conn.table.attach_again(conn, message.get("last"))
                return None
            reply = await conn.table.handle(conn, message)
            if reply is not None and ref is not None:
                reply["ref"] = ref
            return reply
        except ClientError as e:
            return e.to_json(ref)
        except TableGone:
            # its table left this process while the message was handled (its lease was lost, or the process is
            # stopping): a relayed connection's front sends its action again to the new owner; a connection of
            # this process is joining the table again where it is now, the message is answered there
            if isinstance(conn, RemoteConn):
                return None
            if conn.moving is not None and conn.moving is not asyncio.current_task() and not again:
                # (the move may have ended already: a lease found lost while the write was on its way)
                with contextlib.suppress(Exception):
                    await asyncio.shield(conn.moving)
                if conn.relay is not None or conn.table is not None:
                    return await dispatch(conn, text, message, ref, again=True)
            return ClientError("server_error", msg("srv_table_moved")).to_json(ref)
        except Exception:  # a fault of the server's, not the client's: say so, keep the connection
            log.exception("message of type %r", message.get("type") if isinstance(message, dict) else None)
            return ClientError("server_error", msg("srv_server_error")).to_json(ref)

    async def hello(conn: Connection | RemoteConn, message: dict[str, Any], text: str) -> dict[str, Any] | None:
        if isinstance(conn, Connection):
            conn.greeted = True
        v = message.get("v")
        if v != PROTOCOL_VERSION:
            raise ClientError("version", msg("srv_version", v=PROTOCOL_VERSION, got=repr(v)))
        if conn.table is not None:
            raise ClientError("not_now", msg("srv_joined_already"))
        conn.lang = check_lang(message.get("lang"), conn.lang)  # else the Accept-Language of its handshake
        if isinstance(conn, Connection):
            conn.batch = message.get("batch") is True
        tid = message.get("table")
        if cluster is not None and isinstance(tid, str) and 0 < len(tid) <= 32 and tid.isascii() and tid.isalnum():
            owner = await owner_when_up(conn, tid)
            if owner is not None:
                if isinstance(conn, RemoteConn) or relays is None:  # relayed here, but it moved on meanwhile
                    conn.send_close()  # its front finds the owner
                    return None
                try:
                    if "lang" not in message:  # the owner answers in the language this process found
                        message = {**message, "lang": conn.lang}
                        text = encode(message)
                    conn.relay = relays.open(conn, tid, owner, message, text)
                except ClusterError as e:  # this process is stopping: the client connects again, elsewhere
                    conn.send(ClientError("unavailable", msg("srv_unavailable")).to_json())
                    conn.close_code = MOVED_CODE
                    conn.send_close()
                    raise ClientError("unavailable", msg("srv_unavailable")) from e
                conn.hello = message
                return None
        if isinstance(conn, Connection):
            conn.hello = message
        for _ in range(3):
            t = await hub.get(tid) if isinstance(tid, str) else None
            if t is None:
                raise ClientError("no_table", msg("srv_no_table", table=str(message.get("table"))))
            try:
                await t.attach(conn, message.get("token"), message.get("name"), message.get("last"),
                               message.get("held"), message.get("creator"))
                return None
            except TableGone:  # it left memory while we waited for it: ask the hub again (a fresh copy)
                continue
        raise ClientError("server_error", msg("srv_table_load"))

    async def owner_when_up(conn: Connection | RemoteConn, tid: str) -> str | None:
        """The table's owner (None: this process), asked again while Redis does not answer: the ``hello`` waits,
        its connection open, until Redis is back (``redis_wait`` seconds at most; then ``unavailable``, and the
        connection is closed with code 1013 so that the client connects again later)."""
        deadline = time.monotonic() + cfg.redis_wait
        delay = 0.05
        while True:
            try:
                return await cluster.owner_of(tid) if cluster is not None else None
            except ClusterError as e:
                stopping = cluster is None or cluster.closing
                if stopping or conn.closed or time.monotonic() + delay > deadline:
                    if isinstance(conn, Connection) and not conn.closed:  # never left open unjoined
                        conn.send(ClientError("unavailable", msg("srv_unavailable")).to_json())
                        conn.close_code = MOVED_CODE if stopping else TRY_LATER_CODE
                        conn.send_close()
                    raise ClientError("unavailable", msg("srv_unavailable")) from e
            await asyncio.sleep(delay)
            delay = min(2 * delay, 1.0)

    async def handle_remote(conn: RemoteConn, text: str) -> dict[str, Any] | None:
        """A message of a connection another process relays here (server/relay.py)."""
        reply = await on_message(conn, text)
        return None if reply is None else with_text(reply, conn.lang)

    def rejoin(conn: Connection, texts: list[str]) -> None:
        """Join ``conn``'s table again where it is now (its owner changed): answer ``texts`` (the hello with the
        last event number it was sent, then the actions it sent that were not seen applied) as if it had sent
        them; the websocket stays open. Closed with code 1012 where no process can take the table (or it moved
        too often lately)."""
        if conn.closed:
            return
        now = time.monotonic()
        conn.moves = [x for x in conn.moves if now - x < 60.0] + [now]
        if len(conn.moves) > 8:
            conn.close_code = MOVED_CODE
            conn.send_close()
            return
        conn.moving = asyncio.create_task(_rejoin(conn, texts, conn.moving))

    async def _rejoin(conn: Connection, texts: list[str], before: asyncio.Task[None] | None) -> None:
        if before is not None and not before.done():
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await before
        try:
            if conn.relay is not None and relays is not None:  # a newer one than the one that moved
                relays.end(conn.relay)
            conn.relay = None
            if conn.table is not None:
                conn.table.detach(conn)
            conn.table = None
            conn.seat = None
            for i, text in enumerate(texts):
                if conn.closed:
                    return
                reply = await dispatch(conn, text, json.loads(text), None)
                if i == 0 and ((reply is not None and reply.get("type") == "error")
                               or (conn.relay is None and conn.table is None)):
                    log.warning("a connection could not join table %s again: %s", (conn.hello or {}).get("table"),
                                reply)
                    conn.close_code = MOVED_CODE
                    conn.send_close()
                    return
                if reply is not None:
                    conn.send(with_text(reply, conn.lang))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a connection could not join its table again")
            conn.close_code = MOVED_CODE
            conn.send_close()

    if cluster is not None:
        relays = Relays(cluster, handle_remote, rejoin)

    routes = [
        Route("/", index),
        Route("/t/{table_id}", index),
        Route("/t/{table_id}/replay/{game_no:int}", index),
        Route("/api/health", limited(health)),
        Route("/api/presets", limited(presets)),
        Route("/api/tables", limited(tables), methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", limited(table_info)),
        Route("/api/tables/{table_id}/games", limited(games)),
        Route("/api/tables/{table_id}/games/{game_no:int}/record", limited(record)),
        Route("/api/tables/{table_id}/games/{game_no:int}/replay", limited(replay)),
        Route("/messages/{lang}.json", limited(messages)),
        Route("/rules/{lang}", limited(rulebook)),
        Route("/messages/{lang}/{page}.json", limited(page_messages)),
        Route("/sw.js", service_worker),
        Route("/static/{path:path}", static),
        WebSocketRoute("/ws", ws_endpoint),
    ]
    routes += director_routes(desks, limited, lambda r: _ip(r.client), account_pages.account,
                              accounts.named, accounts.names_of,
                              account_pages.lang)  # the tournament desk (docs/tournaments.md)
    routes += account_pages.routes(limited, lambda r: _ip(r.client))  # accounts (docs/accounts.md)
    routes += coach_routes(coach, hub, limited, lambda r: _ip(r.client), desks.sealed, account_pages.lang)
    # every text answer compressed where the browser accepts gzip (the page's files are compressed once, in
    # assets.py; a stream, such as the coach's progress, is flushed chunk by chunk)
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(QuietDisconnects), Middleware(SecurityHeaders),
                                Middleware(GZipMiddleware, minimum_size=500)])
    app.state.hub = hub
    return app


#: a refused message is read for its ``ref`` only when it is at most this many characters (reading it is then cheap)
SHORT = 512


def _ref(text: str) -> str | int | None:
    """The ``ref`` of a message, when it is JSON with a string or integer ``ref``."""
    try:
        m = json.loads(text)
    except (ValueError, RecursionError):
        return None
    ref = m.get("ref") if isinstance(m, dict) else None
    return ref if isinstance(ref, str | int) else None


#: the refusal of a message past the rate limit, made once per language (a flood meets it at every message)
_SLOW_DOWN: dict[str, dict[str, Any]] = {}


def slow_down(lang: str, ref: str | int | None) -> dict[str, Any]:
    """``rate_limited`` for a message past its connection's limit, with its ``text`` in ``lang`` (and ``ref``)."""
    made = _SLOW_DOWN.get(lang)
    if made is None:
        made = _SLOW_DOWN[lang] = with_text(ClientError("rate_limited", msg("srv_slow_down")).to_json(), lang)
    return dict(made) if ref is None else {**made, "ref": ref}


def with_text(reply: dict[str, Any], lang: str) -> dict[str, Any]:
    """(1.2) A refusal or a hint that carries ``msg`` also carries ``text``: it rendered in the connection's
    language, cards as symbols (``burraco.messages.render`` with ``player=True``), and ``rules``: the rules of the
    rule book it cites (``["3.2"]``; the page ``/rules/<lang>#rule-3.2`` tells them), where it cites any."""
    m = reply.get("msg")
    if isinstance(m, dict) and "text" not in reply:
        from ..messages import message_from_json, render
        from ..rulebook import cited

        message = message_from_json(m)
        reply["text"] = render(message, lang, player=True)
        rules = cited(message)
        if rules:
            reply["rules"] = rules
    return reply


def replay_steps(record: dict[str, Any]) -> dict[str, Any]:
    """Every state of a finished game, for the browser's replay viewer: per hand, the table (everything: the game
    is over) before the first action and after each one."""
    from ..deal import Deal
    from ..match import hand_points
    from ..seats import scorer_names, seat_names

    rules = rules_from_json(record["rules"])
    seats = seat_names(rules.players)
    dealer = seats.index(record["dealer"])
    out = []
    for i, h in enumerate(record["hands"]):
        deal = Deal.from_json(h["deal"], seats)
        g = Game.from_deal(rules, deal, (dealer + i * rules.direction) % rules.players)
        steps = [_snapshot(g, None)]
        for a in h["actions"]:
            g.apply(a)
            steps.append(_snapshot(g, a))
        points = dict(zip(scorer_names(rules), hand_points(g), strict=True)) if g.is_over else None
        # (1.6) the deal and how it was made: the page checks it against its commitment (docs/fairness.md)
        out.append({"hand_no": i, "steps": steps, "scores": g.scores(), "end": g.end, "points": points,
                    "deal": h["deal"], "fair": h.get("fair")})
    return {"rules": record["rules"], "players": record.get("players"), "hands": out}


def _snapshot(g: Game, action: str | None) -> dict[str, Any]:
    from ..cards import CARD_STR
    from ..view import sides_json

    t = g.table_json()
    t["hand_cards"] = {g.seats[s]: [CARD_STR[c] for c in g.hand_cards(s)] for s in range(g.n)}
    t.update(sides_json(g.side_seats, g.sides, g.solo, g.n))
    return {"action": action, "table": t}
