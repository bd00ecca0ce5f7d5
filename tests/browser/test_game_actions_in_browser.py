"""Resigning, a draw by agreement, playing from the keyboard, replaying a finished game,
and the profile after a result: in a real browser, two players' pages open at once."""

import random
import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import PHONE, axe_violations, horizontal_overflow, screenshot
from tests.browser.test_games_in_browser import (
    BROKEN_MOVES,
    SEEN,
    Table,
    accessible_nameless,
    play_through_services,
    seat_pages,
    square,
    start,
)

pytestmark = pytest.mark.browser

CAROLO_MAT = ["d2-f6", "b8-d6", "d1xd6", "h8-h6", "d6-e7"]


def tab_to(page, element_id: str, limit: int = 200) -> int:
    """Press Tab until the element with ``element_id`` has the focus; how many presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement && document.activeElement.id") == element_id:
            return presses
    raise AssertionError(f"#{element_id} is not reachable with Tab")


def test_keyboard_move_then_resignation_with_confirmation(open_page, alice, bob):
    # alice confirms her moves (the default): the whole move is made from the keyboard
    game = start("rococo", alice, bob, rated=True)
    table = Table(game.pk, seat_pages(open_page, alice, bob))
    page_a, page_b = table.page("white"), table.page("black")
    tab_to(page_a, "move-text")
    page_a.keyboard.type("f3-f4")
    page_a.keyboard.press("Enter")
    confirm = page_a.locator("form.game-confirm")
    expect(confirm.locator("kbd")).to_have_text("f3-f4")
    expect(confirm.get_by_role("button", name="Confirm")).to_be_focused()  # autofocus
    page_a.keyboard.press("Enter")
    table.counts["f3-f4"] += 1
    table.wait_for("f3-f4")
    # the confirm form is gone with the swap: the focus goes to the status, not the top
    expect(page_a.locator("#game-status")).to_be_focused()

    # bob answers from the keyboard on the board: focus a square button, press Enter
    bob.confirm_moves = False
    bob.save(update_fields=["confirm_moves"])
    page_b.locator(square("g8")).focus()
    page_b.keyboard.press("Enter")
    expect(page_b.locator(square("g8"))).to_have_attribute("aria-pressed", "true")
    expect(page_b.locator(square("g8"))).to_be_focused()  # the swap kept bob's place
    page_b.locator(square("g7")).focus()
    page_b.keyboard.press("Enter")
    table.counts["g8-g7"] += 1
    table.wait_for("g8-g7")
    # the board is waiting for alice now: the focus goes to the status, not the page top
    expect(page_b.locator("#game-status")).to_be_focused()

    page_a.get_by_role("button", name="Resign", exact=True).click()
    expect(page_a.locator("#game-actions")).to_contain_text(
        "Do you really want to resign this game?"
    )
    page_a.get_by_role("link", name="Cancel").click()
    expect(page_a.get_by_role("button", name="Resign", exact=True)).to_be_visible()
    expect(page_a.locator("#game-status")).to_be_focused()  # not lost with the link
    assert Game.objects.get(pk=game.pk).is_active
    page_a.get_by_role("button", name="Resign", exact=True).click()
    expect(page_a.locator(".nav-user .turn-count")).to_have_text("1")
    page_a.get_by_role("button", name="Yes, resign").click()
    table.expect_result("White resigned: Black wins.")
    for page in (page_a, page_b):
        expect(page.get_by_role("button", name="Resign", exact=True)).to_have_count(0)
    # the header's count of games awaiting alice (this one) follows without a reload
    expect(page_a.locator(".nav-user")).to_have_count(1)
    expect(page_a.locator(".nav-user .turn-count")).to_have_count(0)


def test_draw_offered_declined_then_accepted(open_page, alice, bob):
    game = start("carolo", alice, bob)
    game = play_through_services(game, ["d2-f6", "b8-d6"])
    table = Table(game.pk, seat_pages(open_page, alice, bob))
    page_a, page_b = table.page("white"), table.page("black")
    offer = page_a.get_by_role("button", name="Offer a draw")
    offer.click()
    expect(page_a.locator(".game-draw-offer")).to_have_text("You offered a draw.")
    decline = page_b.get_by_role("button", name="Decline the draw")
    expect(decline).to_be_visible(timeout=SEEN)  # bob's page learns it by polling
    decline.click()
    # alice's page learns it by polling too, and says so until her next move
    expect(page_a.locator(".game-draw-offer")).to_have_text(
        "Black declined your draw offer.", timeout=SEEN
    )
    table.assert_not_reloaded()
    offer.click()
    accept = page_b.get_by_role("button", name="Accept the draw")
    expect(accept).to_be_visible(timeout=SEEN)
    table.assert_not_reloaded()
    accept.click()
    table.expect_result("Draw")


def finished_game_page(open_page, alice, bob):
    """Alice's page of a Carolo game won in CAROLO_MAT, the game and its FEN at each ply."""
    game = play_through_services(start("carolo", alice, bob), CAROLO_MAT)
    page = open_page(alice)
    page.goto(f"/game/{game.pk}/")
    return page, game, {m.ply: m.fen_after for m in game.moves.all()}


