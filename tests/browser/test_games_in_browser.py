"""Whole games in a real browser: two players, each in their own page, moving by clicks.

``Table.play(text)`` finds who is to act, clicks the move's start and destination on
that player's page (the hand piece for a Shuuro deployment, the square alone for a
Carge placement), picks the move among the "Which move?" buttons when several share
the destination, confirms it when the player confirms moves, then waits until BOTH
pages list the move: the opponent's page through its 5-second polling, without a
reload (a JavaScript marker set when the page was opened must still be there).
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlparse

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games import move_entry, presenters, render, services
from games.models import Game
from tests.browser.conftest import DESKTOP, PHONE, axe_violations, horizontal_overflow, screenshot

pytestmark = pytest.mark.browser

SEEN = 20_000  # ms: how long the other page may take to show a move (it polls every 5 s)


def square(value: str) -> str:
    return f'#game-board button[name="square"][value="{value}"]'


def exact(text: str):
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


def moves_named(page, text):
    return page.locator(".move-list b").filter(has_text=exact(text))


def spoken_numbers(page, selector: str) -> list[str]:
    """The numbers Chromium's accessibility tree (what a screen reader reads) gives the
    lines of the list ``selector``: their markers."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Accessibility.enable")  # else the tree is built lazily, markers last
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        found = cdp.send("Accessibility.queryAXTree", {"nodeId": node, "role": "ListMarker"})
        return [n["name"]["value"].strip() for n in found["nodes"]]
    finally:
        cdp.detach()


def accessible_nameless(page) -> list[str]:
    """Visible controls with no accessible name (label, text, aria-label or title)."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
              'button, a[href], input:not([type=hidden]), select, textarea, [role=button]')]
            .filter(e => e.getClientRects().length)
            .filter(e => {
              const by = (e.getAttribute('aria-labelledby') || '').split(/\\s+/)
                .map(id => document.getElementById(id)).filter(Boolean)
                .map(x => x.textContent).join('');
              const labels = e.labels ? [...e.labels].map(l => l.textContent).join('') : '';
              const name = [e.getAttribute('aria-label'), by, labels, e.textContent,
                            e.getAttribute('title')].map(s => (s || '').trim()).join('');
              return !name;
            })
            .map(e => e.outerHTML.slice(0, 160))"""
    )


# htmx binds the controls it swaps in when they settle, some 20 ms after they show:
# a click before that is the browser's own form post, a full page load.  Clicks
# that swap the board wait for the settle (a person is never that quick).
SETTLES = """() => document.body.addEventListener('htmx:afterSettle',
    () => { window.__settles = (window.__settles || 0) + 1; })"""


def click_and_settle(page, locator):
    before = page.evaluate("() => window.__settles || 0")
    locator.click()
    page.wait_for_function(f"() => (window.__settles || 0) > {before}")


