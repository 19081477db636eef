"""Server settings: one frozen dataclass, read from the command line and the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..analysis import MEASURE_CAP


def default_db_url() -> str:
    """``BURRACO_DB`` when set, else an SQLite file in the user's data folder (created on demand)."""
    env = os.environ.get("BURRACO_DB")
    if env:
        return env
    import platformdirs

    folder = Path(platformdirs.user_data_dir("burraco", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'burraco.sqlite3'}"


def _env_origins() -> tuple[str, ...]:
    return tuple(x.strip() for x in os.environ.get("BURRACO_ORIGINS", "").split(",") if x.strip())


def _env_director_password() -> str:
    """``BURRACO_DIRECTOR_PASSWORD``, else the first line of the file ``BURRACO_DIRECTOR_PASSWORD_FILE`` names
    (a secret kept out of the process list and the shell's history), else none."""
    v = os.environ.get("BURRACO_DIRECTOR_PASSWORD", "")
    path = os.environ.get("BURRACO_DIRECTOR_PASSWORD_FILE", "")
    if not v and path:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        v = lines[0].strip() if lines else ""
    return v


def _env_float(name: str, default: float) -> float:
    v = os.environ.get(name)
    return float(v) if v else default


@dataclass(frozen=True)
class ServerConfig:
    """Everything the server can be tuned with. The ``BURRACO_*`` environment variables override the defaults
    (tests and load runs use them to make computer players instant and to lift the rate limits)."""

    db_url: str = field(default_factory=default_db_url)
    #: seconds a computer player waits before it moves (so that people can follow the game)
    bot_delay: float = field(default_factory=lambda: _env_float("BURRACO_BOT_DELAY", 0.7))
    #: seconds between the end of a hand and the next deal, unless a seated player asks for it sooner
    between_hands: float = field(default_factory=lambda: _env_float("BURRACO_BETWEEN_HANDS", 20.0))
    #: seconds before a computer player takes over a disconnected or out-of-time human (the table may set its own)
    grace: float = field(default_factory=lambda: _env_float("BURRACO_GRACE", 20.0))
    #: seconds the deal of a hand waits, at most, for the contributions of the people seated (docs/fairness.md):
    #: it is dealt as soon as every connected seat's browser has sent its own
    contribution_wait: float = field(default_factory=lambda: _env_float("BURRACO_CONTRIBUTION_WAIT", 5.0))
    #: the largest message a client may send, in bytes (longer ones are refused with ``too_large``)
    max_message: int = 4096
    #: per connection: messages per second (sustained) and burst
    conn_rate: float = field(default_factory=lambda: _env_float("BURRACO_CONN_RATE", 10.0))
    conn_burst: float = field(default_factory=lambda: _env_float("BURRACO_CONN_BURST", 30.0))
    #: per client IP: messages per second over all its connections, burst, and open connections at most
    ip_rate: float = field(default_factory=lambda: _env_float("BURRACO_IP_RATE", 60.0))
    ip_burst: float = field(default_factory=lambda: _env_float("BURRACO_IP_BURST", 120.0))
    ip_connections: int = field(default_factory=lambda: int(_env_float("BURRACO_IP_CONNECTIONS", 64)))
    #: per connection: messages refused ``rate_limited`` it may still send (a burst, refilled at ``flood_refill``
    #: a second) before it is closed with code 1008: a flood is cut off, a client that slows down is not
    flood_refusals: float = field(default_factory=lambda: _env_float("BURRACO_FLOOD_REFUSALS", 50.0))
    flood_refill: float = field(default_factory=lambda: _env_float("BURRACO_FLOOD_REFILL", 1.0))
    #: seconds an address whose connection was cut off that way may open no new websocket (refused before the
    #: handshake; its other connections stay)
    flood_cooldown: float = field(default_factory=lambda: _env_float("BURRACO_FLOOD_COOLDOWN", 10.0))
    #: seconds a websocket may stay open without saying ``hello`` (then it is closed, code 1008)
    hello_deadline: float = field(default_factory=lambda: _env_float("BURRACO_HELLO_DEADLINE", 10.0))
    #: tables created per IP per minute
    ip_tables_per_minute: float = field(default_factory=lambda: _env_float("BURRACO_IP_TABLES", 30.0))
    #: per client IP: HTTP requests per second and burst over every /api route (a 429 past them)
    http_rate: float = field(default_factory=lambda: _env_float("BURRACO_HTTP_RATE", 20.0))
    http_burst: float = field(default_factory=lambda: _env_float("BURRACO_HTTP_BURST", 60.0))
    #: how many client addresses (IPv6: /64 networks) the per-IP limits remember at most; past it, those whose
    #: buckets are full again are forgotten first, then the least recently used
    ip_memory: int = 100_000
    #: tables with no human seat (computer players only) running at once: per creating IP, and on the server
    computer_tables_per_ip: int = field(default_factory=lambda: int(_env_float("BURRACO_COMPUTER_TABLES_PER_IP", 2)))
    computer_tables: int = field(default_factory=lambda: int(_env_float("BURRACO_COMPUTER_TABLES", 20)))
    #: at a table with no human seat, computer players wait at least this many seconds before each move (and
    #: between hands), whatever ``bot_delay`` says: such a table never runs flat out
    computer_table_delay: float = field(default_factory=lambda: _env_float("BURRACO_COMPUTER_DELAY", 1.0))
    #: a table still waiting for players with no human activity for this many seconds is closed (status
    #: ``abandoned``; it stays in the store)
    abandon_after: float = field(default_factory=lambda: _env_float("BURRACO_ABANDON_AFTER", 86400.0))
    #: a reconnecting client further behind than this gets a full resync instead of the missed events
    max_replay_events: int = 2000
    #: a finished table nobody has watched for this many seconds leaves memory (the store keeps it; it is
    #: rebuilt when someone asks for it again)
    unload_after: float = field(default_factory=lambda: _env_float("BURRACO_UNLOAD_AFTER", 600.0))
    #: origins besides the server's own whose pages may open the websocket (``BURRACO_ORIGINS``, comma-separated,
    #: e.g. ``https://burraco.example``): a page of any other site is refused at the handshake
    origins: tuple[str, ...] = field(default_factory=_env_origins)
    #: ``redis://…`` (``BURRACO_REDIS``): several server processes share the tables through it (server/cluster.py;
    #: the store must then be PostgreSQL). Empty: this process alone serves every table (the default)
    redis_url: str = field(default_factory=lambda: os.environ.get("BURRACO_REDIS", ""))
    #: seconds a table's lease in Redis lasts without renewal (renewed every third of it): a process that died
    #: leaves its tables to the others after this long
    lease_ttl: float = field(default_factory=lambda: _env_float("BURRACO_LEASE_TTL", 5.0))
    #: seconds a ``hello`` waits for Redis to answer again (several processes): the connection is kept, the
    #: hello answered as soon as Redis is back; past this it is refused ``unavailable`` and closed (code 1013)
    redis_wait: float = field(default_factory=lambda: _env_float("BURRACO_REDIS_WAIT", 30.0))
    #: the coach (server/coach.py): analyses running at once in this process, each in a worker process of its own
    #: (``BURRACO_COACH_WORKERS``; default half the CPUs, at least one), so that a few users never take every core
    coach_workers: int = field(
        default_factory=lambda: int(_env_float("BURRACO_COACH_WORKERS", max(1, (os.cpu_count() or 2) // 2))))
    #: analyses asked from one client address (an IPv4 address, an IPv6 /64) running at once
    coach_per_ip: int = field(default_factory=lambda: int(_env_float("BURRACO_COACH_PER_IP", 2)))
    #: sampled deals per decision on which the coach chooses the best move (``burraco analyse``'s
    #: ``--iterations``; the default is the hint's budget, so the coach never marks the hint's move)
    coach_iterations: int = field(default_factory=lambda: int(_env_float("BURRACO_COACH_ITERATIONS", 32)))
    #: the most independent samples on which the coach measures a decision's loss (``burraco analyse``'s ``--cap``,
    #: ``BURRACO_COACH_CAP``; default :data:`burraco.analysis.MEASURE_CAP`): a smaller cap makes an analysis faster
    #: on a busy server, its marks rarer (a loss must be larger to be significant) but never a hint's move
    coach_cap: int = field(default_factory=lambda: int(_env_float("BURRACO_COACH_CAP", MEASURE_CAP)))
    #: who may create a tournament (``BURRACO_DIRECTOR_SIGNIN``): ``auto`` — a director's sign-in on a public
    #: server (listening beyond this machine: :attr:`public`), anyone on a local one; ``on`` — always; ``off`` —
    #: never (a club's own machine); ``account`` — only a signed-in account (docs/accounts.md) may, the password
    #: is not asked (``burraco serve --director-signin account``)
    director_signin: str = field(default_factory=lambda: os.environ.get("BURRACO_DIRECTOR_SIGNIN", "auto"))
    #: the server-wide directors' password or token the sign-in checks (``BURRACO_DIRECTOR_PASSWORD``, or the
    #: file ``BURRACO_DIRECTOR_PASSWORD_FILE``); with sign-in required and none set, no event can be created
    director_password: str = field(default_factory=_env_director_password, repr=False)
    #: accounts (docs/accounts.md): failed sign-ins to one account, and from one client address, within
    #: ``signin_window`` seconds, past which sign-in is refused (counted in the store: by every process alike)
    signin_account_failures: int = field(default_factory=lambda: int(_env_float("BURRACO_SIGNIN_ACCOUNT", 5)))
    signin_ip_failures: int = field(default_factory=lambda: int(_env_float("BURRACO_SIGNIN_IP", 30)))
    signin_window: float = field(default_factory=lambda: _env_float("BURRACO_SIGNIN_WINDOW", 900.0))
    #: the server listens beyond this machine (``burraco serve --host`` other than a loopback address)
    public: bool = field(default_factory=lambda: os.environ.get("BURRACO_PUBLIC", "") == "1")

    def __post_init__(self) -> None:
        if self.director_signin not in ("auto", "on", "off", "account"):
            raise ValueError(f"BURRACO_DIRECTOR_SIGNIN must be auto, on, off or account (got {self.director_signin!r})")
        if self.coach_cap < 2:
            raise ValueError(f"BURRACO_COACH_CAP must be at least 2 samples (got {self.coach_cap})")

    @property
    def signin_required(self) -> bool:
        """Whether creating a tournament needs the directors' password (:attr:`director_signin`; ``account``
        asks for a signed-in account instead)."""
        return self.director_signin == "on" or (self.director_signin == "auto" and self.public)


def cluster_refusal(db_url: str, redis_url: str, workers: int) -> str | None:
    """Why this set-up cannot run (a sentence naming the rule), or None when it can: several processes
    (``workers`` above 1, or a ``redis_url`` that others may share) need PostgreSQL under them and Redis between
    them; SQLite is the one-process store."""
    if workers < 1:
        return f"--workers must be 1 or more (got {workers})"
    if workers > 1 and not redis_url:
        return (f"--workers {workers} needs Redis between the processes: give --redis redis://HOST:PORT (and a "
                "PostgreSQL store with --db postgresql+asyncpg://…); without them run one process (no --workers)")
    if redis_url and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        return f"--redis must be a redis://, rediss:// or unix:// URL (got {redis_url!r})"
    if redis_url and not db_url.startswith("postgresql"):
        return ("several server processes (--redis, --workers) share one PostgreSQL store: give --db "
                "postgresql+asyncpg://USER@HOST/DB (SQLite serves one process only; got "
                f"{db_url.split(':', 1)[0]})")
    return None
