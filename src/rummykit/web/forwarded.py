"""The requests a replica forwards to a table's owner (web/cluster.py), as models.

A request a client makes of a table (a move, a rematch, a join, a seat claim) is one
of these whichever process the client reached: the owner does it at once, a replica
sends it to the owner (:meth:`~rummykit.web.host.Host.submit`), and the owner reads it
back with :data:`FORWARDED` and does it the same way.  A ``handover`` asks the owner
to give the table up to the process where its players are.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .protocol import MAX_NAME, MoveIntent


class _Forwarded(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MoveRequest(_Forwarded):
    """A seat's move, checked against ``version`` (docs/protocol.md, ``move``)."""

    kind: Literal["move"] = "move"
    seat: Annotated[int, Field(ge=0)]
    move: MoveIntent
    version: Annotated[int, Field(ge=0)] | None = None


class RematchRequest(_Forwarded):
    kind: Literal["rematch"] = "rematch"
    seat: Annotated[int, Field(ge=0)]
    version: Annotated[int, Field(ge=0)]


AccountId = Annotated[str, Field(max_length=32)]
"""An account's id (web/accounts.py): the seat taken is that account's."""


class JoinRequest(_Forwarded):
    """The first seat opened to the public, for whoever asked (``POST .../join``)."""

    kind: Literal["join"] = "join"
    name: Annotated[str, Field(max_length=MAX_NAME)] | None = None
    account: AccountId | None = None


class ClaimRequest(_Forwarded):
    """A seat whose link was used, with the name its holder gave."""

    kind: Literal["claim"] = "claim"
    seat: Annotated[int, Field(ge=0)]
    name: Annotated[str, Field(max_length=MAX_NAME)] = ""
    account: AccountId | None = None


class HandoverRequest(_Forwarded):
    """Give the table up to the process that asks (web/cluster.py, "Ownership")."""

    kind: Literal["handover"] = "handover"


TableRequest = MoveRequest | RematchRequest | JoinRequest | ClaimRequest
"""What a client asks of a table, here or through another process."""
Forwarded = Annotated[TableRequest | HandoverRequest, Field(discriminator="kind")]
FORWARDED: TypeAdapter[TableRequest | HandoverRequest] = TypeAdapter(Forwarded)


def encode(request: TableRequest | HandoverRequest) -> tuple[str, dict[str, Any]]:
    """The request's kind and arguments, as a forwarded call carries them."""
    args = request.model_dump(mode="json", exclude_none=True)
    return str(args.pop("kind")), args


def decode(kind: Any, args: Any) -> TableRequest | HandoverRequest:
    """A forwarded request read back; pydantic's ValidationError (a ValueError) if it
    is not one."""
    if not isinstance(args, dict):
        args = {}
    return FORWARDED.validate_python({**args, "kind": kind})