class Table:
    def __init__(self, game_id: int, seats: dict):
        """``seats``: side -> (page, user); both pages are opened on the game here."""
        self.game_id = game_id
        self.seats = seats
        self.counts: Counter[str] = Counter()
        self.marks = {}
        for side, (page, _user) in seats.items():
            page.goto(f"/game/{game_id}/")
            self.marks[side] = page.evaluate("() => (window.__e2eMark = Math.random())")
            page.evaluate(SETTLES)
        for text in Game.objects.get(pk=game_id).moves.values_list("text", flat=True):
            self.counts[text] += 1

    @property
    def game(self) -> Game:
        return Game.objects.get(pk=self.game_id)

    def page(self, side):
        return self.seats[side][0]

    def other(self, side):
        return next(s for s in self.seats if s != side)

    def assert_not_reloaded(self):
        for side, (page, _user) in self.seats.items():
            assert page.evaluate("() => window.__e2eMark") == self.marks[side], side

    def play(self, text: str):
        game = self.game
        (side,) = game.to_act()
        page, user = self.seats[side]
        user.refresh_from_db()
        move = move_entry.read(text)
        assert move is not None, text
        start = None if move.start == move_entry.PLACE else move.start
        entry = move_entry.Entry.of(game.position(), side)
        assert entry.has(text), (text, side)
        if start is not None:
            click_and_settle(page, page.locator(square(start)))
            expect(page.locator(square(start))).to_have_attribute("aria-pressed", "true")
        choices = len(entry.between(start, move.to)) > 1
        if choices or user.confirm_moves:
            click_and_settle(page, page.locator(square(move.to)))
        else:
            page.locator(square(move.to)).click()
        if choices:
            click_and_settle(page, page.locator(f'.game-choices button[value="{text}"]'))
        if user.confirm_moves:
            confirm = page.locator("form.game-confirm")
            expect(confirm.locator("kbd")).to_have_text(text)
            # the move's squares stay marked on the board while it waits
            expect(page.locator(".board .sq-pending")).to_have_count(
                len(move_entry.squares_of(text))
            )
            confirm.get_by_role("button", name="Confirm").click()
        self.counts[text] += 1
        self.wait_for(text)
        # the clicks swap fragments in place: the address stays the game's, so that
        # a reload or a bookmark opens the game (the click address is POST only)
        assert urlparse(page.url).path == f"/game/{self.game_id}/", page.url
        return side

    def played_elsewhere(self, texts):
        """Moves made outside these pages: both pages show them by polling."""
        play_through_services(self.game, texts)
        for text in texts:
            self.counts[text] += 1
        for text in texts:
            self.wait_for(text)

    def wait_for(self, text: str):
        """Both pages list ``text`` as often as it was played; neither page was reloaded."""
        for side in self.seats:
            expect(moves_named(self.page(side), text)).to_have_count(
                self.counts[text], timeout=SEEN
            )
        self.assert_not_reloaded()
        self.assert_whole_lists()

    def assert_whole_lists(self):
        """Each page's list, kept across swaps and sent only its new lines, is the
        list a fresh page would show, the last line the current one."""
        game = self.game
        for side, (page, _user) in self.seats.items():
            listed = presenters.move_list(game.variant, presenters.visible_moves(game, side))
            with translation.override("en"):  # the pages' language: the dice in words
                lines = [row["text"] for row in render.move_rows(listed, len(listed))]
            expect(page.locator(".move-list b")).to_have_text(lines)
            # a line each, none inside another (the list's lines have no end tags)
            expect(page.locator("#move-list > li")).to_have_count(len(lines))
            assert page.evaluate(MISPLACED_LINES) == [], side
            current = page.locator('.move-list [aria-current="step"] b')
            expect(current).to_have_text([lines[-1]])
            # numbered 1, 2, … by their places: what a screen reader says of each line
            numbers = [f"{n}." for n in range(1, len(lines) + 1)]
            assert spoken_numbers(page, "#move-list") == numbers, side

    def expect_result(self, words: str):
        for side in self.seats:
            expect(self.page(side).locator(".game-result")).to_contain_text(words, timeout=SEEN)
        self.assert_not_reloaded()

    def check_page(self, name: str):
        """Screenshots at both widths, no overflow at phone width, names, axe: each page."""
        for side, (page, _user) in self.seats.items():
            width = page.viewport_size["width"]
            screenshot(page, f"{name}-{side}-{width}")
            if width == PHONE["width"]:
                assert horizontal_overflow(page) == 0, (name, side)
                assert page.evaluate(BROKEN_MOVES) == [], (name, side)
            assert accessible_nameless(page) == [], (name, side)
            assert axe_violations(page) == [], (name, side)
            assert page.evaluate(FADED_SQUARES) == [], (name, side)


# squares drawn faded: a square that cannot be clicked must look like any other
FADED_SQUARES = """() => [...document.querySelectorAll('#game-board .board-squares > *')]
    .filter(e => getComputedStyle(e).opacity !== '1').map(e => e.getAttribute('aria-label'))"""

