"""The lobby on a phone: every challenge's buttons within reach, without scrolling sideways."""

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.conftest import PHONE, axe_violations, horizontal_overflow, screenshot

pytestmark = pytest.mark.browser


def inside_viewport(box) -> bool:
    """Whether the box lies wholly within the phone's width, scrolling only down."""
    return box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_the_accept_button_of_an_open_challenge_is_on_screen_on_a_phone(open_page, alice, bob):
    services.create_challenge(alice, variant="carge", days_per_move=3, rated=True)
    page = open_page(bob, PHONE)
    page.goto("/lobby/")
    accept = page.locator("#challenges").get_by_role("button", name="Accept")
    expect(accept).to_be_visible()
    screenshot(page, "lobby-open-390")
    assert inside_viewport(accept.bounding_box())
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []
