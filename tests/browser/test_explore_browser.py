"""The explore board in a real browser: from the game page's link, a piece and a
destination clicked, the move in the line and on the board, then Back one move."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game, Move
from tests.browser.conftest import DESKTOP, PHONE, axe_violations, horizontal_overflow
from tests.browser.test_games_in_browser import SETTLES, click_and_settle, spoken_numbers, start

pytestmark = pytest.mark.browser


def square(value: str) -> str:
    return f'#explore-board button[name="square"][value="{value}"]'


def cell(value: str) -> str:
    """A square, clickable or not, by its name."""
    return f'#explore-board .board-squares > [aria-label^="{value},"]'


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_line_is_explored_by_clicks_and_stepped_back(open_page, alice, bob, charlie, viewport):
    game = start("carolo", alice, bob)
    services.play_move(alice, game.pk, "d2-f6", 0)
    before = Game.objects.get(pk=game.pk).fen
    page = open_page(charlie, viewport)  # a spectator
    page.goto(f"/game/{game.pk}/")
    page.get_by_role("link", name="Explore from this position").click()
    page.wait_for_url(f"**/game/{game.pk}/explore")
    page.evaluate(SETTLES)
    marker = page.evaluate("() => (window.__mark = Math.random())")
    expect(page.locator("#explore-status")).to_contain_text("Black to move.")

    # Black's Hubris b8 to d6, by two clicks
    click_and_settle(page, page.locator(square("b8")))
    expect(page.locator(square("b8"))).to_have_attribute("aria-pressed", "true")
    expect(page.locator(square("b8"))).to_be_focused()  # the keyboard focus stays on it
    assert parse_qs(urlparse(page.url).query) == {"sel": ["b8"]}
    click_and_settle(page, page.locator(square("d6")))
    # Black's move, in Black's column (the second)
    expect(page.locator(".explore-line li:not(.w)")).to_have_text(["b8-d6"])
    expect(page.locator(".explore-line li")).to_have_count(1)
    expect(page.locator(cell("d6"))).to_have_attribute("aria-label", "d6, black Hubris, last move")
    expect(page.locator("#explore-status")).to_contain_text("White to move.")
    assert parse_qs(urlparse(page.url).query) == {"line": ["b8-d6"]}
    assert page.evaluate("() => window.__mark") == marker  # swapped by htmx, not reloaded

    # then White's Aymon f6 to e7, and back one move
    click_and_settle(page, page.locator(square("f6")))
    click_and_settle(page, page.locator(square("e7")))
    expect(page.locator(".explore-line li.w")).to_have_text(["f6-e7"])
    assert spoken_numbers(page, ".explore-line") == ["1.", "2."]
    click_and_settle(page, page.get_by_role("link", name="Back one move"))
    expect(page.locator(".explore-line li")).to_have_text(["b8-d6"])
    assert parse_qs(urlparse(page.url).query) == {"line": ["b8-d6"]}
    expect(page.locator(cell("f6"))).to_have_attribute("aria-label", "f6, white Aymon")

    # the browser's Back goes through the line's steps; a reload shows the same line
    page.go_back()
    expect(page.locator(".explore-line li")).to_have_count(2)
    page.reload()
    expect(page.locator(".explore-line li")).to_have_count(2)
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []

    # nothing was played in the game
    assert Game.objects.get(pk=game.pk).fen == before
    assert Move.objects.filter(game=game).count() == 1


def test_explore_works_without_javascript(open_page, alice, bob):
    game = start("carolo", alice, bob)
    page = open_page(bob, java_script_enabled=False)
    page.goto(f"/game/{game.pk}/explore")
    page.locator(square("e1")).click()
    page.wait_for_url("**sel=e1")
    page.locator(square("e2")).click()
    page.wait_for_url("**line=e1-e2")
    expect(page.locator(".explore-line li.w")).to_have_text(["e1-e2"])
    expect(page.locator(".board")).to_have_class(
        "board board--carolo board--flipped board--interactive"
    )
