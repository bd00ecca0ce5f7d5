"""Every phase on the game page: Shuuro recruitment in secret, plinths, deployment;
Carge placement and barrier moves; Carolo's attraction."""

import html
import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from games.models import Move
from games.presenters import ListedMove, army_text
from tests.games.game_utils import click, play_line, post_move, start_game, words


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def html_of(response):
    return html.unescape(response.content.decode())


FR = {"accept-language": "fr"}


def get(client, game, **params):
    return client.get(reverse("game", args=[game.pk]), params)


# -- Shuuro recruitment -------------------------------------------------------------------


def test_recruitment_shows_the_budget_and_counts(players, recruiting):
    body = words(get(players["white"][0], recruiting))
    assert "Recruit your army" in body
    # 200 - 110 - 70 = 20
    assert "20 points left of 200 (180 spent)." in body
    assert "Phase: recruitment." in body
    html = get(players["white"][0], recruiting).content.decode()
    assert 'name="text" value="+Q"' in html and 'name="text" value="-Q"' in html
    assert 'value="done"' in html


def test_only_what_can_be_bought_or_given_back_is_offered(players, recruiting):
    # 20 points left: of queen 110, rook 70, bishop 40, knight 40 and pawn 10, only a
    # pawn fits; only the queen and the rook bought can be given back.
    html = get(players["white"][0], recruiting).content.decode()
    buttons = dict(re.findall(r'name="text" value="([+-][QRBNP])"[^>]*?( disabled)?>', html))
    assert {text for text, off in buttons.items() if not off} == {"+P", "-Q", "-R"}
    assert len(buttons) == 10


def test_each_plus_and_minus_is_a_move(players, recruiting):
    client, user = players["black"]
    response = post_move(client, user, recruiting.pk, "-N", htmx=True, confirmed=False)
    assert "200 points left of 200 (0 spent)." in words(response)
    texts = Move.objects.filter(game=recruiting, side="black").values_list("text", flat=True)
    assert list(texts) == ["+N", "-N"]


def test_the_engine_refuses_an_army_over_the_budget(players, recruiting):
    client, user = players["white"]
    response = post_move(client, user, recruiting.pk, "+Q", htmx=True)
    assert "not enough points: 20 left, a queen costs 110" in words(response)
    assert Move.objects.filter(game=recruiting, side="white").count() == 2


# what would give alice's army away: her moves in a list or record, her pieces in a hand
ALICE_SECRETS = (
    "<b>+Q</b>",
    "<b>+R</b>",
    "White's army",
    "white +Q",
    "white queen",
    "white rook",
)


def _assert_no_secrets(html):
    for secret in ALICE_SECRETS:
        assert secret not in html, secret


def test_bob_never_sees_alices_purchases(players, recruiting):
    client, _bob = players["black"]
    page = get(client, recruiting).content.decode()
    _assert_no_secrets(page)
    assert "+N" in page  # his own purchase is in his list
    assert "1 × black knight" in page
    fragment = client.get(reverse("game", args=[recruiting.pk]), HTTP_HX_REQUEST="true")
    _assert_no_secrets(fragment.content.decode())
    poll = client.get(reverse("game_poll", args=[recruiting.pk]), {"v": 0})
    _assert_no_secrets(poll.content.decode())
    record = client.get(reverse("game_record", args=[recruiting.pk])).content.decode()
    _assert_no_secrets(record)
    assert "black +N" in record
    for ply in range(0, 4):
        _assert_no_secrets(get(client, recruiting, ply=ply).content.decode())
    # the FEN shown is bob's view: White's hand is the King alone
    assert "Q" not in page.split('id="game-fen" readonly value="')[1].split('"')[0].split()[2]


def test_alices_purchases_do_not_wake_bobs_page(players, recruiting):
    client, _bob = players["black"]
    url = reverse("game_poll", args=[recruiting.pk])
    token = re.search(r"poll\?v=([^\"]+)", get(client, recruiting).content.decode()).group(1)
    # bob sees his own move (+N) and nothing of alice's two: one ply, both to act
    assert token.startswith("1-1-active-none-1-1-")  # then the deadline
    post_move(*players["white"], recruiting.pk, "+B")
    assert client.get(url, {"v": token}).status_code == 204
    post_move(*players["white"], recruiting.pk, "done")
    assert client.get(url, {"v": token}).status_code == 200  # alice is no longer to act


