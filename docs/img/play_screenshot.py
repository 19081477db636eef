"""Draw docs/img/play-table.svg, the screenshot of ``burraco play`` in the README.

Run from the repository root: ``python docs/img/play_screenshot.py``. A seeded game is played (the human seat
following the easy hint) up to a turn where both sides have melds on the table; then two cards are selected and
Textual saves the screen as SVG.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path


async def _shoot(out: Path) -> None:
    from burraco import preset
    from burraco.tui.app import CardHand, PlayApp
    from burraco.tui.i18n import Translator
    from burraco.tui.session import Session

    s = Session.new(
        preset("italian"), partner="heuristic:medium", opponents="heuristic:medium", seed=21, save=False
    )
    s.play_computers()
    while not s.hand_over:
        v = s.view
        if v.phase == "play" and len(v.melds[0]) >= 3 and len(v.melds[1]) >= 2 and len(v.hand) >= 8:
            break
        s.play_human(s.hint("medium").action)
        s.play_computers()
    app = PlayApp(s, Translator("en"))
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause()
        hand = app.query_one(CardHand)
        hand.selected = {0, 1}
        hand.cursor = 1
        hand.refresh()
        app.show_selection()
        await pilot.pause()
        app.save_screenshot(out.name, str(out.parent))


if __name__ == "__main__":
    asyncio.run(_shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img/play-table.svg")))
