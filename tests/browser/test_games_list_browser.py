"""The games page in a browser: the game choice redraws the list in place, the URL
follows, a game's link opens it, and a phone shows it without sideways scrolling."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, axe_violations, horizontal_overflow, screenshot
from tests.games.game_utils import start_game

pytestmark = pytest.mark.browser


def test_choosing_a_game_updates_the_list_in_place_and_a_link_opens_the_game(
    open_page, alice, bob, charlie
):
    carge = start_game("carge", alice, bob)
    rococo = start_game("rococo", bob, charlie)
    rococo.last_move_at = timezone.now() - timedelta(hours=1)
    rococo.save(update_fields=["last_move_at"])
    page = open_page()
    page.goto("/")
    page.locator(".site-nav").get_by_role("link", name="Games", exact=True).click()
    expect(page).to_have_url("/games/", ignore_case=False)
    page.wait_for_load_state()  # htmx wires the form once its deferred script has run
    section = page.locator("#games-list")
    expect(section.locator("li")).to_have_count(2)
    page.evaluate("window.notReloaded = true")  # a full page load would drop it

    page.get_by_label("Game:", exact=True).select_option("rococo")
    expect(page).to_have_url("/games/?game=rococo&show=active", ignore_case=False)
    expect(section.locator("li")).to_have_count(1)
    expect(section.locator(f'a[href="/game/{carge.pk}/"]')).to_have_count(0)
    # the redrawn form keeps the choice
    assert page.get_by_label("Game:", exact=True).input_value() == "rococo"
    assert page.evaluate("window.notReloaded") is True

    section.get_by_role("link", name=f"Rococo #{rococo.pk}").click()
    expect(page).to_have_url(f"/game/{rococo.pk}/")
    expect(page.locator("h1")).to_contain_text("Rococo")


def test_the_page_fits_a_phone(open_page, alice, bob, charlie):
    for white, black, variant in [(alice, bob, "carolo"), (bob, charlie, "shuuro-mini")]:
        start_game(variant, white, black)
    page = open_page(viewport=PHONE)
    page.goto("/games/")
    expect(page.locator("#games-list li")).to_have_count(2)
    screenshot(page, "games-list-390")
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []
