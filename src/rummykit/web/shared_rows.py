"""The accounts' rows that several server processes on one database must agree on
(docs/accounts.md, "Brute force" and "Two accounts of one player"), described on
the store's :class:`~rummykit.web.store.Base` like the others (migrations 0007 and
0008).

``signin_failures``: the wrong passwords typed for each account name, so that a name
backs off on every process alike.  ``address_limits``: the sign-ins, sign-ups and
seeks of each client address, and the seeks of each account, so that an address or
account has one allowance over every process.  ``seat_addresses``: the client
addresses each seat of a rated table was taken from, on whichever process, for the
``same_address`` flag.  Names, addresses and the limits' account ids are kept only as
SHA-256 digests.
"""

from __future__ import annotations

from sqlalchemy import Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .store import Base


class SigninFailureRow(Base):
    """The wrong passwords typed for one name (web/accounts.py, ``SigninBackoff``)."""

    __tablename__ = "signin_failures"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the name as typed, case-folded (it may be no account's, or a
    password typed in the wrong box: never kept as typed)."""
    failures: Mapped[int] = mapped_column(Integer)
    until: Mapped[float] = mapped_column(Float)
    """When the name may try again, in seconds since the epoch."""
    at: Mapped[float] = mapped_column(Float, index=True)
    """The last wrong password; ``signin_forget`` seconds later the count goes."""


class AddressLimitRow(Base):
    """One client address's allowance of one kind (``signin``, ``signup`` or
    ``seek``), or one account's (``seekacct``; web/accounts.py,
    ``AddressAllowance``): its token bucket, kept as the time it is full again
    (web/account_store.py, ``address_take``)."""

    __tablename__ = "address_limits"

    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the address as the limits count it (an IPv6 address by its /64), or
    of the account's id (``seekacct``)."""
    full_at: Mapped[float] = mapped_column(Float, index=True)
    """When the bucket is full again, in seconds since the epoch: from then on the row
    says no more than no row does, and the sweep deletes it."""


class SeatAddressRow(Base):
    """A client address a seat of a rated table was taken from (web/ratings.py,
    ``flags``): every process writes the sockets it serves, so that the match's end,
    on whichever process, compares them all."""

    __tablename__ = "seat_addresses"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the address as the limits count it (an IPv6 address by its /64), or
    of the account's id (``seekacct``)."""
    at: Mapped[float] = mapped_column(Float, index=True)
    """The last time the seat was taken from it; ``seat_address_keep`` later it goes."""
