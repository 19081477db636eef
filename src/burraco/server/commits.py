"""Commit–reveal at the tables (docs/fairness.md, docs/protocol.md "Provably fair deals"): what a table keeps of
each hand's commitment, the people's contributions and the revealed seed, and what it shows of them.

Before every hand the table commits (a ``commit`` event: the SHA-256 of a fresh 256-bit seed, the seed itself
stored with the event but never sent), each seated person's browser contributes (``contribution`` events), the
``hand`` event deals :func:`burraco.fair.fair_deal` of them all, and the ``hand_end`` event reveals the seed. A
duplicate event's table deals the event's hands instead: the event's secret, committed when the event was created,
its round's label, no contributions (every table of the round must get the same cards); the secret is revealed by a
``reveal`` event when the event ends.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from ..fair import FairInputs, commitment

#: what a ``commit`` event holds that is never sent to anybody (public_event strips it)
SECRET_KEYS = ("seed",)


@dataclass
class HandCommit:
    """One hand's commitment at a table, its contributions so far, and its seed once revealed."""

    game_no: int
    hand_no: int
    label: str  # the procedure's table label
    commitment: str
    seed: str  # hex: the hand's own seed, or a duplicate event's secret
    contribute: bool  # whether the seated people contribute (not at a duplicate event's table)
    contributions: dict[str, str] = field(default_factory=dict)  # seat letter -> hex
    at: float = 0.0  # when it was committed (time.monotonic(): how long the deal waits for contributions)
    dealt: bool = False
    revealed: bool = False

    def inputs(self) -> FairInputs:
        """The procedure's inputs as a record keeps them (the seed only once revealed)."""
        return FairInputs(self.label, self.hand_no, dict(self.contributions), self.commitment,
                          self.seed if self.revealed else None)

    def public_json(self, seats: tuple[str, ...]) -> dict[str, Any]:
        """What everybody may see of it (``state.fair``): no seed before it is revealed."""
        out = self.inputs().to_json(seats)
        out.update(game_no=self.game_no, hand_no=self.hand_no, contribute=self.contribute, dealt=self.dealt)
        out["seed"] = self.seed if self.revealed else None
        return out


def new_commit(game_no: int, hand_no: int, label: str, duplicate: dict[str, Any] | None) -> dict[str, Any]:
    """A ``commit`` event's data: a fresh 256-bit seed from the OS (``secrets``) and its commitment; at a duplicate
    event's table the event's secret (kept in the table's settings, not in the event) and its round's label."""
    if duplicate is not None:
        return {"game_no": game_no, "hand_no": hand_no, "table": str(duplicate["label"]), "hand": hand_no,
                "commitment": commitment(bytes.fromhex(str(duplicate["secret"]))), "contribute": False}
    seed = secrets.token_bytes(32)
    return {"game_no": game_no, "hand_no": hand_no, "table": label, "hand": hand_no,
            "commitment": commitment(seed), "contribute": True, "seed": seed.hex()}


def commit_from_event(d: dict[str, Any], duplicate: dict[str, Any] | None, at: float) -> HandCommit:
    """The :class:`HandCommit` of a ``commit`` event (live or on rebuild)."""
    seed = d.get("seed")
    if seed is None:
        seed = str((duplicate or {})["secret"])
    return HandCommit(int(d["game_no"]), int(d["hand_no"]), str(d["table"]), str(d["commitment"]), str(seed),
                      bool(d.get("contribute", True)), at=at)


__all__ = ["HandCommit", "SECRET_KEYS", "commit_from_event", "new_commit"]
