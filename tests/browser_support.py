"""What the browser tests share: Debian's Chromium driven by Playwright (never a browser Playwright downloads) and
pages of a given size. A test module calls :func:`require` (which skips it where Playwright or Chromium is missing)
and takes the ``browser`` fixture of tests/conftest.py. And the client's own JavaScript run under Node.js
(:func:`run_in_node`), for the pieces of it that need no page."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
NODE = shutil.which("node")
STATIC = Path(__file__).resolve().parents[1] / "src" / "burraco" / "server" / "static"

_RUNNER = r"""
const fs = require("fs");
const [file, start, end, body] = JSON.parse(process.argv[process.argv.length - 1]);
const src = fs.readFileSync(file, "utf8"), a = src.indexOf(start), b = src.indexOf(end);
if (a < 0 || b < 0) throw new Error(`${start} … ${end} not found in ${file}`);
const input = JSON.parse(fs.readFileSync(0, "utf8"));
let output;
eval(src.slice(a, b) + "\n" + body);
process.stdout.write(JSON.stringify(output));
"""


def run_in_node(module: str, start: str, end: str, body: str, data: Any) -> Any:
    """Run the piece of the client's ``module`` (static/<module>) from ``start`` to the marker ``end`` it keeps for
    this, then ``body``: JavaScript that reads ``input`` (``data``) and sets ``output`` (returned, through JSON)."""
    assert NODE is not None, "no node to run the browser's JavaScript"
    done = subprocess.run([NODE, "-e", _RUNNER, "--", json.dumps([str(STATIC / module), start, end, body])],
                          input=json.dumps(data), text=True, capture_output=True, timeout=60, check=True)
    return json.loads(done.stdout)


def require() -> Any:
    """The ``playwright.sync_api`` module; skips the calling test module where it or Debian's Chromium is absent."""
    api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
    return api


def launch() -> Iterator[Any]:
    """Debian's Chromium, headless, for one test module (the ``browser`` fixture)."""
    with require().sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def new_page(
    browser: Any,
    width: int,
    height: int,
    *,
    timeout_ms: int,
    locale: str = "en-US",
    touch: bool = False,
    bypass_csp: bool = True,
    motion: bool = False,
    **context: Any,
) -> Any:
    """A page in a new context of ``width``×``height`` (``touch``: a phone's touch screen). ``bypass_csp``: the
    tests' own ``wait_for_function`` predicates are strings, which the pages' Content-Security-Policy (no eval)
    refuses; the tests of the policy itself pass False. ``motion``: the system lets the page animate (the moves'
    flights across the table, docs/web.md); without it the page is asked for reduced motion, as some players' systems
    ask, which the tests that follow a whole hand with motion (a hand at 1280×800 by clicks, one by touch at 360×740)
    and of the flights themselves do not: software-rendered flights took a seventh of the browser tests' CPU time
    (issue 45)."""
    if "reduced_motion" not in context:
        context["reduced_motion"] = "no-preference" if motion else "reduce"
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        bypass_csp=bypass_csp,
        has_touch=touch,
        is_mobile=touch,
        **context,
    )
    page = ctx.new_page()
    page.set_default_timeout(timeout_ms)
    return page
