"""Draw docs/img/play-table.svg, the screenshot of ``burraco play`` in the README.

Run from the repository root: ``python docs/img/play_screenshot.py [OUT.svg] [--lang it] [--size 120x40]``. A
seeded game is played (the human seat following the medium hint) up to a turn, some rounds in, where both sides
have melds on the table and the human has drawn; then the hint is asked for (it chooses its cards) and Textual
saves the screen as SVG.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path


async def _shoot(out: Path, lang: str, size: tuple[int, int]) -> None:
    from burraco import preset
    from burraco.i18n import Translator
    from burraco.tui.app import PlayApp
    from burraco.tui.session import Session

    s = Session.new(
        preset("italian"), partner="heuristic:medium", opponents="heuristic:medium", seed=21, save=False
    )
    s.play_computers()
    while not s.hand_over:
        v = s.view
        rounds = len(s.log.turns()) // 4
        if v.phase == "play" and min(len(v.melds[0]), len(v.melds[1])) >= 3 and rounds >= 4 and len(v.hand) >= 8:
            break
        s.play_human(s.hint("medium").action)
        s.play_computers()
    app = PlayApp(s, Translator(lang))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        app.save_screenshot(out.name, str(out.parent))


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", nargs="?", default="docs/img/play-table.svg")
    p.add_argument("--lang", default="en")
    p.add_argument("--size", default="120x40")
    a = p.parse_args()
    w, h = (int(x) for x in a.size.split("x"))
    asyncio.run(_shoot(Path(a.out), a.lang, (w, h)))
