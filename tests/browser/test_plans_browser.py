"""Conditional moves in a real browser: alice, waiting for bob, adds a line in her
box (htmx, in place); bob plays its first move, and her reply is on her board at
once, brought by her page's poll; the box then lists what is left of the line."""

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Plan
from tests.browser.conftest import DESKTOP, axe_violations
from tests.browser.test_games_in_browser import SEEN, moves_named, start

pytestmark = pytest.mark.browser


def test_a_planned_reply_is_played_when_the_opponent_moves(open_page, alice, bob):
    game = start("carolo", alice, bob)
    services.play_move(alice, game.pk, "d2-f6", 0)
    page = open_page(alice, DESKTOP)
    page.goto(f"/game/{game.pk}/")
    page.evaluate("() => (window.__e2eMark = 1)")
    box = page.locator("#game-plans")
    expect(box.get_by_role("heading", name="Conditional moves")).to_be_visible()
    line = box.get_by_role("textbox", name="Add a line")
    line.fill("b8-d6 d1xd8")  # refused by the rules: said in the box
    box.get_by_role("button", name="Add").click()
    expect(box.get_by_role("alert")).to_contain_text("the Carolo can only take a Hubris")
    box.get_by_role("textbox", name="Add a line").fill("b8-d6 d1xd6 h8-h6 d6-e7")
    box.get_by_role("button", name="Add").click()
    expect(box).to_contain_text("If 2. b8-d6, reply d1xd6, then if h8-h6, reply d6-e7")
    assert Plan.objects.get(user=alice).lines == [["b8-d6", "d1xd6", "h8-h6", "d6-e7"]]
    assert axe_violations(page) == []

    services.play_move(bob, game.pk, "b8-d6", 1)  # answered at once for alice
    expect(moves_named(page, "d1xd6")).to_have_count(1, timeout=SEEN)  # by the poll
    expect(box).to_contain_text("If 4. h8-h6, reply d6-e7")
    assert page.evaluate("() => window.__e2eMark") == 1  # no page load

    box.get_by_role("button", name="Delete all").click()
    expect(box).not_to_contain_text("If 4.")
    assert not Plan.objects.exists()


def test_one_line_is_deleted_and_the_other_kept(open_page, alice, bob):
    game = start("carolo", alice, bob)
    services.play_move(alice, game.pk, "d2-f6", 0)
    page = open_page(alice, DESKTOP)
    page.goto(f"/game/{game.pk}/")
    box = page.locator("#game-plans")
    for line in ("b8-d6 d1xd6 h8-h6 d6-e7", "b8-d6 d1xd6 a8-a6 d6-e7"):
        box.get_by_role("textbox", name="Add a line").fill(line)
        box.get_by_role("button", name="Add").click()
        expect(box.get_by_role("listitem").filter(has_text=line)).to_have_count(1)
    page.evaluate("() => (window.__e2eMark = 1)")
    first = box.get_by_role("listitem").filter(has_text="b8-d6 d1xd6 h8-h6 d6-e7")
    first.get_by_role("button", name="Delete", exact=True).click()
    expect(box.get_by_role("listitem")).to_have_count(1)
    expect(box.get_by_role("listitem")).to_contain_text("b8-d6 d1xd6 a8-a6 d6-e7")
    expect(box).not_to_contain_text("h8-h6")
    assert Plan.objects.get(user=alice).lines == [["b8-d6", "d1xd6", "a8-a6", "d6-e7"]]
    assert page.evaluate("() => window.__e2eMark") == 1  # in place, by htmx
    assert axe_violations(page) == []