# the list's lines not in their side's column: White's first, Black's second, an
# army or the dice across both
MISPLACED_LINES = """() => {
    const list = document.querySelector('#move-list'), left = list.getBoundingClientRect().left;
    const middle = left + list.clientWidth / 2;
    return [...list.children].filter(li => {
        const box = li.getBoundingClientRect();
        if (li.matches('.army, .dice')) return box.right < middle;
        return li.matches('.w') ? box.left >= middle : box.left < middle;
    }).map(li => li.textContent);
}"""

# the move texts of the list that a line break cuts in two ("b2-" / "b4")
BROKEN_MOVES = """() => [...document.querySelectorAll('.move-list b')]
    .filter(e => e.getClientRects().length > 1).map(e => e.textContent)"""


def seat_pages(open_page, white, black):
    """alice at a desktop, bob on a phone: each game page is seen at both widths."""
    return {"white": (open_page(white, DESKTOP), white), "black": (open_page(black, PHONE), black)}


def start(variant, white, black, options=None, *, rated=False):
    challenge = services.create_challenge(
        white,
        variant=variant,
        options=options or {},
        days_per_move=3,
        rated=rated,
        color="white",
        opponent=black,
    )
    return services.accept_challenge(black, challenge.pk)


def play_through_services(game, texts):
    for text in texts:
        game = Game.objects.get(pk=game.pk)
        (side,) = game.to_act()
        user = game.white if side == "white" else game.black
        services.play_move(user, game.pk, text, game.visible_ply(side))
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def quick(alice, bob):
    """alice and bob play without the confirmation step (one scenario keeps it)."""
    for user in (alice, bob):
        user.confirm_moves = False
        user.save(update_fields=["confirm_moves"])
    return alice, bob


# -- 1. an open challenge, created and accepted by clicks --------------------------------


def test_open_challenge_created_and_accepted_in_the_lobby(open_page, alice, bob):
    page_a, page_b = open_page(alice), open_page(bob, PHONE)
    page_a.goto("/challenge/new/")
    page_a.locator("#id_game").select_option("rococo")
    expect(page_a.locator('#game-options fieldset[data-game="rococo"]')).to_be_visible()
    page_a.get_by_label("Casual").check()
    screenshot(page_a, "challenge-new-1280")
    assert axe_violations(page_a) == []
    page_a.get_by_role("button", name="Create the challenge").click()
    expect(page_a.get_by_role("heading", level=1)).to_contain_text("Rococo challenge by alice")
    challenge_url = page_a.url
    expect(page_a.get_by_text("Waiting for someone to accept…")).to_be_visible()

    page_b.goto("/lobby/")
    row = page_b.locator("#challenges tr", has_text="alice")
    expect(row).to_contain_text("Rococo")
    screenshot(page_b, "lobby-390")
    assert horizontal_overflow(page_b) == 0
    assert axe_violations(page_b) == []
    row.get_by_role("button", name="Accept").click()
    expect(page_b).to_have_url(re.compile(r"/game/\d+/$"))
    game_url = page_b.url

    # alice's challenge page, left open, notices the accept and follows to the game
    expect(page_a).to_have_url(game_url)
    page_a.goto(challenge_url)
    page_a.get_by_role("link", name="Go to the game").click()
    expect(page_a).to_have_url(game_url)
    for page in (page_a, page_b):
        expect(page.locator(".game-players")).to_contain_text("alice")
        expect(page.locator(".game-players")).to_contain_text("bob")
        expect(page.locator(".game-player--to-act")).to_have_count(1)  # White, whoever it is


def test_challenge_form_fits_a_phone(open_page, alice):
    page = open_page(alice, PHONE)
    page.goto("/challenge/new/")
    expect(page.locator("#game-options fieldset")).not_to_have_count(0)
    screenshot(page, "challenge-new-390")
    assert horizontal_overflow(page) == 0
    assert axe_violations(page) == []


# -- 2. a whole game of each game, by clicks ----------------------------------------------


