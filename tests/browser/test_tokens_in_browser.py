"""Revoking an API token in a browser without JavaScript: it asks, then revokes."""

import pytest

from accounts import tokens
from accounts.models import ApiToken
from tests.browser.conftest import PHONE, axe_violations, horizontal_overflow, screenshot

pytestmark = pytest.mark.browser


def test_revoking_a_token_asks_first_without_javascript(open_page, alice):
    row, _raw = tokens.create_token(alice, "my bot")
    page = open_page(alice, PHONE, java_script_enabled=False)
    page.goto("/settings/tokens/")
    page.get_by_role("button", name="Revoke").click()
    page.wait_for_load_state()
    question = page.get_by_text("Revoke the token “my bot”? Programs using it will stop")
    assert question.is_visible()
    screenshot(page, "phone-token-revoke-question")
    assert horizontal_overflow(page) == 0
    assert ApiToken.objects.filter(pk=row.pk).exists()

    page.get_by_role("link", name="Cancel").click()
    page.wait_for_load_state()
    assert page.get_by_text("Programs using it").count() == 0
    assert ApiToken.objects.filter(pk=row.pk).exists()

    page.get_by_role("button", name="Revoke").click()
    page.get_by_role("button", name="Yes, revoke").click()
    page.wait_for_load_state()
    assert page.get_by_text("The token is revoked.").is_visible()
    assert not ApiToken.objects.filter(pk=row.pk).exists()


def test_the_question_passes_axe(open_page, alice):
    row, _raw = tokens.create_token(alice, "my bot")
    page = open_page(alice, PHONE)
    page.goto(f"/settings/tokens/?revoke={row.pk}")
    assert axe_violations(page) == []
