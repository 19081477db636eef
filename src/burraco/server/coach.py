"""The coach at the browser table (docs/analysis.md, docs/protocol.md "The coach"): a player asks for the analysis
of his own seat's decisions in a finished game; it runs in worker processes, off the event loop, limited per user,
per address and on the server; its progress streams to the page; the result is kept in the store with the game.

* **Who may ask.** The request carries a seat token of the table (``Authorization: Bearer``): only the seat that
  token holds is analysed, so nobody gets the coach to judge a seat he did not hold. Only a finished game is
  analysed (its record is public then, docs/protocol.md; never a hand in play), and not while a duplicate
  tournament's round keeps the table's records sealed.
* **Limits.** One analysis at a time per user (a seat token: asking for another game waits until the first is
  done; asking again for the same one follows it), :attr:`~burraco.server.config.ServerConfig.coach_per_ip` at
  once per client address, and :attr:`~burraco.server.config.ServerConfig.coach_workers` at once on the server
  (one worker process each, so a few users never take every core). A refusal says which, in the page's language.
* **The work.** :func:`burraco.analysis.analyse` of the seat with
  :attr:`~burraco.server.config.ServerConfig.coach_iterations` sampled deals per decision and the seed
  :data:`SEED`, each loss measured on up to :attr:`~burraco.server.config.ServerConfig.coach_cap` samples, in a
  process of a pool; its progress comes back through a queue that a thread hands to the event loop. ``burraco
  analyse RECORD --seat S --iterations N --cap C`` gives the same judgement from the downloaded record.
* **Kept.** The analysis is stored with the game (:mod:`~burraco.server.coach_store`): asking again answers at
  once, and the record download carries every analysis of the game under ``"analysis"``.

The answer is a stream of JSON lines (``application/x-ndjson``): ``progress`` lines, then one ``analysis`` line
(or ``error``), whose texts are the terminal coach's (:mod:`burraco.coach`) in the asked language.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..analysis import Analysis, analyse
from ..coach import coach_lines, mark_line
from ..i18n import Translator
from ..messages import Message, message_to_json, msg, render
from ..parallel import mp_context
from .coach_store import AnalysisStore
from .config import ServerConfig
from .protocol import ClientError, refusal
from .seats import check_token, seat_of_token
from .store import Store, token_hash

if TYPE_CHECKING:
    from .hub import Hub
    from .tables import Table

log = logging.getLogger("burraco.server")

#: the seed of every analysis the server makes (``burraco analyse``'s default): the downloaded record analysed
#: with the same ``--iterations`` gives the same judgement
SEED = 0
#: the games whose stored analyses are kept in memory too (most recently asked first)
CACHED_GAMES = 256

Handler = Callable[[Request], Awaitable[Response]]

# ----- in a worker process ------------------------------------------------------------------------------------------
_progress_queue: Any = None


def _worker_init(queue: Any) -> None:
    """Runs once in each worker process: where its progress goes."""
    global _progress_queue
    _progress_queue = queue


def _work(job: int, record: dict[str, Any], seat: str, iterations: int, seed: int, cap: int) -> dict[str, Any]:
    """The analysis of ``seat``'s decisions in ``record`` (in a worker process), its progress sent as
    ``(job, done, total)``."""
    queue = _progress_queue

    def progress(done: int, total: int) -> None:
        if queue is not None:
            queue.put((job, done, total))

    return analyse(record, [seat], iterations=iterations, seed=seed, progress=progress, cap=cap).to_json()


# ----- in the server ------------------------------------------------------------------------------------------------
class CoachRefusal(Exception):
    """A request the coach refuses: an error code, an HTTP status and the reason as a catalogue message."""

    def __init__(self, code: str, status: int, why: Message) -> None:
        super().__init__(render(why))
        self.code = code
        self.status = status
        self.why = why

    def response(self, lang: str) -> JSONResponse:
        """The refusal as the API's errors are (``error``, ``message``: in ``lang``), with ``msg`` (1.5)."""
        return JSONResponse(
            {"error": self.code, "message": render(self.why, lang, player=True), "msg": message_to_json(self.why)},
            status_code=self.status,
        )


@dataclass
class Job:
    """One analysis running: which game and seat, who asked, how far it is, who follows it."""

    id: int
    table: str
    game_no: int
    seat: str
    user: str  # the hash of the seat token that asked: one analysis at a time each
    ip: str
    done: int = 0
    total: int | None = None
    #: the analysis once made (``burraco-analysis/1``), or the failure's message
    result: dict[str, Any] | None = None
    failed: Message | None = None
    listeners: list[asyncio.Queue[dict[str, Any]]] = field(default_factory=list)

    def progress_json(self) -> dict[str, Any]:
        """Where it stands, as a ``progress`` line (without the request's fields)."""
        return {"type": "progress", "done": self.done, "total": self.total}

    def follow(self) -> asyncio.Queue[dict[str, Any]]:
        """A queue of what happens from now on (its first item is where the analysis stands)."""
        q: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        q.put_nowait(self.progress_json())
        if self.result is not None or self.failed is not None:
            q.put_nowait(self._end())
        else:
            self.listeners.append(q)
        return q

    def unfollow(self, q: asyncio.Queue[dict[str, Any]]) -> None:
        """Stop telling ``q`` (its request ended, or its client went away)."""
        with contextlib.suppress(ValueError):
            self.listeners.remove(q)

    def moved(self, done: int, total: int) -> None:
        """``done`` decisions of ``total`` judged: tell every follower."""
        self.done, self.total = done, total
        for q in self.listeners:
            q.put_nowait(self.progress_json())

    def end(self, result: dict[str, Any] | None, failed: Message | None) -> None:
        """It ended with ``result`` (the analysis) or ``failed`` (why not): tell every follower."""
        self.result, self.failed = result, failed
        if result is not None and self.total is not None and self.done != self.total:
            self.moved(self.total, self.total)  # every follower sees the bar full before the result
        for q in self.listeners:
            q.put_nowait(self._end())
        self.listeners.clear()

    def _end(self) -> dict[str, Any]:
        if self.result is not None:
            return {"type": "done", "analysis": self.result}
        why = self.failed or msg("coach_failed")
        return {"type": "error", "error": "server_error", "msg": why}


class Coach:
    """The coach's server side: the running analyses and their limits, the worker processes, the stored
    results."""

    def __init__(self, config: ServerConfig, store: Store) -> None:
        self.config = config
        self.analyses = AnalysisStore(store)
        self.jobs: dict[tuple[str, int, str], Job] = {}
        self._by_id: dict[int, Job] = {}
        self._next_id = 0
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._pump: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._saving: dict[tuple[str, int, str], dict[str, Any]] = {}  # made, being written to the store
        self._cache: OrderedDict[tuple[str, int], dict[str, dict[str, Any]]] = OrderedDict()

    # ----- the stored analyses ----------------------------------------------------------------------------------
    async def stored(self, table_id: str, game_no: int) -> dict[str, dict[str, Any]]:
        """The analyses kept for a game: seat → its analysis."""
        key = (table_id, game_no)
        hit = self._cache.get(key)
        if hit is None:
            hit = await self.analyses.load(table_id, game_no)
            self._cache[key] = hit
            while len(self._cache) > CACHED_GAMES:
                self._cache.popitem(last=False)
        self._cache.move_to_end(key)
        return hit

    async def annotation(self, table_id: str, game_no: int, seats: Sequence[str]) -> dict[str, Any] | None:
        """The record's ``"analysis"`` for a game: every seat analysed (in the order of ``seats``, the table's
        seats) as one analysis; None when none is kept."""
        return merged(await self.stored(table_id, game_no), seats)

    # ----- asking -------------------------------------------------------------------------------------------------
    async def ask(self, t: Table, game_no: int, token: str, ip: str) -> tuple[str, Job | dict[str, Any]]:
        """The analysis of the seat ``token`` holds at table ``t`` in finished game ``game_no``: that seat, and
        the stored analysis (a dict) or the job making it (started now, or already running). Raises
        :class:`CoachRefusal` or :class:`~burraco.server.protocol.ClientError` (``not_found``: the game has not
        finished)."""
        seat = seat_of_token(t.seats, token)
        if seat is None:
            raise CoachRefusal("bad_token", 403, msg("coach_not_your_seat"))
        record = t.record(game_no)  # ClientError not_found unless the game is over
        letter = t.seat_names[seat.index]
        key = (t.id, game_no, letter)
        for _ in range(2):  # again after reading the store: a job may have ended meanwhile
            job = self.jobs.get(key)
            if job is not None:
                return letter, job
            done = self._saving.get(key) or (await self.stored(t.id, game_no)).get(letter)
            if done is not None:
                return letter, done
        user = token_hash(token)
        self._check_limits(user, ip)
        return letter, self._start(key, user, ip, record)

    def _check_limits(self, user: str, ip: str) -> None:
        running = list(self.jobs.values())
        if any(j.user == user for j in running):
            raise CoachRefusal("busy", 429, msg("coach_busy_you"))
        if sum(1 for j in running if j.ip == ip) >= self.config.coach_per_ip:
            raise CoachRefusal("busy", 429, msg("coach_busy_address", n=self.config.coach_per_ip))
        if len(running) >= self.config.coach_workers:
            raise CoachRefusal("busy", 503, msg("coach_busy_server"))

    def _start(self, key: tuple[str, int, str], user: str, ip: str, record: dict[str, Any]) -> Job:
        pool = self._ensure_pool()
        self._next_id += 1
        job = Job(self._next_id, key[0], key[1], key[2], user, ip)
        self.jobs[key] = job
        self._by_id[job.id] = job
        fut = pool.submit(_work, job.id, record, job.seat, self.config.coach_iterations, SEED, self.config.coach_cap)
        task = asyncio.create_task(self._finish(job, asyncio.wrap_future(fut)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    async def _finish(self, job: Job, work: Awaitable[dict[str, Any]]) -> None:
        key = (job.table, job.game_no, job.seat)
        try:
            result = await work
        except asyncio.CancelledError:
            self._forget(job)
            job.end(None, msg("coach_failed"))
            raise
        except Exception as e:
            log.exception("the coach failed on table %s game %s seat %s", job.table, job.game_no, job.seat)
            if isinstance(e, concurrent.futures.BrokenExecutor):
                self._pool = None  # a worker died: the next analysis starts a fresh pool
            self._forget(job)
            job.end(None, msg("coach_failed"))
            return
        # the progress comes on another channel than the result: its last lines, sent before the result, may still be
        # on their way; wait for them a little (at most half a second) so that every follower sees each decision
        for _ in range(50):
            if job.total is None or job.done >= job.total:
                break
            await asyncio.sleep(0.01)
        # asked again from now on, it is there at once: in memory while it is being stored, then in the store
        self._saving[key] = result
        kept = self._cache.get((job.table, job.game_no))
        if kept is not None:  # a game's entry holds every seat stored: this one too from now on
            kept[job.seat] = result
        self._forget(job)
        job.end(result, None)
        try:
            await self.analyses.save(job.table, job.game_no, job.seat, result, time.time())
        except Exception:
            log.exception("the coach's analysis of table %s game %s could not be stored", job.table, job.game_no)
        finally:
            self._saving.pop(key, None)

    def _forget(self, job: Job) -> None:
        self.jobs.pop((job.table, job.game_no, job.seat), None)
        self._by_id.pop(job.id, None)

    # ----- the worker processes ---------------------------------------------------------------------------------
    def _ensure_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is not None:
            return self._pool
        ctx = mp_context()
        if self._queue is None:
            self._queue = ctx.Queue()
            self._loop = asyncio.get_running_loop()
            self._pump = threading.Thread(target=self._read_progress, name="coach-progress", daemon=True)
            self._pump.start()
        self._pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=max(1, self.config.coach_workers), mp_context=ctx, initializer=_worker_init,
            initargs=(self._queue,),
        )
        return self._pool

    def _read_progress(self) -> None:
        """A thread: the workers' progress, handed to the event loop."""
        queue, loop = self._queue, self._loop
        assert loop is not None
        while True:
            try:
                item = queue.get()
            except (EOFError, OSError):
                return
            if item is None:
                return
            try:
                loop.call_soon_threadsafe(self._moved, *item)
            except RuntimeError:  # the loop is closed: the server stopped
                return

    def _moved(self, job_id: int, done: int, total: int) -> None:
        job = self._by_id.get(job_id)
        if job is not None and job.result is None:
            job.moved(done, total)

    async def stop(self) -> None:
        """Stop at the server's end: analyses not started are dropped, running ones end in their process."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._queue is not None:
            self._queue.put(None)
            if self._pump is not None:
                await asyncio.to_thread(self._pump.join, 5.0)
            self._queue = None


def merged(stored: dict[str, dict[str, Any]], seats: Sequence[str]) -> dict[str, Any] | None:
    """The analyses of several seats of one game as one (``burraco-analysis/1``): their decisions in the order of
    the record. Those made with another budget, seed or measurement cap than the first seat's are left out (one
    analysis has one of each); unreadable ones too. None when nothing is left."""
    parts: list[Analysis] = []
    for seat in seats:
        if seat in stored:
            with contextlib.suppress(ValueError):
                parts.append(Analysis.from_json(stored[seat]))
    if not parts:
        return None
    first = parts[0]
    key = (first.rules, first.iterations, first.seed, first.cap)
    same = [p for p in parts if (p.rules, p.iterations, p.seed, p.cap) == key]
    decisions = sorted((d for p in same for d in p.decisions), key=lambda d: (d.hand, d.index))
    return Analysis(first.rules, tuple(s for p in same for s in p.seats), first.iterations, first.seed,
                    decisions, cap=first.cap).to_json()


def texts(analysis: dict[str, Any], players: int, lang: str) -> dict[str, Any]:
    """The coach's words on an analysis in ``lang``, those of the terminal table: a note per marked decision
    (``The coach, mistake: better discard K♣ (95 points)``) and, per hand, its page (the title, each marked
    decision, the points lost by kind)."""
    a = Analysis.from_json(analysis)
    tr = Translator(lang)
    notes = [{"hand": d.hand, "index": d.index, "text": mark_line(tr, d, players)}
             for d in a.decisions if d.mark is not None]
    hands = [{"hand": h, "lines": coach_lines(tr, a.decisions, h, players, a.iterations)}
             for h in sorted({d.hand for d in a.decisions})]
    return {"notes": notes, "hands": hands}


def _line(obj: dict[str, Any]) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _bearer(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    tok = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
    if not tok:
        raise CoachRefusal("not_seated", 401, msg("coach_send_token"))
    try:
        return check_token(tok)
    except ClientError as e:
        raise CoachRefusal("bad_token", 403, msg("coach_not_your_seat")) from e


def routes(
    coach: Coach,
    hub: Hub,
    limited: Callable[[Handler], Handler],
    ip_of: Callable[[Request], str],
    sealed: Callable[[str], bool],
    lang_of: Callable[[Request], Awaitable[str]],
) -> list[Route]:
    """The coach's route, for :func:`burraco.server.app.create_app` (``limited``: the per-address request limit;
    ``ip_of``: the address a request counts against; ``sealed``: whether a table's records are closed now;
    ``lang_of``: the language a request asks its texts in)."""

    async def analysis(request: Request) -> Response:
        lang = await lang_of(request)
        table_id = request.path_params["table_id"]
        game_no = int(request.path_params["game_no"])
        try:
            token = _bearer(request)
            t = await hub.get(table_id)
            if t is None:
                raise ClientError("not_found", msg("srv_no_such_table"))
            if sealed(t.id):
                raise CoachRefusal("sealed", 403, msg("te_sealed"))
            seat, got = await coach.ask(t, game_no, token, ip_of(request))
        except CoachRefusal as e:
            return e.response(lang)
        except ClientError as e:
            return refusal(e.code, e.msg, lang, 404)
        players = len(t.seats)
        head = {"table": t.id, "game_no": game_no, "seat": seat, "lang": lang}

        def final(analysis: dict[str, Any]) -> bytes:
            return _line({"type": "analysis", **head, "analysis": analysis, **texts(analysis, players, lang)})

        async def stream() -> AsyncIterator[bytes]:
            if isinstance(got, dict):
                yield final(got)
                return
            q = got.follow()
            try:
                while True:
                    item = await q.get()
                    if item["type"] == "progress":
                        yield _line({**item, **head})
                    elif item["type"] == "done":
                        yield final(item["analysis"])
                        return
                    else:
                        why = item["msg"]
                        yield _line({"type": "error", **head, "error": item["error"],
                                     "message": render(why, lang, player=True), "msg": message_to_json(why)})
                        return
            finally:
                got.unfollow(q)

        return StreamingResponse(stream(), media_type="application/x-ndjson",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return [Route("/api/tables/{table_id}/games/{game_no:int}/analysis", limited(analysis), methods=["POST"])]


__all__ = ["CACHED_GAMES", "Coach", "CoachRefusal", "Job", "SEED", "merged", "routes", "texts"]
