"""The relay between the processes of ``serve --workers N`` when its Redis subscription fails (issue 42): a
connection relayed to another process must not be stranded by the outage. Redis is faked here (its pubsub's
``get_message`` fails, then answers again), so the order of events is exact; tests/test_server_cluster.py's cut and
outage tests run the same code against a real Redis."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from burraco.server.relay import Relays


class FakePubSub:
    """A subscription whose ``get_message`` follows a script: "fail" raises as redis-py does when the connection
    drops, "none" is a quiet second, "wait" blocks until the test lets the reader go on."""

    def __init__(self, script: list[str]) -> None:
        self.script = script
        self.go = asyncio.Event()

    async def subscribe(self, channel: str) -> None:
        pass

    async def get_message(self, ignore_subscribe_messages: bool = True, timeout: float = 1.0) -> dict[str, Any] | None:
        step = self.script.pop(0) if self.script else "wait"
        if step == "fail":
            raise ConnectionError("Connection reset by peer")
        if step == "wait":
            await self.go.wait()
            self.go.clear()
        return None


class Conn:
    ip, guest, account, bot = "127.0.0.1", "g", None, None

    def __init__(self) -> None:
        self.relay: Any = None


def make(script: list[str]) -> tuple[Relays, FakePubSub, list[Any]]:
    pubsub = FakePubSub(script)
    cluster = SimpleNamespace(node="front", closing=False, redis=SimpleNamespace(pubsub=lambda: pubsub))
    rejoined: list[Any] = []
    relays = Relays(cluster, handler=lambda *a: None, rejoin=lambda conn, texts: rejoined.append((conn, texts)))  # type: ignore[arg-type]
    return relays, pubsub, rejoined


async def until(cond: Any) -> None:
    for _ in range(400):
        if cond():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("timed out")


def test_a_hello_relayed_while_the_subscription_was_down_is_sent_again_once_subscribed() -> None:
    """A connection that joins (its hello published to the owner) between the subscription's failure and redis-py's
    subscribing again would wait for ever: the owner's answer went to a channel nobody here listened to. On the first
    answer of the subscription after a failure the relayed connections join again, and only then."""

    async def main() -> None:
        relays, pubsub, rejoined = make(["none", "fail", "wait", "wait", "wait"])
        early, late = Conn(), Conn()
        relays.open(early, "t1", "owner", {"type": "hello", "table": "t1"}, '{"type":"hello"}')
        reader = asyncio.create_task(relays._reader())
        try:
            await until(lambda: len(rejoined) == 1)  # the failure: the connection relayed before it joins again
            assert rejoined[0][0] is early and not relays.relays
            # the app joins it again: still through the relay (the table's owner is elsewhere), while Redis is down
            r = relays.open(late, "t1", "owner", {"type": "hello", "table": "t1"}, '{"type":"hello"}')
            await asyncio.sleep(0.3)  # the reader waits 0.2 s after a failure, then asks again: "wait" holds it
            assert len(rejoined) == 1  # not subscribed again yet: nothing to do
            pubsub.go.set()  # the subscription answers again
            await until(lambda: len(rejoined) == 2)
            assert rejoined[1][0] is late and r.sid not in relays.relays
            hello = rejoined[1][1][0]
            assert '"hello"' in hello  # it joins with its hello
            # later quiet answers move nobody
            relays.open(early, "t1", "owner", {"type": "hello", "table": "t1"}, '{"type":"hello"}')
            pubsub.go.set()
            await asyncio.sleep(0.05)
            pubsub.go.set()
            await asyncio.sleep(0.05)
            assert len(rejoined) == 2 and len(relays.relays) == 1
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    asyncio.run(main())


def test_a_connection_relayed_only_during_the_outage_joins_again_once_subscribed() -> None:
    """Nobody was relayed when the subscription failed (the failure itself moves nobody); a connection relayed
    while it was down joins again as soon as the subscription answers (before the fix it stayed relayed, waiting
    for an answer that had been lost)."""

    async def main() -> None:
        relays, pubsub, rejoined = make(["fail", "wait"])
        reader = asyncio.create_task(relays._reader())
        try:
            await asyncio.sleep(0.05)
            late = Conn()
            relays.open(late, "t1", "owner", {"type": "hello"}, '{"type":"hello"}')
            assert len(relays.relays) == 1 and not rejoined  # relayed, waiting for the owner's answer
            pubsub.go.set()
            await until(lambda: rejoined)
            assert not relays.relays
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    asyncio.run(main())
