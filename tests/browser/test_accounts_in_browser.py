"""Signing up, verifying the e-mail and logging in, as a person does it."""

import re

import pytest
from django.core import mail

from tests.browser.conftest import PHONE, axe_violations, horizontal_overflow, screenshot
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def test_sign_up_verify_and_log_in(open_page):
    page = open_page()
    page.goto("/accounts/signup/")
    page.locator("input[name=username]").fill("erin")
    page.locator("input[name=email]").fill("erin@example.org")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_load_state()
    assert "verif" in page.content().lower()

    (message,) = [m for m in mail.outbox if "erin@example.org" in m.to]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", message.body).group(0)
    page.goto(link)
    page.wait_for_load_state()
    if page.locator("form button[type=submit]").count() and "confirm" in page.url:
        page.locator("main form button[type=submit]").first.click()
    page.goto("/accounts/logout/")
    page.locator("main form button[type=submit]").first.click()

    page.goto("/accounts/login/")
    page.locator("input[name=login]").fill("erin")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_load_state()
    assert page.locator("header").get_by_text("erin").count() >= 1


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/", "/rules/carolo/"])
def test_public_pages_fit_a_phone_and_pass_axe(open_page, path):
    page = open_page(viewport=PHONE)
    page.goto(path)
    name = "phone" + (path.strip("/").replace("/", "-") or "-home")
    screenshot(page, name)
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []


def test_the_settings_page_puts_each_checkbox_beside_its_label(open_page, alice):
    page = open_page(alice, PHONE)
    page.goto("/settings/")
    box = page.get_by_role("checkbox", name="Confirm moves").bounding_box()
    label = page.locator("label[for=id_confirm_moves]").bounding_box()
    assert label["x"] > box["x"] + box["width"]  # on its right,
    assert abs((label["y"] + label["height"] / 2) - (box["y"] + box["height"] / 2)) < 8  # level
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []
