"""Rematch in a real browser: alice presses Rematch on the game she lost, the offer
shows on bob's open page of it, he accepts, and both pages go to the new game."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game
from tests.browser.conftest import DESKTOP, PHONE, axe_violations, horizontal_overflow
from tests.browser.test_games_in_browser import SEEN, start

pytestmark = pytest.mark.browser


def test_rematch_offered_then_accepted(open_page, alice, bob):
    game = services.resign(alice, start("carolo", alice, bob, rated=True).pk)
    page_a, page_b = open_page(alice, DESKTOP), open_page(bob, PHONE)
    for page in (page_a, page_b):
        page.goto(f"/game/{game.pk}/")
        expect(page.locator(".game-result")).to_contain_text("White resigned")

    page_a.evaluate("() => (window.__e2eMark = 1)")
    page_a.get_by_role("button", name="Rematch", exact=True).click()
    expect(page_a.locator("#game-rematch")).to_contain_text("You offered bob a rematch.")
    expect(page_a.get_by_role("button", name="Cancel the rematch")).to_be_visible()
    assert page_a.evaluate("() => window.__e2eMark") == 1  # the fragment swapped in place

    # bob's open page looks out for an offer: it shows without a reload
    expect(page_b.locator("#game-rematch")).to_contain_text("alice offers a rematch.", timeout=SEEN)
    assert horizontal_overflow(page_b) == 0
    for page in (page_a, page_b):
        assert axe_violations(page) == []

    page_b.get_by_role("button", name="Accept the rematch").click()
    expect(page_b).to_have_url(re.compile(rf"/game/(?!{game.pk}/)\d+/$"))
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert (rematch.white, rematch.black, rematch.rated) == (bob, alice, True)
    url = re.compile(rf"/game/{rematch.pk}/$")
    expect(page_b).to_have_url(url)
    expect(page_a).to_have_url(url, timeout=SEEN)  # alice's page learns it by polling
    for page in (page_a, page_b):
        expect(page.locator("h1")).to_contain_text(f"#{rematch.pk}")
    page_a.goto(f"/game/{game.pk}/")
    expect(page_a.get_by_role("link", name=f"game {rematch.pk}")).to_be_visible()
    expect(page_a.get_by_role("button", name="Rematch", exact=True)).to_have_count(0)
