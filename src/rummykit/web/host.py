"""Where a table is hosted: in this process alone, or shared by a cluster.

The table service, the sessions and the residency call a :class:`Host` and never ask
which kind it is.  :class:`LocalHost` holds every table it loads (SQLite, or one
process on PostgreSQL); :class:`~rummykit.web.cluster.Cluster` holds a table through a
lease, follows the others' tables as replicas, forwards its clients' requests to their
owners and tells the other processes what changed (web/cluster.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .forwarded import TableRequest
    from .live import LiveTable


class Host(Protocol):
    """What the server asks of whatever hosts its tables."""

    async def start(self) -> None:
        """Start hosting: load or take the tables that play by themselves."""

    async def stop(self) -> None: ...

    def healthy(self) -> bool:
        """Whether tables can be hosted now (with a cluster: its notices are heard)."""
        ...

    def owns(self, live: LiveTable) -> bool:
        """Whether this process applies the table's moves and plays its bots."""
        ...

    async def acquire(self, table_id: str) -> int | None:
        """Take a table that is coming into memory; its lease token, if any."""
        ...

    async def loaded(self, live: LiveTable) -> None:
        """A table just came into memory: drive it if this process owns it."""

    async def submit(self, live: LiveTable, request: TableRequest) -> dict[str, Any] | None:
        """Have the table's owner do ``request``: its answer, or None when this process
        owns the table and does it itself.  The owner's refusal is raised here."""
        ...

    async def release(self, live: LiveTable) -> None:
        """The table leaves memory: let another process take it."""

    def lost(self, live: LiveTable) -> None:
        """A write was refused for a lease taken by another process."""

    async def refresh(self, live: LiveTable) -> bool:
        """Read a followed table again now; whether it was read."""
        ...

    async def announce(self, live: LiveTable) -> None:
        """Who is connected here changed."""

    def seated(self, live: LiveTable) -> None:
        """A player took a seat here."""

    async def seats_changed(self, live: LiveTable) -> None: ...

    async def moved(self, live: LiveTable) -> None:
        """A change stored outside the move path (a failed or abandoned table)."""

    async def chat(self, live: LiveTable, entry: dict[str, Any]) -> None: ...


class Loading(Protocol):
    async def start(self, load: bool = True) -> None: ...


class LocalHost:
    """One process holds every table it loads: nothing to forward or tell."""

    def __init__(self, drive: Callable[[LiveTable], None], residency: Loading) -> None:
        self.drive = drive
        """Starts a table's driver (web/driver.py)."""
        self.residency = residency

    async def start(self) -> None:
        await self.residency.start(load=True)

    async def stop(self) -> None:
        pass

    def healthy(self) -> bool:
        return True

    def owns(self, live: LiveTable) -> bool:
        return True

    async def acquire(self, table_id: str) -> int | None:
        return None

    async def loaded(self, live: LiveTable) -> None:
        self.drive(live)

    async def submit(self, live: LiveTable, request: TableRequest) -> dict[str, Any] | None:
        return None

    async def release(self, live: LiveTable) -> None:
        pass

    def lost(self, live: LiveTable) -> None:
        pass

    async def refresh(self, live: LiveTable) -> bool:
        return False

    async def announce(self, live: LiveTable) -> None:
        pass

    def seated(self, live: LiveTable) -> None:
        pass

    async def seats_changed(self, live: LiveTable) -> None:
        pass

    async def moved(self, live: LiveTable) -> None:
        pass

    async def chat(self, live: LiveTable, entry: dict[str, Any]) -> None:
        pass
