"""A tournament in a real browser: made from the form, joined, started by its creator;
its crosstable links to its games, and the pages fit a phone and pass axe."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import tournaments
from games.models import Tournament
from tests.browser.conftest import DESKTOP, PHONE, axe_violations, horizontal_overflow, screenshot

pytestmark = pytest.mark.browser


def test_a_tournament_made_joined_started_and_followed(open_page, alice, bob, charlie):
    page = open_page(alice, DESKTOP)
    page.goto("/lobby/")
    page.get_by_role("link", name="Tournaments").first.click()
    expect(page).to_have_url(re.compile(r"/tournaments/$"))
    page.get_by_label("Name of the tournament").fill("Spring cup")
    page.get_by_label("Players").select_option("4")
    page.locator("#id_game").select_option("rococo")
    page.get_by_label("Casual").check()
    assert axe_violations(page) == []
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Spring cup")
    tournament = Tournament.objects.get()
    assert (tournament.variant, tournament.max_players, tournament.rated) == ("rococo", 4, False)

    tournaments.join(bob, tournament.pk)
    phone = open_page(charlie, PHONE)
    phone.goto(f"/tournaments/{tournament.pk}/")
    phone.get_by_role("button", name="Join the tournament").click()
    expect(phone.get_by_text("You have joined the tournament.")).to_be_visible()
    assert horizontal_overflow(phone) == 0

    page.reload()
    page.get_by_role("button", name="Start the tournament now").click()
    expect(page.get_by_role("heading", name="Crosstable")).to_be_visible()
    cells = page.locator("table.crosstable a")
    expect(cells).to_have_count(12)  # 6 games, each seen from both players' rows
    screenshot(page, "tournament-1280")
    assert axe_violations(page) == []

    phone.goto(f"/tournaments/{tournament.pk}/")
    expect(phone.get_by_role("heading", name="Standings")).to_be_visible()
    screenshot(phone, "tournament-390")
    assert horizontal_overflow(phone) == 0
    assert axe_violations(phone) == []

    phone.get_by_role("link", name="charlie with White against alice: being played").click()
    expect(phone).to_have_url(re.compile(r"/game/\d+/$"))
    expect(phone.locator(".game-players")).to_contain_text("charlie")
    phone.get_by_role("link", name="Spring cup").click()
    expect(phone).to_have_url(re.compile(rf"/tournaments/{tournament.pk}/$"))

    phone.goto("/tournaments/")
    assert horizontal_overflow(phone) == 0
    assert axe_violations(phone) == []