def test_replay_of_a_finished_game(open_page, alice, bob):
    page, game, fens = finished_game_page(open_page, alice, bob)
    fen = page.locator("#game-fen")
    expect(fen).to_have_value(game.fen)
    e7 = page.locator('#game-board [aria-label^="e7,"]')
    expect(e7).to_have_attribute("aria-label", re.compile(r"^e7, white"))
    page.get_by_role("link", name="Previous move").click()
    expect(page.locator(".game-replay-note")).to_contain_text("position after move 4 of 5")
    expect(fen).to_have_value(fens[4])
    expect(e7).to_have_attribute("aria-label", re.compile(r"^e7, empty"))
    expect(page.locator('#game-board [aria-label^="d6,"]')).to_have_attribute(
        "aria-label", re.compile(r"^d6, white")
    )
    expect(page).to_have_url(re.compile(r"\?ply=4$"))  # the step is in the address
    page.get_by_role("link", name="Previous move").click()
    expect(fen).to_have_value(fens[3])
    page.get_by_role("link", name="First position").click()
    expect(fen).to_have_value(game.start_fen)
    expect(page.locator('#game-board [aria-label^="d2,"]')).to_have_attribute(
        "aria-label", re.compile(r"^d2, white")
    )
    page.get_by_role("link", name="Next move").click()
    expect(fen).to_have_value(fens[1])
    expect(page.locator(".game-replay-note")).to_contain_text("position after move 1 of 5")
    page.get_by_role("link", name="Current position").click()
    expect(fen).to_have_value(game.fen)
    expect(page.locator(".game-replay-note")).to_have_count(0)
    screenshot(page, "game-carolo-replay-1280")
    assert accessible_nameless(page) == []
    assert axe_violations(page) == []


def test_the_arrow_keys_step_through_a_game(open_page, alice, bob):
    page, game, fens = finished_game_page(open_page, alice, bob)
    fen = page.locator("#game-fen")
    note = page.locator(".game-replay-note")
    for key, shown in [
        ("ArrowLeft", fens[4]),
        ("ArrowLeft", fens[3]),
        ("Home", game.start_fen),
        ("ArrowRight", fens[1]),
        ("End", game.fen),
    ]:
        page.keyboard.press(key)
        expect(fen).to_have_value(shown)
    expect(note).to_have_count(0)
    expect(page).to_have_url(re.compile(rf"/game/{game.pk}/$"))
    # a key pressed in a field, or with a modifier, is the field's or the browser's
    fen.focus()
    page.keyboard.press("ArrowLeft")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Control+ArrowLeft")
    page.wait_for_timeout(300)  # time for a request that should not be sent
    expect(fen).to_have_value(game.fen)
    expect(page).to_have_url(re.compile(rf"/game/{game.pk}/$"))


