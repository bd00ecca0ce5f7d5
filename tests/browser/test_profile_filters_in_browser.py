"""Filtering a profile's finished games: the list changes in place and the URL with it."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, axe_violations, horizontal_overflow, screenshot
from tests.ratings.helpers import finished_game

pytestmark = pytest.mark.browser


def test_choosing_a_filter_updates_the_list_without_a_reload(open_page, alice, bob, charlie):
    day = timezone.now() - timedelta(days=5)
    win = finished_game(alice, bob, "white", when=day)
    loss = finished_game(bob, alice, "white", when=day + timedelta(days=1))
    rococo = finished_game(alice, charlie, "", variant="rococo", when=day + timedelta(days=2))
    page = open_page(viewport=PHONE)
    page.goto("/@/alice")
    section = page.locator("#finished-games")
    expect(section.locator("li")).to_have_count(3)
    page.evaluate("window.notReloaded = true")  # a full page load would drop it

    page.get_by_label("Result").select_option("won")
    expect(page).to_have_url("/@/alice?game=&result=won&rated=&opponent=", ignore_case=False)
    expect(section.locator("li")).to_have_count(1)
    expect(section.locator(f'a[href="/game/{win.pk}/"]')).to_be_visible()
    assert page.get_by_label("Result").input_value() == "won"  # the redrawn form keeps it

    page.get_by_label("Opponent").fill("BOB")
    page.get_by_label("Opponent").press("Enter")
    expect(section.get_by_text("alice against bob: 1 win, 0 draws, 1 loss.")).to_be_visible()
    assert "opponent=BOB" in page.url
    expect(section.locator("li")).to_have_count(1)
    assert page.evaluate("window.notReloaded") is True

    page.get_by_label("Result").select_option("")
    expect(section.locator("li")).to_have_count(2)
    expect(section.locator(f'a[href="/game/{loss.pk}/"]')).to_be_visible()
    expect(section.locator(f'a[href="/game/{rococo.pk}/"]')).to_have_count(0)
    screenshot(page, "profile-filters-390")
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []
