"""The web server's settings: one dataclass, every field documented with its default.

Kept apart from :mod:`rummykit.web.server` so that the command line can build
``rummy serve``'s flags from it (web.config) without importing FastAPI and the rest
of the server, which every other ``rummy`` command would then pay for at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..bots import Bot


@dataclass
class Settings:
    database_url: str = ""
    migrate: bool = True
    """Bring the database's schema to this release's at start (web/schema.py); off
    (``--no-migrate``), a database not already there is refused, naming
    ``rummy db upgrade``: for deployments that migrate as a separate step."""
    bot_delay: float = 0.6
    """Seconds a bot waits before each action, so people can follow the play."""
    young_gc: float = 0.1
    """Seconds between the event loop's collections of the young generation
    (:func:`rummykit.web.server.young_collections`); 0 leaves them to CPython."""
    disconnect_grace: float = 60.0
    """A seated player away this long has their turns played for them (casual tables)."""
    seat_address_keep: float = 604_800.0
    """Seconds the address a rated table's seat was taken from is kept (as a digest)
    for the ``same_address`` flag, after the seat was last taken from it."""
    abandon_grace: float = 60.0
    """At a rated table, a player who is gone when their turn's time is up (at once
    without a turn timer) has this many seconds to come back; then the match ends as
    their loss (docs/accounts.md, "Abandoned games")."""
    hint_budget: int = 0
    """Paired samples of a hint; 0: the review's budget (``review_budget``, else the
    engine's for the game), so the move hinted is the one the review grades best."""
    rate: float = 20.0
    """Client messages per second allowed (token bucket) ..."""
    burst: float = 40.0
    """... with bursts up to this many."""
    flood_close: int = 400
    """A client that sends this many messages over the limit is disconnected."""
    send_timeout: float = 10.0
    """Seconds a message may wait for a client to read it; a client that takes longer
    is disconnected (close code 4408), so it cannot hold its table's broadcasts back."""
    # -- limits per client address (docs/protocol.md, "Limits") -------------------------
    tables_per_minute: float = 10.0
    """Tables one client address may create a minute (bursts as large); 0: no limit."""
    sockets_per_minute: float = 60.0
    """WebSockets one client address may open a minute (bursts as large); 0: no limit."""
    limit_addresses: int = 10_000
    """Client addresses the limiters remember (least recently seen forgotten first)."""
    max_spectators: int = 50
    """Spectator connections per table; one more is refused (``spectators_full``)."""
    max_seat_sockets: int = 3
    """Connections per seat (tabs); a newer one closes the oldest (code 4409)."""
    chat_burst: float = 5.0
    """Chat lines a seat, or a spectator's address, may send at a table at once ..."""
    chat_rate: float = 0.5
    """... and then per second (5 lines, then one every 2 s)."""
    allowed_origins: tuple[str, ...] = ()
    """Browser origins allowed to open WebSockets besides the server's own."""
    openapi: bool = False
    """Serve ``/openapi.json`` (the API schema)."""
    # -- bot thinking and tables in memory (docs/protocol.md, "Limits") -----------------
    bot_workers: int = -1
    """Processes that think for the bots (web/thinking.py).  -1: one fewer than the
    machine's cores, at least one; 0: a thread of the server process (tests)."""
    bot_cpu: float = 1.0
    """CPU seconds the hard bot may think per move (it stops earlier once sure)."""
    bot_nice: int = 10
    """How much lower the bot processes' scheduling priority is than the server's."""
    bot_factory: Callable[[str], Bot] | None = None
    """Makes a bot from its name (default :func:`~rummykit.bots.make_bot`): tests give
    broken bots.  One that cannot be pickled (a lambda) thinks in the server process."""
    max_tables: int = 2000
    """Tables in memory at most (web/residency.py); more are refused with 503."""
    idle_unload: float = 300.0
    """Seconds a table with nobody connected and nothing to play stays in memory."""
    abandon_after: float = 86400.0
    """Seconds an unfinished table with nobody connected lasts before it expires."""
    finished_after: float = 3600.0
    """Seconds a finished or failed table with nobody connected lasts."""
    sweep_every: float = 30.0
    """Seconds between two passes that unload idle tables and expire abandoned ones."""
    # -- many processes on one PostgreSQL database (web/cluster.py, docs/deploy.md) -----
    cluster: bool = True
    """With PostgreSQL, share the tables with other processes on the same database
    (leases, notices, forwarding, failover); with SQLite there is one process."""
    node_id: str = ""
    """This process's name among them; empty: ``host-pid-random``."""
    lease_seconds: float = 3.0
    """How long a table's lease lasts without renewal (renewed every third of it): a
    dead process's tables are taken over by another within about this plus a second."""
    # -- round reviews (web/reviews.py, docs/protocol.md, "Limits") ---------------------
    review_burst: float = 3.0
    """Round reviews a connection may ask for at once (one from the cache counts too) ..."""
    review_per_minute: float = 1.0
    """... and then a minute; 0: no limit per connection (``max_reviews`` still holds)."""
    max_reviews: int = 4
    """Reviews the server works out at once; one more is refused with ``busy``."""
    review_cache: int = 128
    """Finished reviews remembered, the least recently asked for forgotten first."""
    review_budget: int = 0
    """Paired samples per decision a review may take at most; 0: the engine's budget
    for the game (:func:`~rummykit.bots.review.default_budget`, as ``rummy review``),
    at most 15 CPU-seconds for a round of 40 decisions.  The review's seed is fixed
    (web/reviews.py), so a review is reproducible from the record."""
    # -- HTTP hygiene (docs/protocol.md, "Limits"; docs/deploy.md) -------------
    max_body: int = 16384
    """Bytes a request body may hold; a longer one is refused with 413 before it is read
    any further (``Content-Length``, or counted as a chunked body comes)."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names the server answers to besides ``localhost``, IP addresses and the name
    it listens on (``--host``): ``play.example``, ``.play.example`` (and subdomains),
    ``*`` (any: no defence against DNS rebinding).  Any other ``Host`` gets 400."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """Proxies trusted to name the client in ``X-Forwarded-For`` (uvicorn's option:
    addresses or networks, ``*`` any peer); none: the client is the socket's peer."""
    # -- a fair worker pool (web/thinking.py, docs/protocol.md, "Limits") -----
    hints_per_minute: float = 20.0
    """Hints one client address may ask for a minute (bursts as large); 0: no limit.
    A request for a hint already being worked out (same table, seat and version, from
    another tab) joins it and costs nothing."""
    reviews_per_address: int = 1
    """Reviews one client address may have worked out at once (of ``max_reviews``);
    one more is refused with ``busy``."""
    review_max_decisions: int = 60
    """Decisions a review grades at most; a round with more is graded on that many,
    evenly spread over the round, and the review says so (``graded`` of ``total``)."""
    max_bot_tables: int = 50
    """Tables of bots only in play at once on the server, counted apart from
    ``max_tables`` (people's tables); one more is refused with 503 ``server_full``."""
    bot_tables_per_address: int = 2
    """Tables of bots only one client address may have in play at once; one more is
    refused with 429."""
    # -- the rules policy, rule sets, records (web/policy.py; protocol.md "Limits")
    policy_max_hand: int = 15
    """Cards a deal may give each player (``hand_size``, ``deal_sizes``) at tables made
    here; the presets deal at most 13.  0: no limit (every rule set the library plays)."""
    policy_cards_per_seat: int = 54
    """Cards of the decks per seat at most (two decks with jokers at two seats, three
    decks from three seats); 0: no limit."""
    policy_max_turns: int = 1000
    """``max_turns`` at most (the presets' own); 0: no limit."""
    policy_max_restocks: int = 10
    """``max_restocks`` at most; 0: no limit."""
    policy_max_buys: int = 5
    """``buys_per_round`` at most (each buy adds two cards to a hand; Contract Rummy
    allows 3); 0: no limit."""
    policy_max_deals: int = 1000
    """``max_deals`` at most (the presets' own); 0: no limit."""
    new_rule_sets_per_minute: float = 12.0
    """Meld catalogues built a minute for rule sets none of the presets shares one
    with (overall, not per address: a three-deck catalogue costs up to half a second
    of CPU, which a stranger could ask for again and again with new options; bursts
    as large); 0: no limit."""
    rule_sets: int = 32
    """Distinct rule sets whose meld tables this process keeps (least recently used
    forgotten first); each table of rules holds on to its own while it is in memory."""
    record_per_minute: float = 6.0
    """Match records (``GET /api/tables/{id}/record``) one client address may download
    a minute (bursts as large); 0: no limit."""
    # -- accounts (web/accounts.py, docs/accounts.md, docs/protocol.md "Limits") ----
    session_days: float = 30.0
    """Days a sign-in lasts (the session's cookie and its row); signing in again, or
    changing the password, starts a new one."""
    secure_cookies: bool = False
    """Mark the session cookie ``Secure`` on every answer.  Off, it is marked so on
    requests that came over TLS: to this process, or to a proxy named in
    ``forwarded_allow_ips`` that says so in ``X-Forwarded-Proto``.  Turn it on when
    TLS ends at a proxy the server does not trust to name the scheme."""
    signin_per_minute: float = 10.0
    """Sign-in attempts one client address may make a minute (bursts as large),
    right or wrong, counted in the database over every server process; 0: no
    limit."""
    signin_free_failures: int = 5
    """Wrong passwords an account (a typed username) takes before it backs off ..."""
    signin_backoff: float = 2.0
    """... then the seconds it waits after the next wrong one, doubled at each
    further one ..."""
    signin_backoff_max: float = 900.0
    """... up to this many.  A right password resets the count."""
    signin_forget: float = 86_400.0
    """Seconds after a name's last wrong password (its wait over) when its count is
    forgotten; the counts are in the database, shared by every server process."""
    signups_per_minute: float = 2.0
    """Accounts one client address may create a minute (bursts as large), counted in
    the database over every server process; 0: no limit."""
    password_min: int = 8
    """Characters a new password has at least (at most 256)."""
    password_time_cost: int = 3
    """argon2id's passes over memory (argon2-cffi's default, RFC 9106's second
    recommended profile) ..."""
    password_memory_kib: int = 65536
    """... the memory it fills, in KiB (64 MiB) ..."""
    password_parallelism: int = 4
    """... and its lanes.  Hashes made with other parameters still verify, and are
    made again with these at the next sign-in."""
    max_hashing: int = 2
    """Password hashes worked out at once (each takes its memory and some 50 ms of
    CPU); more wait their turn."""
    # -- quick pairing (web/pairing.py, web/seeks.py; docs/protocol.md "Quick pairing") -
    pair_window: float = 2.0
    """How far apart (in openskill ``mu``, a newcomer's 25) two rated players' ratings
    may be when they start to wait ..."""
    pair_window_step: float = 1.0
    """... widened by this much ..."""
    pair_window_every: float = 5.0
    """... every this many seconds of waiting ..."""
    pair_window_max: float = 12.0
    """... up to this much (2 at once, 3 after 5 s, 7 after 25 s, 12 from 50 s)."""
    pair_bot_after: float = 30.0
    """Seconds a seek that opted in to a bot waits for people before medium bots take
    the other seats (a casual table)."""
    pair_every: float = 1.0
    """Seconds between two passes of a process's pairer over the queue (a new seek
    also starts one); 0: this process pairs nobody (others on the database do)."""
    pair_batch: int = 500
    """Waiting seeks one pass locks and pairs at most (the longest waiting first)."""
    pair_claim: float = 15.0
    """Seconds a process has to make the table of the seeks it took; past that (it
    died) they wait again and any process pairs them."""
    seek_ttl: float = 60.0
    """Seconds a waiting seek lasts without its player asking after it (each poll
    renews it); then it is dropped."""
    seek_keep: float = 300.0
    """Seconds a paired seek's seat link can still be fetched with its token."""
    seeks_per_minute: float = 6.0
    """Seeks one client address may make a minute (bursts as large), whether they
    are then cancelled or not, counted in the database over every server process;
    0: no limit ..."""
    seeks_per_account_minute: float = 4.0
    """... and one account (bursts as large), counted alike; 0: no limit."""
    # -- players' pages and leaderboards (web/profiles.py; docs/accounts.md) -----------
    profile_games: int = 50
    """Finished games a player's page lists (the latest), and counts results over."""
    profile_history: int = 500
    """Rated results a player's page charts (the latest, all games together)."""
    leaderboard_size: int = 100
    """Players a leaderboard lists."""
    pages_per_minute: float = 60.0
    """Players' pages and leaderboards one client address may ask for a minute
    (bursts as large); 0: no limit."""
