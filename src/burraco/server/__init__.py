"""``burraco serve``: the online server (Starlette + websockets, SQLAlchemy storage) and the browser client.

Needs the ``server`` extra: ``pip install "burraco[server]"``. The core package never imports this one.
"""

from __future__ import annotations

import dataclasses

from .config import ServerConfig
from .protocol import PROTOCOL_VERSION

__all__ = ["ServerConfig", "PROTOCOL_VERSION", "create_app", "serve"]


def create_app(config: ServerConfig | None = None):  # type: ignore[no-untyped-def]
    """The ASGI application (see :mod:`burraco.server.app`)."""
    from .app import create_app as _create

    return _create(config)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, log_level: str = "info",
          redis: str | None = None, workers: int = 1) -> None:
    """Run the server until interrupted (what ``burraco serve`` does). ``workers`` processes share the port
    (``redis`` and a PostgreSQL ``db`` are then required: :func:`~burraco.server.config.cluster_refusal`)."""
    import gc
    import os

    import uvicorn

    from .config import cluster_refusal, default_db_url
    from .guard import GuardedH11Protocol  # a deadline per request, a cap per address (server/guard.py)

    why = cluster_refusal(db or default_db_url(), redis or os.environ.get("BURRACO_REDIS", ""), workers)
    if why is not None:
        raise ValueError(why)
    if host not in ("127.0.0.1", "::1", "localhost"):  # listening beyond this machine: a public server
        os.environ["BURRACO_PUBLIC"] = "1"
    # fewer, later collections: a full collection over every table's games would stall the event loop
    gc.set_threshold(50_000, 20, 100)
    if workers > 1:  # each worker process builds its own app from the environment (uvicorn's factory)
        if db:
            os.environ["BURRACO_DB"] = db
        if redis:
            os.environ["BURRACO_REDIS"] = redis
        uvicorn.run("burraco.server:cluster_app", factory=True, workers=workers, host=host, port=port,
                    ws_max_size=1 << 20, log_level=log_level, ws="websockets-sansio", http=GuardedH11Protocol)
        return
    cfg = ServerConfig()
    if db:
        cfg = dataclasses.replace(cfg, db_url=db)
    if redis:
        cfg = dataclasses.replace(cfg, redis_url=redis)
    uvicorn.run(create_app(cfg), host=host, port=port, ws_max_size=1 << 20, log_level=log_level,
                ws="websockets-sansio", http=GuardedH11Protocol)


def cluster_app():  # type: ignore[no-untyped-def]
    """One worker of ``burraco serve --workers N``: the app with the settings of the environment."""
    return create_app(ServerConfig())
