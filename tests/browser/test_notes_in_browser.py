"""Private notes in a real browser: alice saves a note in place (htmx), then goes on
typing; the poll that brings bob's move leaves what she typed, unsaved, where it was.
Without JavaScript the form saves and comes back to the replay step it was sent from."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Note
from tests.browser.conftest import DESKTOP, PHONE, axe_violations, horizontal_overflow
from tests.browser.test_games_in_browser import SEEN, moves_named, start

pytestmark = pytest.mark.browser


def test_a_poll_keeps_the_unsaved_note(open_page, alice, bob):
    game = start("carolo", alice, bob)
    services.play_move(alice, game.pk, "d2-f6", 0)
    page = open_page(alice, DESKTOP)
    page.goto(f"/game/{game.pk}/")
    page.evaluate("() => (window.__e2eMark = 1)")
    notes = page.locator("#game-notes")
    expect(notes).not_to_have_attribute("open", "")
    notes.get_by_text("Notes", exact=True).click()
    expect(notes).to_contain_text("Only you can see these notes.")
    box = page.get_by_role("textbox", name="Your notes on this game")
    box.fill("Plan: the f-file.")
    notes.get_by_role("button", name="Save").click()
    expect(notes.get_by_role("status")).to_contain_text(re.compile(r"Saved\. \S.*\d"))
    assert Note.objects.get(user=alice).text == "Plan: the f-file."

    box.press("End")
    box.press_sequentially("\nThen push the pawn")  # typed, not saved
    services.play_move(bob, game.pk, "b8-d6", 1)
    expect(moves_named(page, "b8-d6")).to_have_count(1, timeout=SEEN)  # by the poll
    expect(box).to_have_value("Plan: the f-file.\nThen push the pawn")
    expect(notes).to_have_attribute("open", "")
    assert page.evaluate("() => document.activeElement.id") == "game-notes-text"
    box.press_sequentially(" now")  # the caret is where it was
    expect(box).to_have_value("Plan: the f-file.\nThen push the pawn now")
    assert page.evaluate("() => window.__e2eMark") == 1  # no page load
    assert Note.objects.get(user=alice).text == "Plan: the f-file."
    assert axe_violations(page) == []

    # a replay step swaps the page's live part too: the box stays as typed
    page.get_by_role("link", name="First position").click()
    expect(page.locator(".game-replay-note")).to_be_visible()
    expect(box).to_have_value("Plan: the f-file.\nThen push the pawn now")
    with page.expect_response(re.compile(r"/note$")) as saved:
        notes.get_by_role("button", name="Save").click()
    assert saved.value.status == 200
    expect(notes.get_by_role("status")).to_contain_text("Saved.")
    assert Note.objects.get(user=alice).text == "Plan: the f-file.\nThen push the pawn now"

    # bob's page: a box of his own, empty
    other = open_page(bob, PHONE)
    other.goto(f"/game/{game.pk}/")
    expect(other.locator("#game-notes")).not_to_have_attribute("open", "")
    assert "f-file" not in other.content()
    other.locator("#game-notes summary").click()
    expect(other.get_by_role("textbox", name="Your notes on this game")).to_have_value("")
    assert horizontal_overflow(other) == 0
    assert axe_violations(other) == []


def test_notes_saved_without_javascript_come_back_to_the_replay_step(open_page, alice, bob):
    game = start("carolo", alice, bob)
    services.play_move(alice, game.pk, "d2-f6", 0)
    services.play_move(bob, game.pk, "b8-d6", 1)
    page = open_page(alice, PHONE, java_script_enabled=False)
    page.goto(f"/game/{game.pk}/?ply=1")
    page.locator("#game-notes summary").click()
    page.get_by_role("textbox", name="Your notes on this game").fill("After 1. d2-f6")
    page.get_by_role("button", name="Save").click()
    expect(page).to_have_url(re.compile(rf"/game/{game.pk}/\?ply=1#game-notes$"))
    expect(page.locator(".game-replay-note")).to_be_visible()
    expect(page.locator("#game-notes")).to_have_attribute("open", "")
    expect(page.get_by_role("textbox", name="Your notes on this game")).to_have_value(
        "After 1. d2-f6"
    )
    expect(page.locator("#game-notes").get_by_role("status")).to_contain_text("Saved.")
    assert horizontal_overflow(page) == 0

    page.get_by_role("textbox", name="Your notes on this game").fill("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#game-notes")).not_to_have_attribute("open", "")
    assert not Note.objects.exists()