def test_carolo_mat_by_clicks_with_confirmation(open_page, alice, bob):
    # alice keeps the confirmation step (the default); bob plays straight away
    bob.confirm_moves = False
    bob.save(update_fields=["confirm_moves"])
    game = start("carolo", alice, bob)
    table = Table(game.pk, seat_pages(open_page, alice, bob))
    table.check_page("game-carolo")
    for text in ["d2-f6", "b8-d6", "d1xd6", "h8-h6", "d6-e7"]:
        table.play(text)
    table.expect_result("White wins by mat")
    table.check_page("game-carolo-over")


PLACEMENT = "@a1 @a3 @b1 @a4 @c1 @a5 @d1 @c3 @e1 @c4 @b2 @c5 @d2 @e4 @b3 @e5".split()
FIGHT = "a1xa3 e5-d5 a3xa4 d5-e5 a4xa5 e5-d5 c1xc3 d5-e5 c3xc4 e5-d5 c4xc5 d5-e5 e1xe4".split()


def test_carge_placement_then_annihilation_by_clicks(open_page, quick):
    alice, bob = quick
    game = start("carge", alice, bob, {"barriers": "b2n,c3e,d1n"})
    # most of the placement and the fight's opening through services; clicks for the rest
    game = play_through_services(game, PLACEMENT[:14])
    table = Table(game.pk, seat_pages(open_page, alice, bob))
    table.check_page("game-carge-placement")
    for text in PLACEMENT[14:]:
        table.play(text)
    expect(table.page("white").locator(".game-phase")).not_to_contain_text("placement")
    table.played_elsewhere(FIGHT[:8])  # e.g. from the API: the pages follow by polling
    for text in FIGHT[8:]:
        table.play(text)
    table.expect_result("White wins: Black is left with one pawn or none.")
    table.check_page("game-carge-over")


ROCOCO_MATE = "f3-f4 g8-g7 e3-e4 g7-h6 e2-g4 g9-g7 g3-h4 g7-g5 g4-g9xg5".split()


def test_rococo_checkmate_with_a_capture_by_clicks(open_page, quick):
    alice, bob = quick
    game = start("rococo", alice, bob)
    table = Table(game.pk, seat_pages(open_page, alice, bob))
    table.check_page("game-rococo")
    for text in ROCOCO_MATE:
        table.play(text)
    table.expect_result("White wins by checkmate.")
    table.check_page("game-rococo-over")


# what would give alice's army away on bob's page
ALICE_SECRETS = ("<b>+Q</b>", "<b>+R</b>", "White's army", "white queen", "white rook")


def assert_no_secrets(page):
    html = page.content()
    for secret in ALICE_SECRETS:
        assert secret not in html, secret