def test_a_spectator_sees_no_purchases(client, charlie, recruiting):
    client.force_login(charlie)
    page = get(client, recruiting).content.decode()
    _assert_no_secrets(page)
    assert "+N" not in page and "black knight" not in page


def test_purchases_are_shown_once_both_are_done(players, recruiting, fixed_dice):
    fixed_dice.extend([2, 2, 0])
    post_move(*players["white"], recruiting.pk, "done")
    _assert_no_secrets(get(players["black"][0], recruiting).content.decode())
    post_move(*players["black"], recruiting.pk, "done")
    body = words(get(players["black"][0], recruiting))
    assert "White's army: Q R" in body and "Black's army: N" in body
    assert "Dice 1, 3" in body  # the plinth rolls, made by the server
    assert "Phase: deployment." in body


def listed(response) -> list[tuple[str, str, str]]:
    """The move list's entries: (number shown, ?ply= of its link, its words).  A line's
    number is its place in the list (game.css's counter draws it before the link's
    words)."""
    found = re.findall(
        r'<li(?: class=\w+)?><a href="\?ply=(\d+)"[^>]*>(.*?)(?=<li|</ol>)',
        response.content.decode(),
        re.S,
    )
    return [
        (
            str(n),
            ply,
            re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", f"{n}. {item}"))).strip(),
        )
        for n, (ply, item) in enumerate(found, start=1)
    ]


def test_an_army_counts_what_was_bought_and_not_given_back():
    texts = ["+P", "+Q", "+P", "-Q", "+R", "+N", "+P", "done"]
    moves = [ListedMove(n, n, "white", text, False) for n, text in enumerate(texts, 1)]
    assert army_text(moves) == "R N 3P"
    assert army_text(moves[:2] + moves[3:4] + moves[-1:]) == "P"
    assert army_text(moves[-1:]) == "K"  # the King alone


def test_a_recruitment_is_listed_as_ones_own_army_kept_secret(players, recruiting):
    post_move(*players["black"], recruiting.pk, "-N")
    post_move(*players["black"], recruiting.pk, "+B")
    post_move(*players["black"], recruiting.pk, "+P")
    # bob's three purchases and one give-back: one entry, at his last move (ply 4 of his list)
    assert listed(get(players["black"][0], recruiting)) == [
        ("1", "4", "1. Black's army: B P (secret until both are done)")
    ]
    assert listed(get(players["white"][0], recruiting)) == [
        ("1", "2", "1. White's army: Q R (secret until both are done)")
    ]


def test_the_armies_are_listed_once_both_are_done(players, recruiting, fixed_dice):
    fixed_dice.extend([2, 2, 0])
    for _ in range(3):
        post_move(*players["black"], recruiting.pk, "+P")
    post_move(*players["white"], recruiting.pk, "done")
    post_move(*players["black"], recruiting.pk, "done")
    # plies: 1 +Q, 2 +R (White), 3 +N (Black), 4-6 +P (Black), 7 done (White), 8 done (Black)
    expected = [
        ("1", "7", "1. White's army: Q R"),
        ("2", "8", "2. Black's army: N 3P"),
        ("3", "9", "3. Dice 1, 3"),
        ("4", "10", "4. Dice 1, 3"),
        ("5", "11", "5. Dice White deploys first"),  # the lower roll won
    ]
    for side in ("white", "black"):
        assert listed(get(players[side][0], recruiting)) == expected
    french = listed(players["black"][0].get(reverse("game", args=[recruiting.pk]), headers=FR))
    assert [words for _n, _ply, words in french[2:]] == [
        "3. Dés 1, 3",
        "4. Dés 1, 3",
        "5. Dés Blanc déploie en premier",
    ]
    record = players["white"][0].get(reverse("game_record", args=[recruiting.pk])).content
    assert b"white +Q\nwhite +R\nblack +N" in record  # the record keeps every move
    # and the dice as they were stored
    assert b"chance roll 1,3\nchance roll 1,3\nchance first w\n" in record
    assert list(recruiting.moves.filter(side="chance").values_list("text", flat=True)) == [
        "roll 1,3",
        "roll 1,3",
        "first w",
    ]


