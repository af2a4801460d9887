"""Rate limits for the web server: token buckets, alone or one per client address.

A stranger may create tables and open sockets, but not without end: each client
address has a bucket of ``per_minute`` tokens that refills at ``per_minute`` a minute,
and each new table or socket takes one.  A connection's
messages use the same :class:`TokenBucket`, and a table's chat lines one per seat or
spectator's address (an :class:`AddressLimiter` with a ``burst``), so that a new
socket brings no new lines.

The table of addresses is itself bounded (:class:`AddressLimiter` forgets the address
used least recently once it holds ``max_addresses``), so a flood of addresses cannot
grow the limiter without end.  Forgetting an address only gives it a full bucket
again, which the attacker could have had anyway from that many addresses.  IPv6
addresses are counted per /64 network, the block one subscriber is usually given:
otherwise a single host could take a fresh address, and a fresh bucket, per request.

Pure bookkeeping with an injectable clock: no I/O, no threads, no timers.
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]


@dataclass
class TokenBucket:
    """``capacity`` tokens, refilled at ``rate`` tokens a second; starts full."""

    capacity: float
    rate: float
    tokens: float = -1.0
    """Tokens now (-1: not set yet, meaning full)."""
    last: float = 0.0
    """The clock's time when ``tokens`` was last brought up to date."""

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.capacity

    def _refill(self, now: float) -> None:
        if now > self.last:
            self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def take(self, now: float) -> bool:
        """Spend one token if there is one; False (and nothing spent) if not."""
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self, now: float) -> float:
        """Seconds until a token is available (0 if one is)."""
        self._refill(now)
        if self.tokens >= 1.0:
            return 0.0
        if self.rate <= 0:
            return float("inf")
        return (1.0 - self.tokens) / self.rate


def address_key(host: str | None) -> str:
    """The key an address is limited under: IPv4 as is, IPv6 by its /64 network (an
    IPv4-mapped IPv6 address counts as its IPv4 address), anything else verbatim."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:100]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class AddressLimiter:
    """One :class:`TokenBucket` per client address: ``per_minute`` events a minute,
    in bursts of up to ``per_minute``.  ``per_minute <= 0`` turns the limit off.
    With ``burst``, bursts of up to ``burst`` and always on (``per_minute`` 0: no
    more than ``burst`` events in all)."""

    def __init__(
        self,
        per_minute: float,
        *,
        burst: float | None = None,
        max_addresses: int = 10_000,
        clock: Clock = time.monotonic,
    ) -> None:
        if max_addresses < 1:
            raise ValueError("max_addresses must be at least 1")
        self.per_minute = per_minute
        self.burst = burst
        self.max_addresses = max_addresses
        self.clock = clock
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    @property
    def enabled(self) -> bool:
        return self.burst is not None or self.per_minute > 0

    def _bucket(self, key: str, now: float) -> TokenBucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            capacity = self.per_minute if self.burst is None else self.burst
            bucket = TokenBucket(capacity, max(0.0, self.per_minute) / 60.0, last=now)
            self.buckets[key] = bucket
            while len(self.buckets) > self.max_addresses:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket

    def allow(self, host: str | None) -> bool:
        """Count one event for ``host``; False when its bucket is empty."""
        return self.take(address_key(host))

    def take(self, key: str) -> bool:
        """Count one event under ``key`` as it is (an :func:`address_key`, or another
        name such as a seat's); False when its bucket is empty."""
        if not self.enabled:
            return True
        now = self.clock()
        return self._bucket(key, now).take(now)

    def retry_after(self, host: str | None) -> float:
        """Seconds until ``host`` may try again (0 if it may now)."""
        return self.wait(address_key(host))

    def wait(self, key: str) -> float:
        """Seconds until ``key`` (as :meth:`take` counts it) may try again (0 if it
        may now)."""
        if not self.enabled:
            return 0.0
        bucket = self.buckets.get(key)
        return 0.0 if bucket is None else bucket.wait(self.clock())


def backoff_delay(failures: int, free: int, base: float, cap: float) -> float:
    """Seconds to wait after the ``failures``-th failure in a row: nothing for the
    first ``free``, then ``base`` seconds, each one after that twice as long as the
    one before, up to ``cap`` (an account name's wrong passwords, web/accounts.py).

    >>> [backoff_delay(n, 2, 2.0, 10.0) for n in range(1, 7)]
    [0.0, 0.0, 2.0, 4.0, 8.0, 10.0]
    """
    over = failures - free
    return 0.0 if over <= 0 else min(cap, base * 2.0 ** min(over - 1, 60))