def test_mini_shuuro_recruit_deploy_and_mate_by_clicks(open_page, quick, fixed_dice):
    alice, bob = quick
    fixed_dice.extend([2, 2, 0, 0])  # one plinth on a3; White deploys and moves first
    game = start("shuuro-mini", alice, bob)
    table = Table(game.pk, seat_pages(open_page, alice, bob))
    page_a, page_b = table.page("white"), table.page("black")
    table.check_page("game-shuuro-recruitment")
    # every swap of bob's page is searched for alice's army until both armies are done
    page_b.evaluate(
        """secrets => document.body.addEventListener('htmx:afterSettle', () => {
            const html = document.body.innerHTML;
            if (document.querySelector('.game-recruit') && secrets.some(s => html.includes(s)))
                window.__leaked = true;
        })""",
        list(ALICE_SECRETS),
    )
    budget = page_a.locator(".game-budget")
    page_a.get_by_role("button", name="Buy a queen").click()
    expect(budget).to_contain_text("90 points left of 200")
    assert_no_secrets(page_b)
    page_a.get_by_role("button", name="Buy a rook").click()
    expect(budget).to_contain_text("20 points left of 200")
    page_a.get_by_role("button", name="Give back a rook").click()
    expect(budget).to_contain_text("90 points left of 200")
    page_a.get_by_role("button", name="Buy a rook").click()
    expect(budget).to_contain_text("20 points left of 200")
    assert_no_secrets(page_b)
    # alice's list has her army as one entry, secret; bob's has nothing of it
    army = page_a.locator(".move-list .army")
    expect(army).to_have_count(1)
    expect(army).to_contain_text("White's army: Q R (secret until both are done)")
    page_a.get_by_role("button", name="Done: confirm my army").click()
    # bob's page learns that alice is done (she no longer acts), not what she bought
    expect(page_b.locator(".game-player--to-act")).to_have_count(1, timeout=SEEN)
    expect(page_b.locator(".game-player--to-act")).to_contain_text("bob")
    assert_no_secrets(page_b)
    assert page_b.evaluate("() => window.__leaked") is None
    page_b.get_by_role("button", name="Done: confirm my army").click()
    for page in (page_a, page_b):
        expect(page.locator(".game-phase")).to_contain_text("deployment", timeout=SEEN)
        # five clicks of alice's, one of bob's: an entry each, naming the army
        armies = page.locator(".move-list .army")
        expect(armies).to_have_text([re.compile(r"^White's army: Q R$"), "Black's army: K"])
        expect(page.locator(".move-list li:not(.army) b")).to_have_count(3)  # the dice
    table.assert_not_reloaded()
    page_b.get_by_role("link", name="White's army: Q R").click()
    expect(page_b.locator(".game-replay-note")).to_contain_text("position after move 1 of 5")
    page_b.get_by_role("link", name="Next move").click()
    expect(page_b.locator(".game-replay-note")).to_contain_text("position after move 2 of 5")
    page_b.get_by_role("link", name="Current position").click()
    expect(page_b.locator(".game-replay-note")).to_have_count(0)
    table.check_page("game-shuuro-deployment")
    for text in ["K@c1", "k@a6", "Q@d1", "R@e1", "e1_e5", "a6_b6", "d1_d6"]:
        table.play(text)
    table.expect_result("White wins by checkmate.")
    table.check_page("game-shuuro-over")


def test_carolo_attraction_from_the_start_then_resignation(open_page, quick):
    # Found with the engine: after 1. f2-a2, Black's Hubris b8-g3 sees White's Ego e1
    # over the empty f2: the Ego must go to f2, or White's Hubris onto f2.
    alice, bob = quick
    game = start("carolo", alice, bob)
    table = Table(game.pk, seat_pages(open_page, alice, bob))
    page_a, page_b = table.page("white"), table.page("black")
    table.play("f2-a2")
    table.play("b8-g3")
    line = "Attraction: the enemy Hubris on g3 attracts your Ego on e1."
    expect(page_a.locator(".game-attraction")).to_contain_text(line)
    expect(page_a.locator(".game-attraction")).to_contain_text("only move the Ego to f2")
    expect(page_b.locator(".game-attraction")).to_have_count(0)
    # the Carolo may not move now: its square is a disabled button, with no value to send
    expect(page_a.locator('#game-board button[aria-label^="a1, "]')).to_be_disabled()
    page_a.locator(square("e1")).click()
    expect(page_a.locator(square("e1"))).to_have_attribute("aria-pressed", "true")
    possible = page_a.locator('#game-board button[aria-label$="possible move"]')
    expect(possible).to_have_count(1)
    expect(possible).to_have_attribute("value", "f2")
    table.check_page("game-carolo-attraction")
    page_a.locator(square("e1")).click()  # unselect; the table plays the move
    expect(page_a.locator(square("e1"))).not_to_have_attribute("aria-pressed", "true")
    table.play("e1-f2")
    expect(page_a.locator(".game-attraction")).to_have_count(0)
    page_b.get_by_role("button", name="Resign", exact=True).click()
    page_b.get_by_role("button", name="Yes, resign").click()
    table.expect_result("Black resigned: White wins.")
