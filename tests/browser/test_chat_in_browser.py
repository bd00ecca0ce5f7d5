"""The chat in a real browser: alice (desktop) writes to bob (phone) in place (htmx);
bob's panel shows it by its own poll and he answers; the game's poll that brings
alice's move leaves bob's half-typed answer where it was, and both panels go on
polling after it.  Without JavaScript the form sends and comes back to the replay
step it was sent from.  A player reports the opponent's message in place."""

import re

import pytest
from playwright.sync_api import expect

from games import chat, services
from games.models import ChatMessage, ChatReport
from tests.browser.conftest import DESKTOP, PHONE, axe_violations, horizontal_overflow
from tests.browser.test_games_in_browser import SEEN, moves_named, start

pytestmark = pytest.mark.browser


def test_two_players_chat_while_the_game_goes_on(open_page, alice, bob):
    game = start("carolo", alice, bob)
    page_a, page_b = open_page(alice, DESKTOP), open_page(bob, PHONE)
    for page in (page_a, page_b):
        page.goto(f"/game/{game.pk}/")
        page.evaluate("() => (window.__e2eMark = 1)")
    log_a, log_b = page_a.get_by_role("log"), page_b.get_by_role("log")
    box_a = page_a.get_by_role("textbox", name="Message to bob")
    box_b = page_b.get_by_role("textbox", name="Message to alice")

    box_a.fill("Hello <b>bob</b>, good luck!")
    with page_a.expect_response(re.compile(r"/chat$")) as sent:
        page_a.get_by_role("button", name="Send").click()
    assert sent.value.status == 200
    expect(log_a.get_by_role("listitem")).to_have_count(1)
    expect(log_a).to_contain_text("alice")
    expect(log_a).to_contain_text("Hello <b>bob</b>, good luck!")  # as text, not bold
    expect(box_a).to_have_value("")
    assert page_a.evaluate("() => window.__e2eMark") == 1  # no page load

    # bob's open page shows it by the panel's own poll
    expect(log_b).to_contain_text("Hello <b>bob</b>, good luck!", timeout=SEEN)
    expect(log_b.locator("b")).to_have_count(0)
    expect(log_b.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-\d\d-\d\dT"))
    box_b.fill("Thanks, you too.")
    box_b.press("Enter")
    expect(box_b).to_have_value("")
    expect(log_b.get_by_role("listitem")).to_have_count(2)
    # the emptied box, swapped in out of band, keeps the focus: he may write on
    assert page_b.evaluate("() => document.activeElement.id") == "game-chat-text"
    expect(log_a.get_by_role("listitem")).to_have_count(2, timeout=SEEN)
    expect(log_a.get_by_role("listitem").last).to_contain_text("Thanks, you too.")

    # bob types, unsent, while alice moves: the game's poll leaves what he typed
    box_b.press_sequentially("Nice opening, but")
    services.play_move(alice, game.pk, "d2-f6", 0)
    expect(moves_named(page_b, "d2-f6")).to_have_count(1, timeout=SEEN)  # by the game poll
    expect(moves_named(page_a, "d2-f6")).to_have_count(1, timeout=SEEN)
    expect(box_b).to_have_value("Nice opening, but")
    assert page_b.evaluate("() => document.activeElement.id") == "game-chat-text"
    box_b.press_sequentially(" careful.")
    box_b.press("Enter")
    expect(log_b.get_by_role("listitem")).to_have_count(3)
    # alice's panel, carried through her page's own swap, still polls
    expect(log_a.get_by_role("listitem").last).to_contain_text(
        "Nice opening, but careful.", timeout=SEEN
    )
    expect(log_a.get_by_role("listitem")).to_have_count(3)
    for page in (page_a, page_b):
        assert page.evaluate("() => window.__e2eMark") == 1
    assert [m.text for m in ChatMessage.objects.all()] == [
        "Hello <b>bob</b>, good luck!",
        "Thanks, you too.",
        "Nice opening, but careful.",
    ]
    assert horizontal_overflow(page_b) == 0
    for page in (page_a, page_b):
        assert axe_violations(page) == []


def test_a_refusal_says_why_and_keeps_the_text(open_page, alice, bob):
    game = start("carolo", alice, bob)
    page = open_page(alice, PHONE)
    page.goto(f"/game/{game.pk}/")
    box = page.get_by_role("textbox", name="Message to bob")
    for n in range(10):
        box.fill(f"message {n}")
        box.press("Enter")
        expect(box).to_have_value("")
    box.fill("one more")
    box.press("Enter")
    expect(page.locator("#game-chat").get_by_role("status")).to_contain_text(
        "You have sent 10 messages in the last minute: wait a little."
    )
    expect(box).to_have_value("one more")
    expect(page.get_by_role("log").get_by_role("listitem")).to_have_count(10)
    assert horizontal_overflow(page) == 0


def test_chat_without_javascript_comes_back_to_the_replay_step(open_page, alice, bob):
    game = start("carolo", alice, bob)
    services.play_move(alice, game.pk, "d2-f6", 0)
    services.play_move(bob, game.pk, "b8-d6", 1)
    page = open_page(bob, PHONE, java_script_enabled=False)
    page.goto(f"/game/{game.pk}/?ply=1")
    page.get_by_role("textbox", name="Message to alice").fill("Why d2-f6?")
    page.get_by_role("button", name="Send").click()
    expect(page).to_have_url(re.compile(rf"/game/{game.pk}/\?ply=1#game-chat$"))
    expect(page.locator(".game-replay-note")).to_be_visible()
    expect(page.get_by_role("log")).to_contain_text("Why d2-f6?")
    assert horizontal_overflow(page) == 0


def test_a_player_reports_a_message_in_place(open_page, alice, bob):
    game = start("carolo", alice, bob)
    chat.post_message(alice, game.pk, "Good luck!")
    rude = chat.post_message(bob, game.pk, "You play like a fool.")
    page_a, page_b = open_page(alice, PHONE), open_page(bob, DESKTOP)
    for page in (page_a, page_b):
        page.goto(f"/game/{game.pk}/")
    page_a.evaluate("() => (window.__e2eMark = 1)")
    lines_a = page_a.get_by_role("log").get_by_role("listitem")
    expect(lines_a.first.get_by_role("button")).to_have_count(0)  # her own message
    with page_a.expect_response(re.compile(r"/report$")) as sent:
        lines_a.last.get_by_role("button", name="Report").click()
    assert sent.value.status == 200
    expect(lines_a.last).to_contain_text("Reported · Why?")
    assert axe_violations(page_a) == []
    lines_a.last.get_by_role("button", name="Cheating talk").click()
    expect(lines_a.last.get_by_role("button")).to_have_count(0)
    expect(lines_a.last).to_contain_text("You play like a fool.Reported")
    assert page_a.evaluate("() => window.__e2eMark") == 1  # no page load
    report = ChatReport.objects.get()
    assert (report.message_id, report.reporter, report.reason) == (rude.pk, alice, "cheating")
    # bob is told nothing, nor may he report his own message
    page_b.reload()
    lines_b = page_b.get_by_role("log").get_by_role("listitem")
    expect(lines_b.last).to_have_text(re.compile(r"^bob .+You play like a fool\.$"))
    expect(lines_b.first.get_by_role("button", name="Report")).to_have_count(1)  # alice's
    assert horizontal_overflow(page_a) == 0
