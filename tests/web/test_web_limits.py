"""The web server's limiters, Origin check and settings from the environment, as plain
functions with a fake clock (issue 15, finding 3 and 6; the server-level tests are in
test_web_security.py)."""

from __future__ import annotations

import argparse

import pytest

from rummykit.web.config import (
    add_flags,
    from_env,
    given_flags,
    parse_bool,
    parse_list,
    server_settings,
)
from rummykit.web.limits import AddressLimiter, TokenBucket, address_key
from rummykit.web.origin import HostCheck, host_name, normalize_origin, origin_allowed
from rummykit.web.settings import Settings


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- token buckets -------------------------------------------------------------------------
def test_a_bucket_starts_full_spends_one_token_each_and_refills_at_its_rate() -> None:
    b = TokenBucket(3, 0.5, last=0.0)
    assert [b.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert b.wait(0.0) == pytest.approx(2.0)
    assert not b.take(1.9)
    assert b.take(2.0) and not b.take(2.0)
    assert [b.take(100.0) for _ in range(4)] == [True, True, True, False]  # capped


def test_a_bucket_with_no_rate_never_refills() -> None:
    b = TokenBucket(1, 0.0)
    assert b.take(0.0) and not b.take(1e9)
    assert b.wait(1e9) == float("inf")


def test_a_clock_going_backwards_does_not_drain_or_fill_a_bucket() -> None:
    b = TokenBucket(2, 1.0, last=10.0)
    assert b.take(10.0)
    assert b.take(5.0)  # the second token, not a negative refill
    assert not b.take(5.0)


# -- per address -------------------------------------------------------------------------------
def test_each_address_has_its_own_bucket_of_per_minute_tokens() -> None:
    clock = FakeClock()
    lim = AddressLimiter(3, clock=clock)
    assert [lim.allow("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert lim.allow("10.0.0.2")  # another address is unaffected
    assert lim.retry_after("10.0.0.1") == pytest.approx(20.0)
    assert lim.retry_after("10.0.0.9") == 0.0
    clock.now += 20.0
    assert lim.allow("10.0.0.1") and not lim.allow("10.0.0.1")


def test_zero_per_minute_turns_the_limit_off() -> None:
    lim = AddressLimiter(0)
    assert all(lim.allow("10.0.0.1") for _ in range(1000))
    assert lim.retry_after("10.0.0.1") == 0.0 and not lim.buckets


def test_a_burst_sets_the_bucket_s_size_and_keeps_the_limit_on() -> None:
    """Chat's limiter: ``chat_burst`` lines at once, then ``chat_rate`` a second, under
    any key (a seat's name, or an address)."""
    clock = FakeClock()
    lim = AddressLimiter(30, burst=5, clock=clock)
    assert [lim.take("seat 0") for _ in range(6)] == [True] * 5 + [False]
    assert lim.take("seat 1")
    clock.now += 2.0
    assert lim.take("seat 0") and not lim.take("seat 0")
    never = AddressLimiter(0, burst=2, clock=clock)
    assert never.enabled and [never.take("x") for _ in range(3)] == [True, True, False]
    clock.now += 1e6
    assert not never.take("x")


def test_the_table_of_addresses_is_bounded_forgetting_the_least_recent() -> None:
    """The limiter itself must not grow without end under a flood of addresses."""
    clock = FakeClock()
    lim = AddressLimiter(1, max_addresses=100, clock=clock)
    assert lim.allow("192.0.2.1") and not lim.allow("192.0.2.1")
    for i in range(10_000):
        lim.allow(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
        assert len(lim.buckets) <= 100
    keep = AddressLimiter(1, max_addresses=2, clock=clock)
    keep.allow("a")
    keep.allow("b")
    assert not keep.allow("a")  # "a" is now the most recent ...
    keep.allow("c")  # ... so "b" is forgotten
    assert list(keep.buckets) == ["a", "c"]
    with pytest.raises(ValueError):
        AddressLimiter(1, max_addresses=0)


def test_ipv6_addresses_count_per_64_network() -> None:
    """One subscriber's /64 holds 2**64 addresses: a fresh one per request must not
    bring a fresh bucket."""
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("testclient") == "testclient"
    assert address_key(None) == address_key("") == "?"
    lim = AddressLimiter(2)
    assert lim.allow("2001:db8::1") and lim.allow("2001:db8::2")
    assert not lim.allow("2001:db8::3")


# -- Origin ------------------------------------------------------------------------------------
def test_normalize_origin() -> None:
    assert normalize_origin("HTTPS://Rummy.Example:443") == "https://rummy.example"
    assert normalize_origin("http://rummy.example:8000/") == "http://rummy.example:8000"
    assert normalize_origin("http://[::1]:8000") == "http://[::1]:8000"
    for bad in ("null", "", "file://", "rummy.example", "javascript:alert(1)", "http://x:99999"):
        assert normalize_origin(bad) is None, bad


@pytest.mark.parametrize(
    ("origin", "host", "allowed", "ok"),
    [
        (None, "rummy.example", (), True),  # not a browser
        ("https://rummy.example", "rummy.example", (), True),
        ("https://rummy.example", "rummy.example:443", (), True),
        ("http://127.0.0.1:8000", "127.0.0.1:8000", (), True),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", (), False),
        ("https://evil.example", "rummy.example", (), False),
        ("https://rummy.example.evil.example", "rummy.example", (), False),
        ("null", "rummy.example", (), False),
        ("https://evil.example", None, (), False),
        ("https://app.example", "rummy.example", ("https://app.example",), True),
        ("https://app.example", "rummy.example", ("http://app.example",), False),
        ("http://evil.example:8000", "evil.example:8000", (), False),  # DNS rebinding
    ],
)
def test_origin_allowed(
    origin: str | None, host: str | None, allowed: tuple[str, ...], ok: bool
) -> None:
    """The server serves ``rummy.example`` (``allowed_hosts``)."""
    assert origin_allowed(origin, host, allowed, HostCheck(("rummy.example",))) is ok


# -- Host ----------------------------------------------------------------------------------------
def test_host_name_takes_the_name_out_of_a_host_header() -> None:
    assert host_name("Play.Example.:8000") == "play.example"
    assert host_name("[::1]:8000") == host_name("[0:0::1]") == "::1"
    assert host_name("127.0.0.1:80") == "127.0.0.1"
    for bad in ("", "a b", "[::1", "[::1]x", "[nope]", "x:y", "x:80:80", "a..b", ".", "é.example"):
        assert host_name(bad) is None, bad


def test_a_server_answers_to_localhost_addresses_and_the_names_it_lists() -> None:
    """Issue 27, finding 8: DNS rebinding reaches the server under the stranger's
    name; an address or ``localhost`` cannot be rebound."""
    hosts = HostCheck(("Play.Example", ".rummy.example", "*.games.example"))
    for ok in (
        None, "localhost:8000", "127.0.0.1", "[::1]:8000", "192.0.2.4:8000", "play.example",
        "rummy.example", "a.b.rummy.example", "x.games.example", "games.example",
    ):  # fmt: skip
        assert hosts.allows(ok), ok
    for bad in ("evil.example", "play.example.evil", "xrummy.example", "", "localhost.evil"):
        assert not hosts.allows(bad), bad
    assert HostCheck(("*",)).allows("evil.example")
    assert not HostCheck().allows("testserver")


# -- settings from the environment and flags --------------------------------------------------
def test_every_setting_comes_from_its_environment_variable() -> None:
    env = {
        "RUMMYKIT_TABLES_PER_MINUTE": "2.5",
        "RUMMYKIT_MAX_SPECTATORS": "7",
        "RUMMYKIT_OPENAPI": "yes",
        "RUMMYKIT_ALLOWED_ORIGINS": "https://a.example, https://b.example,",
        "RUMMYKIT_DATABASE_URL": "sqlite:///x.db",
        "OTHER": "1",
    }
    assert from_env(Settings, env) == {
        "tables_per_minute": 2.5,
        "max_spectators": 7,
        "openapi": True,
        "allowed_origins": ("https://a.example", "https://b.example"),
        "database_url": "sqlite:///x.db",
    }
    with pytest.raises(ValueError, match="RUMMYKIT_MAX_SPECTATORS"):
        from_env(Settings, {"RUMMYKIT_MAX_SPECTATORS": "many"})
    with pytest.raises(ValueError, match="RUMMYKIT_OPENAPI"):
        from_env(Settings, {"RUMMYKIT_OPENAPI": "perhaps"})
    assert parse_bool(" Off ") is False and parse_list("") == ()


def test_flags_win_over_the_environment_which_wins_over_the_defaults() -> None:
    p = argparse.ArgumentParser()
    add_flags(p, Settings, skip={"database_url"})
    args = p.parse_args(["--max-spectators", "9", "--allowed-origins", "https://a.example"])
    flags = given_flags(args, Settings)
    assert flags == {"max_spectators": 9, "allowed_origins": ("https://a.example",)}
    env = {"RUMMYKIT_MAX_SPECTATORS": "3", "RUMMYKIT_SOCKETS_PER_MINUTE": "0"}
    s = server_settings("sqlite:///y.db", env, **flags)
    assert s.max_spectators == 9 and s.sockets_per_minute == 0.0
    assert s.tables_per_minute == Settings.tables_per_minute
    assert s.allowed_origins == ("https://a.example",) and s.database_url == "sqlite:///y.db"
    with pytest.raises(SystemExit):
        p.parse_args(["--database-url", "x"])  # the database has its own flag
