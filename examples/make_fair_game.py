"""Write examples/fair-game.json: a hand dealt by the provably fair procedure (burraco-deal/1, docs/fairness.md)
as `burraco serve` deals it, with the record's ``fair`` object, then played to its end by four ``hard`` computer
players. ``burraco verify examples/fair-game.json`` checks it; ``burraco replay`` replays it (the replay ignores the
``fair`` object).

The server draws its seed with ``secrets`` and keeps it hidden until the hand ends; this example uses a fixed seed
and a fixed contribution so that the file never changes. Run from the repository root:
``python examples/make_fair_game.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from burraco import Game, preset
from burraco.bots.players import parse_player
from burraco.fair import FairInputs, commitment, fair_deal

OUT = Path(__file__).resolve().parent / "fair-game.json"


def main() -> None:
    rules = preset("italian")
    seed = hashlib.sha256(b"burraco example seed").digest()  # the server: secrets.token_bytes(32)
    contributions = {"S": hashlib.sha256(b"burraco example contribution").hexdigest()[:32]}  # South's browser
    inputs = FairInputs("example-table", 0, contributions, commitment(seed), seed.hex())
    deal = fair_deal(rules, seed, inputs.table, inputs.hand, contributions)
    g = Game.from_deal(rules, deal, 3)  # dealt by W: N plays first
    bot = parse_player("hard")(1)
    while not g.is_over:
        g.apply(bot.choose(g.view(g.current_seat), g.legal_actions()))
    record = g.to_record()
    record["hands"][0]["fair"] = inputs.to_json(g.seats)
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {OUT} ({g.end}, {len(g.actions)} actions)")


if __name__ == "__main__":
    main()
