"""What the browser tests share: Debian's Chromium driven by Playwright (never a browser Playwright downloads) and
pages of a given size. A test module calls :func:`require` (which skips it where Playwright or Chromium is missing)
and takes the ``browser`` fixture of tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")


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
    **context: Any,
) -> Any:
    """A page in a new context of ``width``×``height`` (``touch``: a phone's touch screen). ``bypass_csp``: the
    tests' own ``wait_for_function`` predicates are strings, which the pages' Content-Security-Policy (no eval)
    refuses; the tests of the policy itself pass False."""
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
