"""Following in a real browser, on a phone: alice follows bob from his profile (htmx
swaps the button and the count in place), finds bob's game on her Following page,
opens it, and unfollows him there; the profile works without JavaScript too."""

import pytest
from playwright.sync_api import expect

from accounts.models import Follow
from tests.browser.conftest import PHONE, axe_violations, horizontal_overflow, screenshot
from tests.games.game_utils import start_game

pytestmark = pytest.mark.browser


def follows() -> list[tuple[str, str]]:
    return list(Follow.objects.values_list("follower__username", "followed__username"))


def test_alice_follows_bob_watches_his_game_and_unfollows_him(open_page, alice, bob, charlie):
    game = start_game("rococo", bob, charlie)
    page = open_page(alice, PHONE)

    page.goto("/@/bob")
    page.wait_for_load_state()  # htmx wires the form once its deferred script has run
    part = page.locator("#profile-follow")
    expect(part).to_contain_text("0 followers")
    assert axe_violations(page) == []
    assert horizontal_overflow(page) == 0
    page.evaluate("window.notReloaded = true")  # a full page load would drop it
    part.get_by_role("button", name="Follow", exact=True).click()
    expect(part.get_by_role("button", name="Unfollow")).to_be_visible()
    expect(part).to_contain_text("1 follower")
    status = part.get_by_role("status")
    expect(status).to_contain_text("You follow bob: their games are on your Following page.")
    link = status.get_by_role("link", name="The games of the players you follow")
    expect(link).to_have_attribute("href", "/following/")
    assert page.evaluate("window.notReloaded") is True  # swapped in place
    expect(page.locator("#follow-button")).to_be_focused()
    assert follows() == [("alice", "bob")]
    screenshot(page, "profile-followed-390")
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []

    page.goto("/")
    page.get_by_role("link", name="Following", exact=True).click()
    expect(page).to_have_url("/following/")
    expect(page.locator("h1")).to_have_text("Following")
    players = page.locator(".followed-players")
    expect(players.get_by_role("link", name="bob")).to_be_visible()
    in_progress = page.locator("#following-games")
    expect(in_progress.get_by_role("link", name=f"Rococo #{game.pk}")).to_be_visible()
    expect(page.get_by_text("None of the players you follow has finished a game")).to_be_visible()
    screenshot(page, "following-390")
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []

    in_progress.get_by_role("link", name=f"Rococo #{game.pk}").click()
    expect(page).to_have_url(f"/game/{game.pk}/")
    page.go_back()

    page.locator(".followed-players").get_by_role("button", name="Unfollow bob").click()
    expect(page).to_have_url("/following/")
    expect(page.locator(".messages")).to_contain_text("You no longer follow bob.")
    expect(page.get_by_text("You follow nobody yet.")).to_be_visible()
    expect(
        page.get_by_text("None of the players you follow has a game in progress.")
    ).to_be_visible()
    assert follows() == []
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []


def test_the_buttons_work_without_javascript(open_page, alice, bob):
    page = open_page(alice, PHONE, java_script_enabled=False)
    page.goto("/@/bob")
    page.get_by_role("button", name="Follow", exact=True).click()
    expect(page).to_have_url("/@/bob")
    expect(page.locator(".messages")).to_contain_text(
        "You follow bob: their games are on your Following page."
    )
    page.get_by_role("button", name="Unfollow", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("You no longer follow bob.")
    expect(page.locator("#profile-follow")).to_contain_text("0 followers")
    assert follows() == []
