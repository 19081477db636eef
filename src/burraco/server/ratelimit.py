"""Token buckets for the per-connection and per-IP rate limits, and the map of per-IP buckets."""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict


class Bucket:
    """``rate`` tokens per second up to ``burst``; :meth:`take` spends one if it can."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def full_at(self) -> float:
        """The monotonic time at which this bucket is full again (forgetting it then loses nothing)."""
        if self.rate <= 0:
            return float("inf")
        return self.stamp + max(0.0, self.burst - self.tokens) / self.rate


def ip_key(ip: str) -> str:
    """The address a limit counts against: an IPv4 address itself, an IPv6 address by its /64 (one subscriber
    usually holds a whole /64, so rotating addresses inside it must not reset the limits)."""
    try:
        addr = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(addr) >> 64 << 64, 64)))
    return ip


class BucketMap:
    """One bucket per key, least recently used first. Past ``cap`` keys the buckets that are full again are
    dropped (forgetting them changes nothing), then, only if still needed, the least recently used ones: a flood
    of new addresses never resets the limits of the addresses in use, as clearing the whole map would."""

    def __init__(self, rate: float, burst: float, cap: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.cap = cap
        self._map: OrderedDict[str, Bucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._map)

    def __contains__(self, key: str) -> bool:
        return key in self._map

    def get(self, key: str) -> Bucket:
        b = self._map.get(key)
        if b is not None:
            self._map.move_to_end(key)
            return b
        if len(self._map) >= self.cap:
            self._evict()
        b = self._map[key] = Bucket(self.rate, self.burst)
        return b

    def take(self, key: str, cost: float = 1.0) -> bool:
        return self.get(key).take(cost)

    def _evict(self) -> None:
        now = time.monotonic()
        for k in [k for k, b in self._map.items() if b.full_at() <= now]:
            del self._map[k]
        if len(self._map) >= self.cap:  # still full: make room for a while (a scan per new key would be slow)
            while len(self._map) > self.cap * 9 // 10:
                self._map.popitem(last=False)


def admit(conn: Bucket, ip: Bucket) -> bool:
    """Whether a connection's message passes the limits: its own bucket first (a connection past its limit is
    refused, and spends nothing of its address's), then its address's ceiling, shared by every connection from
    there. When that ceiling is spent, a connection that has kept to its fair share (its own bucket at least half
    full) still passes: one abusive connection cannot spend the limit of the others on the same address."""
    if not conn.take():
        return False
    if ip.take():
        return True
    return conn.tokens >= conn.burst / 2
