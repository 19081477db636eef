"""``burraco serve``: the online server (Starlette + websockets, SQLAlchemy storage) and the browser client.

Needs the ``server`` extra: ``pip install "burraco[server]"``. The core package never imports this one.
"""

from __future__ import annotations

from .config import ServerConfig
from .protocol import PROTOCOL_VERSION

__all__ = ["ServerConfig", "PROTOCOL_VERSION", "create_app", "serve"]


def create_app(config: ServerConfig | None = None):  # type: ignore[no-untyped-def]
    """The ASGI application (see :mod:`burraco.server.app`)."""
    from .app import create_app as _create

    return _create(config)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, log_level: str = "info") -> None:
    """Run the server until interrupted (what ``burraco serve`` does)."""
    import gc

    import uvicorn

    # fewer, later collections: a full collection over every table's games would stall the event loop
    gc.set_threshold(50_000, 20, 100)
    cfg = ServerConfig(db_url=db) if db else ServerConfig()
    uvicorn.run(create_app(cfg), host=host, port=port, ws_max_size=1 << 20, log_level=log_level,
                ws="websockets-sansio")