def test_profile_after_a_result(open_page, alice, bob):
    game = start("carolo", alice, bob, rated=True)
    game = play_through_services(game, CAROLO_MAT)
    assert game.winner == "white"
    page = open_page(bob, PHONE)
    page.goto("/@/alice")
    finished = page.locator("#finished-games")
    expect(finished.get_by_role("link", name=f"Le Carolo #{game.pk}")).to_be_visible()
    ratings = page.locator(".profile-ratings")
    expect(ratings.get_by_role("heading", name="Ratings")).to_be_visible()
    expect(ratings.locator("table")).to_contain_text("Carolo")
    screenshot(page, "profile-390")
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []
    # the game page links back to the profile
    page.goto(f"/game/{game.pk}/")
    page.locator(".game-players").get_by_role("link", name="alice").click()
    expect(page).to_have_url(re.compile(r"/@/alice$"))


@pytest.mark.parametrize(
    "path", ["/", "/lobby/", "/rules/carge/", "/rules/rococo/", "/rules/shuuro/"]
)
def test_pages_of_a_logged_in_player_fit_a_phone_and_pass_axe(open_page, alice, path):
    page = open_page(alice, PHONE)
    page.goto(path)
    screenshot(page, "player-" + (path.strip("/").replace("/", "-") or "home") + "-390")
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []


CURRENT_MOVE_IN_VIEW = """() => {
  const item = document.querySelector('.move-list [aria-current="step"]').closest("li");
  const list = item.closest(".move-list");
  const outer = list.getBoundingClientRect(), inner = item.getBoundingClientRect();
  const shown = inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1;  // subpixels
  return [list.scrollHeight > list.clientHeight, shown];
}"""


def test_the_move_list_shows_the_current_move_of_a_long_game(open_page, alice, bob):
    game = start("rococo", alice, bob)
    rng = random.Random(7)
    while game.ply < 60 and game.is_active:
        position = game.position()
        (side,) = position.to_act
        move = position.move_text(rng.choice(position.legal_moves(side)))
        game = play_through_services(game, [move])
    assert game.ply >= 40  # more moves than the list's height holds
    page = open_page(alice)
    page.goto(f"/game/{game.pk}/")
    assert page.evaluate(CURRENT_MOVE_IN_VIEW) == [True, True]
    page.get_by_role("link", name="Previous move").click()
    expect(page.locator(".game-replay-note")).to_contain_text(f"move {game.ply - 1} of")
    # the list scrolls once htmx has settled the swap, a moment after the note shows
    page.wait_for_function(f"({CURRENT_MOVE_IN_VIEW})().every(Boolean)", timeout=5000)
    assert page.evaluate(CURRENT_MOVE_IN_VIEW) == [True, True]
    # on a phone the list has two narrow columns: a long move ("f8-g7:suicide") moves to
    # a line of its own rather than breaking at its hyphen, and nothing sticks out
    page = open_page(alice, PHONE)
    page.goto(f"/game/{game.pk}/")
    screenshot(page, "game-rococo-long-390")
    assert page.evaluate(BROKEN_MOVES) == []
    assert horizontal_overflow(page) == 0


def test_a_hidden_page_does_not_poll_and_catches_up_when_shown(open_page, alice, bob):
    # A tab in the background is not a player looking at the game: it must not keep
    # them "present" (which holds back their turn e-mails), nor load the server.
    game = start("carolo", alice, bob)
    page = open_page(bob)
    page.add_init_script(
        "Object.defineProperty(document, 'visibilityState',"
        " {configurable: true, get: () => (window.hidden_for_test ? 'hidden' : 'visible')})"
    )
    polls = []
    page.on("request", lambda request: "/poll" in request.url and polls.append(request.url))
    page.goto(f"/game/{game.pk}/")
    page.wait_for_timeout(5500)  # the page polls every 5 s
    assert polls
    page.evaluate("window.hidden_for_test = true")
    polls.clear()
    page.wait_for_timeout(11_000)
    assert polls == []
    page.evaluate(
        "window.hidden_for_test = false; document.dispatchEvent(new Event('visibilitychange'))"
    )
    page.wait_for_timeout(1000)
    assert len(polls) == 1  # at once, not at the next tick