def test_every_ply_of_a_recruitment_can_be_replayed(players, deploying):
    client = players["black"][0]
    game = deploying
    fens = dict(Move.objects.filter(game=game).values_list("ply", "fen_after"))
    url = reverse("game", args=[game.pk])
    for ply in range(0, game.ply):
        html = get(client, game, ply=ply).content.decode()
        fen = game.engine.from_fen(fens.get(ply, game.start_fen)).view_fen("black")
        assert f'id="game-fen" readonly value="{fen}"' in html, ply
    # the counter counts entries, not clicks: 1. White's army (plies 1-3), 2. Black's army (4)
    assert "Replay: position during move 1 of 5." in words(get(client, game, ply=1))
    third = get(client, game, ply=3)
    assert "Replay: position after move 1 of 5." in words(third)
    # the step buttons go from entry to entry: not through each purchase
    third = third.content.decode()
    assert '<li class=army><a href="?ply=3" aria-current="step">' in third
    assert re.search(rf'href="{url}\?ply=0"[^>]*aria-label="Previous move"', third)
    assert re.search(rf'href="{url}\?ply=4"[^>]*aria-label="Next move"', third)
    middle = get(client, game, ply=2).content.decode()
    assert re.search(rf'href="{url}\?ply=3"[^>]*aria-label="Next move"', middle)
    assert '<li class=army><a href="?ply=3" aria-current="step">' in middle


# -- Shuuro deployment and plinths -------------------------------------------------------


def test_the_plinth_is_on_the_board(players, deploying):
    html = get(players["white"][0], deploying).content.decode()
    assert 'aria-label="a3, plinth"' in html


def test_deployment_selects_a_piece_in_hand_then_a_square(players, deploying):
    client, user = players["white"]
    html = get(client, deploying).content.decode()
    assert 'value="@K"' in html  # the King in hand is a button
    response = click(client, user, deploying.pk, "@K", htmx=True)
    html = response.content.decode()
    assert 'name="from" value="@K"' in html
    # Mini-Shuuro: the King goes on any free square of rank 1; rank 2 is not allowed
    for square in ("a1", "b1", "c1", "d1", "e1", "f1"):
        assert f'aria-label="{square}, empty, possible move"' in html
    assert 'aria-label="a2, empty, possible move"' not in html
    response = click(client, user, deploying.pk, "c1", start="@K", htmx=True)
    assert "Play K@c1 ?" in words(response)


def test_the_fight_starts_after_deployment(players, deploying):
    game = play_line(players, deploying.pk, ["K@c1", "k@a6"])
    for deploy in ("Q@d1", "R@e1"):
        post_move(*players["white"], game.pk, deploy)
    response = get(players["black"][0], game)
    assert "Phase: fight." in words(response)
    entries = [line for _n, _ply, line in listed(response)]
    assert entries[4] == "5. Dice White deploys first"
    assert entries[9] == "10. Dice White moves first"  # the roll for the first move


# -- Carge --------------------------------------------------------------------------------

PLACEMENT = "@a1 @a3 @b1 @a4 @c1 @a5 @d1 @c3 @e1 @c4 @b2 @c5 @d2 @e4 @b3 @e5".split()


def test_carge_placement_targets_every_empty_square(players, alice, bob):
    game = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n"})
    html = get(players["white"][0], game).content.decode()
    assert html.count("possible move") == 25
    assert 'aria-label="b2, empty, barrier towards b3, possible move"' in html
    body = words(get(players["white"][0], game))
    assert "Phase: placement." in body
    assert "Barrier moves left" not in body  # the barrier rule is off
    assert "8 × white pawn" in html


