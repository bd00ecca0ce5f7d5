"""The frame of every page in a browser: the skip link past the navigation."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_skip_link_shows_on_focus_and_skips_the_navigation(open_page):
    page = open_page()
    page.goto("/rules/")
    link = page.get_by_role("link", name="Skip to content")
    expect(link).not_to_be_in_viewport()
    page.keyboard.press("Tab")  # the first stop on the page
    expect(link).to_be_focused()
    expect(link).to_be_in_viewport()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    # the next stop is the first link of the content (the first game's rules)
    expect(page.locator("main a").first).to_be_focused()
    expect(link).not_to_be_in_viewport()
