"""Browser tests: Playwright driving Debian's Chromium against a live server.

Playwright cannot download its own browser here, so it launches /usr/bin/chromium.
Where Chromium, Playwright or axe-core is missing the tests are skipped with a loud
message; with BROWSER_TESTS_REQUIRED set (as .ci/run does) that is a failure.
"""

import os
import shutil
from pathlib import Path

import pytest
from django.test import Client

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Chromium on a closed network, as root: the flags that keep it quiet and working.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def unavailable(reason: str):
    message = f"BROWSER TESTS NOT RUN: {reason}"
    if os.environ.get("BROWSER_TESTS_REQUIRED"):
        pytest.fail(message)
    print(f"\n*** {message} ***")
    pytest.skip(message)


class Chromium:
    """Chromium for one test module, launched again if it has died: a browser that
    crashed fails the test it crashed in, not every test after it in the module."""

    def __init__(self, playwright):
        self.playwright = playwright
        self.browser = None

    def get(self):
        if self.browser is None or not self.browser.is_connected():
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=ARGS
            )
        return self.browser

    def close(self):
        if self.browser is not None and self.browser.is_connected():
            self.browser.close()


@pytest.fixture(scope="module")
def browser():
    """Chromium for one test module (see Chromium); Playwright's loop stops with it."""
    if not shutil.which(CHROMIUM):
        unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright for Python is not installed (pip install -e '.[dev]')")
    # Playwright's sync API runs an event loop in this thread, which Django takes for
    # async code; the tests' own ORM calls are plain synchronous code.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = Chromium(playwright)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def open_page(browser, live_server):
    """``open_page(user=None, viewport=DESKTOP, **options)`` → a page in a fresh context,
    logged in; ``options`` go to Playwright's ``new_context`` (``java_script_enabled``)."""
    contexts = []

    def open_(user=None, viewport=DESKTOP, **options):
        context = browser.get().new_context(
            viewport=viewport, base_url=live_server.url, locale="en-US", **options
        )
        context.set_default_timeout(10_000)
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies["sessionid"]
            context.add_cookies(
                [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
            )
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        if context.browser is not None and context.browser.is_connected():
            context.close()  # a context of a browser that died went with it


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def horizontal_overflow(page) -> int:
    """How many CSS pixels the page is wider than the viewport (0 when it fits)."""
    return page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def axe_violations(page, impacts=("serious", "critical")) -> list[dict]:
    """axe-core's violations of the given impacts on the current page."""
    if not AXE.exists():
        unavailable("axe-core is not installed (npm ci)")
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]]}
        for v in found
        if v["impact"] in impacts
    ]
