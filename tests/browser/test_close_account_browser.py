"""Closing one's account in a browser: from the settings page, a wrong password first."""

import pytest

from tests.browser.conftest import PHONE, axe_violations, horizontal_overflow, screenshot
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def test_closing_the_account_signs_out_for_good(open_page, alice):
    page = open_page(alice, PHONE)
    page.goto("/settings/")
    page.get_by_role("link", name="Close my account").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", name="Close your account").is_visible()
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []

    page.get_by_label("Your password").fill("not-my-password")
    page.get_by_role("button", name="Close my account").click()
    page.wait_for_load_state()
    assert page.get_by_text("That is not your password: your account stays open.").is_visible()
    screenshot(page, "phone-close-account-wrong-password")
    alice.refresh_from_db()
    assert alice.is_active

    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Close my account").click()
    page.wait_for_load_state()
    assert page.url.endswith("/")
    assert page.get_by_text("Your account is closed.").is_visible()
    assert page.get_by_role("link", name="Sign in").first.is_visible()
    alice.refresh_from_db()
    assert not alice.is_active

    page.goto("/accounts/login/")
    page.locator("input[name=login]").fill("alice")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_load_state()
    assert page.get_by_text(
        "The username and/or password you specified are not correct."
    ).is_visible()
    page.goto("/settings/")
    assert "/accounts/login/" in page.url
