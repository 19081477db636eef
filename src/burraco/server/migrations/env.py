"""Alembic environment: the server passes its open connection in ``config.attributes["connection"]``
(see :meth:`burraco.server.store.Store.migrate`). Importing this module outside Alembic does nothing."""

from alembic import context


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run the migrations through burraco.server.store.Store.migrate()")
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()


try:
    _inside_alembic = context.config is not None
except (AttributeError, NameError):  # imported by a tool (doctest collection), not run by Alembic
    _inside_alembic = False
if _inside_alembic:
    run_migrations()
