"""Blocking in a real browser: alice blocks bob from his profile (desktop); bob's
challenge to her (phone) is refused with the reason; alice unblocks him from her
settings, and bob's challenge then goes through."""

import pytest
from playwright.sync_api import expect

from accounts.models import Block
from games.models import Challenge
from tests.browser.conftest import DESKTOP, PHONE, axe_violations, horizontal_overflow

pytestmark = pytest.mark.browser


def challenge_alice(page):
    page.goto("/challenge/new/?opponent=alice")
    page.get_by_role("button", name="Create the challenge").click()


def test_alice_blocks_bob_and_unblocks_him_from_her_settings(open_page, alice, bob):
    page_a, page_b = open_page(alice, DESKTOP), open_page(bob, PHONE)

    page_a.goto("/@/bob")
    expect(
        page_a.get_by_text("They will not be able to challenge you or chat with you.")
    ).to_be_visible()
    assert axe_violations(page_a) == []
    page_a.get_by_role("button", name="Block", exact=True).click()
    assert page_a.url.endswith("/@/bob")
    expect(page_a.locator(".messages")).to_contain_text(
        "You have blocked bob: they can no longer challenge you or chat with you."
    )
    expect(page_a.get_by_role("button", name="Unblock")).to_be_visible()
    expect(page_a.get_by_role("link", name="Challenge this player")).to_have_count(0)
    assert list(Block.objects.values_list("blocker__username", "blocked__username")) == [
        ("alice", "bob")
    ]

    challenge_alice(page_b)
    expect(page_b.get_by_text("alice has blocked you: you cannot challenge them.")).to_be_visible()
    assert not Challenge.objects.exists()
    assert horizontal_overflow(page_b) == 0

    page_a.goto("/settings/")
    blocked = page_a.locator(".blocked-players")
    expect(blocked.get_by_role("link", name="bob")).to_be_visible()
    assert axe_violations(page_a) == []
    blocked.get_by_role("button", name="Unblock bob").click()
    expect(page_a.locator(".messages")).to_contain_text("You have unblocked bob.")
    expect(page_a.get_by_text("You have blocked nobody.")).to_be_visible()
    assert page_a.url.endswith("/settings/#blocked")
    assert not Block.objects.exists()

    challenge_alice(page_b)
    expect(page_b.locator(".messages")).to_contain_text("Your challenge is open.")
    assert Challenge.objects.get().opponent == alice


def test_the_profile_fits_a_phone_with_the_block_button(open_page, alice, bob):
    page = open_page(alice, PHONE)
    page.goto("/@/bob")
    expect(page.get_by_role("button", name="Block", exact=True)).to_be_visible()
    assert horizontal_overflow(page) == 0
