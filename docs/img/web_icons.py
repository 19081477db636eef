"""Render the browser table's app icons (``src/burraco/server/static/icon-192.png`` and ``icon-512.png``, named by
its web app manifest) from the icon the project draws, ``static/icon.svg``, with Debian's Chromium.

Run from the repository root after changing the SVG: ``python docs/img/web_icons.py [--chromium PATH]``.
"""

from __future__ import annotations

import argparse
import base64
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "burraco" / "server" / "static"


def render(chromium: str) -> list[Path]:
    """Write the PNG icons; returns their paths."""
    from playwright.sync_api import sync_playwright

    svg = base64.b64encode((STATIC / "icon.svg").read_bytes()).decode()
    out = []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        for size in (192, 512):
            page = b.new_page(viewport={"width": size, "height": size})
            page.set_content(f'<body style="margin:0"><img width="{size}" height="{size}" '
                             f'src="data:image/svg+xml;base64,{svg}"></body>')
            path = STATIC / f"icon-{size}.png"
            page.screenshot(path=str(path), omit_background=True)
            out.append(path)
        b.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    for path in render(ap.parse_args().chromium):
        print(path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