def test_carge_barrier_moves_are_extra_buttons(players, alice, bob):
    game = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n", "barrier_rule": "on"})
    game = play_line(players, game.pk, PLACEMENT)
    client, user = players["white"]
    html = html_of(click(client, user, game.pk, "b2", htmx=True))
    assert "Or move a barrier of this pawn:" in words(click(client, user, game.pk, "b2", htmx=True))
    # the barrier b2n lies on b2's north side; b2's free sides are east (b2e), south
    # (b1n) and west (a2e).  Moves of b2n to b3's sides belong to the b3 pawn.
    for text in ("b2n>b2e", "b2n>b1n", "b2n>a2e"):
        assert f'name="text" value="{text}"' in html
    assert 'value="b2n>b3n"' not in html
    # each button says which side the barrier leaves and takes, by the square beyond it
    shown = words(click(client, user, game.pk, "b2", htmx=True))
    assert "from the b3 side to the c2 side (b2n>b2e)" in shown
    assert "from the b3 side to the b1 side (b2n>b1n)" in shown
    assert "from the b3 side to the a2 side (b2n>a2e)" in shown
    assert "takes" not in shown and "you lose" not in shown
    assert "Barrier moves left: White 3, Black 3." in words(get(client, game))
    response = post_move(client, user, game.pk, "b2n>b2e", htmx=True)
    assert response.status_code == 200
    game.refresh_from_db()
    assert "b2e" in game.fen.split()[2] and "b2n" not in game.fen.split()[2]
    # each player has 3 in all (the rules' count); White has used one
    assert "Barrier moves left: White 2, Black 3." in words(get(players["black"][0], game))


def test_a_carge_barrier_move_that_closes_a_square_says_what_it_takes(players, alice, bob):
    # a5's north and west sides are the board's edge and a4n closes its south: moving
    # b5's east barrier to its west side (a5e) closes a5, and Black's pawn there is taken
    game = start_game("carge", alice, bob, {"barriers": "a4n,b5e", "barrier_rule": "on"})
    placement = "@b5 @a5 @a1 @c3 @b1 @c4 @c1 @c5 @d1 @e4 @e1 @e5 @b2 @d4 @d2 @d3".split()
    game = play_line(players, game.pk, placement)
    client, user = players["white"]
    shown = words(click(client, user, game.pk, "b5", htmx=True))
    assert "from the c5 side to the a5 side; takes a5 (b5e>a5e)" in shown
    assert "from the c5 side to the b4 side (b5e>b4n)" in shown


def test_a_carge_barrier_move_that_closes_ones_own_pawn_warns_of_the_loss():
    from games import move_entry, rules
    from games.presenters import barrier_choices

    position = rules.get("carge").from_fen("PP3/5/5/5/ppp2 w a4n,b5e 0,0 3,3")
    moves = move_entry.Entry.of(position, rules.WHITE).barrier_moves("b5")
    with translation.override("en"):  # a test before may leave French active
        choices = barrier_choices(position, "white", "b5", moves)
    rows = {move.text: words for move, words in choices}
    assert rows == {
        "b5e>a5e": "from the c5 side to the a5 side; you lose a5",
        "b5e>b4n": "from the c5 side to the b4 side",
    }


def test_carge_unstacking_from_a_stack(players, alice, bob):
    game = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n"})
    # b1 moves onto b2 and stacks; the stack's top pawn then steps one square
    game = play_line(players, game.pk, [*PLACEMENT, "b1-b2", "e5-d5"])
    client, user = players["white"]
    html = click(client, user, game.pk, "b2", htmx=True).content.decode()
    assert 'aria-label="b2, white stack, barrier towards b3, selected"' in html
    assert 'aria-label="b1, empty, possible move"' in html


# -- Carolo attraction -------------------------------------------------------------------


def test_carolo_attraction_is_explained_and_only_its_moves_highlighted(players, alice, bob):
    # Black's Hubris h4 sees White's Ego e1 over the empty f2 and g3: the Ego must go to g3.
    game = start_game("carolo", alice, bob, {"fen": "c3e3/8/8/8/7h/8/8/C3E3 w - 1"})
    client, user = players["white"]
    body = words(get(client, game))
    assert "Attraction: the enemy Hubris on h4 attracts your Ego on e1." in body
    html = get(client, game).content.decode()
    assert 'value="e1" class="d sq-selectable"' in html
    assert '<button class="d" aria-label="a1, white Carolo" disabled><i class="wC"></i>' in html
    html = click(client, user, game.pk, "e1", htmx=True).content.decode()
    assert html.count("possible move") == 1
    assert 'aria-label="g3, empty, possible move"' in html
    # Black is not attracted and sees no such line
    assert "Attraction" not in words(get(players["black"][0], game))
