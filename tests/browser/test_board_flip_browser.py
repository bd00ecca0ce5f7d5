"""Flipping the board in a browser: in place with htmx, for a spectator too, and kept
on the next visit."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, axe_violations, horizontal_overflow, screenshot
from tests.games.game_utils import start_game

pytestmark = pytest.mark.browser


def test_a_spectator_flips_the_board_in_place_and_it_stays_flipped(open_page, alice, bob):
    game = start_game("rococo", alice, bob)
    page = open_page(viewport=PHONE)
    page.goto(f"/game/{game.pk}/")
    ranks = page.locator("#game-board .board-ranks span")
    expect(ranks.first).to_have_text("10")  # White's side at the bottom
    page.evaluate("window.notReloaded = true")  # a full page load would drop it

    page.get_by_role("button", name="Flip the board").click()
    expect(ranks.first).to_have_text("1")
    expect(page.locator("#game-board .board")).to_have_class("board board--rococo board--flipped")
    assert page.evaluate("window.notReloaded") is True
    screenshot(page, "game-rococo-flipped-390")
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []

    page.goto(f"/game/{game.pk}/")  # the session keeps it
    expect(ranks.first).to_have_text("1")
    page.get_by_role("button", name="Flip the board").click()
    expect(ranks.first).to_have_text("10")
