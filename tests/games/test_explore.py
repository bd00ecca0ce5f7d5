"""The explore board: a line of moves tried from a position of a game, checked by the
engine on every request and stored nowhere."""

import html
import re
from urllib.parse import parse_qs, urlparse

import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, Move
from tests.games.game_utils import client_for, play_line, post_move, start_game, words


def explore(client, game, headers=None, **params):
    return client.get(reverse("game_explore", args=[game.pk]), params, **(headers or {}))


def query(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlparse(url).query).items()}


def line_of(response) -> list[str]:
    """The explored line as the page lists it: "1. White d1-d8", … (the number by the
    line's place, the side named by the move's column)."""
    items = re.findall(
        r'<ol class="move-list explore-line">(.*?)</ol>', response.content.decode(), re.S
    )
    if not items:
        return []
    lines = []
    found = re.findall(r'<li(?: class="(\w+)")?>(.*?)</li>', items[0], re.S)
    for number, (row, item) in enumerate(found, start=1):  # its number: its place
        text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", item))).strip()
        if row in ("w", ""):  # a move says who made it by its column: named here
            text = f"{'White' if row == 'w' else 'Black'} {text}"
        lines.append(f"{number}. {text}")
    return lines


def buttons(response) -> set[str]:
    """The squares (and hand pieces) the board offers to click."""
    return set(re.findall(r'name="square" value="([^"]+)"', response.content.decode()))


# -- Le Carolo -------------------------------------------------------------------------

# White: Carolo d1, Ego e1; Black: Carolo a8, Ego e8.  The Carolo slides d1-d8 up to the
# edge, next to the black Ego: mat.
MAT_FEN = "c3e3/8/8/8/8/8/8/3CE3 w - 1"


@pytest.fixture
def carolo(alice, bob):
    return start_game("carolo", alice, bob, {"fen": MAT_FEN})


def test_a_line_ending_in_mat_is_detected(client, carolo):
    response = explore(client, carolo, line="d1-d8")
    assert response.status_code == 200
    body = words(response)
    assert "White wins by mat: a Carolo stands next to the enemy Ego." in body
    assert line_of(response) == ["1. White d1-d8"]
    assert buttons(response) == set()  # the game is over on the board
    assert 'aria-label="d8, white Carolo, last move"' in response.content.decode()


def test_the_side_to_move_is_said_and_both_sides_move(client, carolo):
    body = words(explore(client, carolo))
    assert "White to move." in body and "From the game’s current position." in body
    response = explore(client, carolo, line="e1-e2")
    assert "Black to move." in words(response)
    # Black's pieces are the ones to click now: the Carolo a8 and the Ego e8
    assert buttons(response) == {"a8", "e8"}


def test_clicks_select_a_piece_then_append_its_move(client, carolo):
    response = explore(client, carolo, square="d1")
    assert response.status_code == 302
    assert query(response.url) == {"sel": "d1"}
    page = client.get(response.url).content.decode()
    assert 'aria-label="d1, white Carolo, selected"' in page
    assert 'aria-label="d8, empty, possible move"' in page
    assert '<input type="hidden" name="sel" value="d1">' in page
    response = explore(client, carolo, sel="d1", square="d8")
    assert response.status_code == 302
    assert query(response.url) == {"line": "d1-d8"}
    assert "White wins by mat" in words(client.get(response.url))


def test_a_click_on_nothing_movable_says_so(client, carolo):
    response = explore(client, carolo, square="c4", headers={"HTTP_HX_REQUEST": "true"})
    assert "c4: you have no move there." in words(response)


def test_an_illegal_move_cuts_the_line_with_the_engines_reason(client, carolo):
    # d1-d7 is no move of the Carolo: it slides on to the edge (d8)
    response = explore(client, carolo, line="e1-e2 a8-a1 d1-d7 e8-e7")
    assert response.status_code == 200
    body = words(response)
    assert "Move 3 of the line, d1-d7, cannot be played" in body
    assert "The line stops before it." in body
    assert line_of(response) == ["1. White e1-e2", "2. Black a8-a1"]
    assert "White to move." in body


def test_a_malformed_move_is_refused_with_a_message(client, carolo):
    for line in ("zz9", "<script>alert(1)</script>", "d1-d8 e8-e7", "é" * 70):
        response = explore(client, carolo, line=line)
        assert response.status_code == 200, line
        assert "cannot be played" in words(response), line
        assert "<script>alert" not in response.content.decode()
    # after the mat, the game is over
    assert "e8-e7, cannot be played: the game is over." in words(
        explore(client, carolo, line="d1-d8 e8-e7")
    )


def test_moves_are_checked_for_the_side_to_move(client, alice, bob):
    game = start_game("carolo", alice, bob)
    # b8-d6 is a black Hubris move: not White's first move
    body = words(explore(client, game, line="b8-d6"))
    assert "Move 1 of the line, b8-d6, cannot be played" in body


def aymon_tour(count: int) -> list[str]:
    """``count`` Aymon teleports from the start, each to an empty square."""
    tours = {
        "white": [f"{f}{r}" for r in "34" for f in "abcdefgh"],
        "black": [f"{f}{r}" for r in "65" for f in "abcdefgh"][:15],
    }
    at, texts = {"white": "a1", "black": "a8"}, []
    for ply in range(count):
        side = "white" if ply % 2 == 0 else "black"
        to = tours[side][(ply // 2) % len(tours[side])]
        texts.append(f"{at[side]}-{to}")
        at[side] = to
    return texts


def test_a_line_has_at_most_100_moves(client, alice, bob):
    game = start_game("carolo", alice, bob)
    response = explore(client, game, line=" ".join(aymon_tour(101)))
    assert response.status_code == 200
    assert "A line has at most 100 moves: the rest was dropped." in words(response)
    assert len(line_of(response)) == 100
    # the position repeats (a1-a3 … comes back): no repetition rule in explore
    assert "Draw" not in words(response) and "Arduo" not in words(response)
    assert "Rules that need the game’s history" in words(response)


def test_a_click_plays_its_move_without_replaying_the_line_again(client, alice, bob, monkeypatch):
    # a line of 100 moves costs about 40 ms to replay: a click checks it once, not twice
    from games import explore as module

    game = start_game("carolo", alice, bob)
    line = aymon_tour(100)
    replayed = []
    replay = module.replay
    monkeypatch.setattr(
        module, "replay", lambda start, texts: replayed.append(len(texts)) or replay(start, texts)
    )
    frm, to = line[-1].split("-")
    htmx = {"HTTP_HX_REQUEST": "true"}
    response = explore(client, game, htmx, line=" ".join(line[:-1]), sel=frm, square=to)
    assert replayed == [99]
    assert line_of(response)[-1] == f"100. Black {line[-1]}"
    assert response["HX-Push-Url"].endswith("+".join(line))
    # a click past the hundredth move is refused, and says why
    white_aymon = line[-2].split("-")[1]  # on b3; h4 is empty
    response = explore(client, game, htmx, line=" ".join(line), sel=white_aymon, square="h4")
    assert len(line_of(response)) == 100
    assert "A line has at most 100 moves: the rest was dropped." in words(response)


def test_a_line_parameter_too_long_is_cut(client, alice, bob):
    game = start_game("carolo", alice, bob)
    response = explore(client, game, line=" ".join(aymon_tour(90)) + " " + "x" * 3000)
    assert response.status_code == 200
    assert "The line is too long: only its start is shown." in words(response)
    assert len(line_of(response)) == 90


def test_explore_starts_from_a_replay_step(client, alice, bob, players):
    game = start_game("carolo", alice, bob)
    play_line(players, game.pk, ["d2-f6", "b8-d6", "f6-e7"])
    response = explore(client, game, **{"from": "1"})
    body = words(response)
    assert "From the position after the game’s move 1 of 3." in body
    assert "Black to move." in body
    # after d2-f6 only: the Aymon is on f6, d6 is empty, and f6-e7 is not played yet
    html = response.content.decode()
    assert 'aria-label="f6, white Aymon, last move"' in html
    assert 'aria-label="d6, empty"' in html
    assert "From the game’s start position." in words(explore(client, game, **{"from": "0"}))
    # a link back to that point of the game
    assert f'href="/game/{game.pk}/?ply=1"' in html


@pytest.mark.parametrize("step", ["3", "99", "-1", "abc", "1e3", "٣", ""])
def test_a_step_out_of_range_is_the_current_position(client, alice, bob, players, step):
    game = start_game("carolo", alice, bob)
    play_line(players, game.pk, ["d2-f6", "b8-d6", "f6-e7"])
    response = explore(client, game, **{"from": step})
    assert response.status_code == 200
    assert "From the game’s current position." in words(response)
    assert "Black to move." in words(response)


def test_a_game_that_does_not_exist_is_404(client, db):
    assert client.get(reverse("game_explore", args=[999_999])).status_code == 404


def test_explore_is_get_only(client, carolo):
    assert (
        client.post(reverse("game_explore", args=[carolo.pk]), {"line": "d1-d8"}).status_code == 405
    )


def test_anyone_may_explore_and_black_sees_the_board_turned(client, carolo, charlie, players):
    for viewer in (client, client_for(charlie), players["white"][0]):
        response = explore(viewer, carolo, line="d1-d8")
        assert response.status_code == 200
        assert "board--flipped" not in response.content.decode()
    black = explore(players["black"][0], carolo).content.decode()
    assert "board--flipped" in black


def test_the_game_and_its_moves_are_unchanged_by_exploring(client, alice, bob, players):
    game = start_game("carolo", alice, bob)
    play_line(players, game.pk, ["d2-f6", "b8-d6"])
    before = model_to_dict(Game.objects.get(pk=game.pk))
    moves = list(Move.objects.filter(game=game).order_by("ply").values())
    requests = [
        {"line": "f6-e7 d6-e5"},
        {"line": "f6-e7", "sel": "e8", "square": "e7"},
        {"square": "f6"},
        {"from": "1", "line": "b8-d6 f6-e7"},
        {"line": "zz"},
    ]
    for viewer in (client, players["white"][0], players["black"][0]):
        for params in requests:
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                with CaptureQueriesContext(connection) as queries:
                    response = explore(viewer, game, headers, **params)
                assert response.status_code in (200, 302)
                writes = [
                    q["sql"]
                    for q in queries.captured_queries
                    if re.match(r"\s*(INSERT|UPDATE|DELETE)", q["sql"], re.I)
                    and "games_" in q["sql"]
                ]
                assert writes == [], params
                assert not any("FOR UPDATE" in q["sql"] for q in queries.captured_queries)
    assert model_to_dict(Game.objects.get(pk=game.pk)) == before
    assert list(Move.objects.filter(game=game).order_by("ply").values()) == moves


def test_htmx_gets_the_explore_part_and_the_canonical_address(client, carolo):
    htmx = {"HTTP_HX_REQUEST": "true"}
    response = explore(client, carolo, htmx, line="e1-e2", sel="a8", square="a1")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="explore"')
    assert "<html" not in html and "game-chat" not in html and "hx-trigger" not in html
    assert response["HX-Push-Url"] == f"/game/{carolo.pk}/explore?line=e1-e2+a8-a1"
    assert line_of(response) == ["1. White e1-e2", "2. Black a8-a1"]
    # a selection replaces the address instead of adding a step to go back through
    response = explore(client, carolo, htmx, line="e1-e2", square="a8")
    assert response["HX-Replace-Url"] == f"/game/{carolo.pk}/explore?line=e1-e2&sel=a8"
    assert "HX-Push-Url" not in response


def test_the_page_links_back_one_move_start_again_and_the_game(client, carolo):
    html = explore(client, carolo, line="e1-e2 a8-a1").content.decode()
    url = f"/game/{carolo.pk}/explore"
    assert f'href="{url}?line=e1-e2" hx-get="{url}?line=e1-e2">Back one move' in html
    assert f'href="{url}" hx-get="{url}">Start again' in html
    assert f'href="/game/{carolo.pk}/">Back to the game' in html
    # each move of the line links back to that point
    assert (
        f'href="{url}?line=e1-e2+a8-a1" hx-get="{url}?line=e1-e2+a8-a1" aria-current="step"' in html
    )


def test_the_game_page_links_to_explore_from_the_position_shown(client, alice, bob, players):
    game = start_game("carolo", alice, bob)
    play_line(players, game.pk, ["d2-f6", "b8-d6"])
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert f'<a href="/game/{game.pk}/explore">Explore from this position</a>' in page
    replay = client.get(reverse("game", args=[game.pk]), {"ply": 1}).content.decode()
    assert f'<a href="/game/{game.pk}/explore?from=1">Explore from this position</a>' in replay


def test_the_page_speaks_french(client, carolo):
    response = explore(client, carolo, headers={"HTTP_ACCEPT_LANGUAGE": "fr"}, line="d1-d8")
    assert "Blanc gagne par mat" in words(response)


# -- Rococo --------------------------------------------------------------------------------

# from the start: after these, Black's swapper on b9 may go to c8 (the white chameleon,
# just arrived there) by a swap or by a kamikaze capture
TO_CHOICE = "c3-c4 h8-h7 c4-b5 c8-d7 c2-c8xc9"


def test_rococo_several_moves_between_the_same_squares_offer_a_choice(client, alice, bob):
    game = start_game("rococo", alice, bob)
    response = explore(client, game, line=TO_CHOICE, sel="b9", square="c8")
    assert response.status_code == 302
    assert query(response.url) == {"line": TO_CHOICE, "sel": "b9", "to": "c8"}
    response = client.get(response.url)
    body = words(response)
    assert "Which move?" in body
    assert "b9-c8:swap (swap places with the piece on c8)" in body
    assert "b9-c8xc8:kamikaze (take c8; your piece is removed too)" in body
    chosen = f"/game/{game.pk}/explore?line=" + TO_CHOICE.replace(" ", "+") + "+b9-c8%3Aswap"
    assert f'href="{chosen}"' in response.content.decode()
    after = client.get(chosen)
    assert line_of(after)[-1] == "6. Black b9-c8:swap"
    assert "White to move." in words(after)


def test_rococo_checkmate_is_found_in_explore(client, alice, bob):
    game = start_game("rococo", alice, bob)
    line = "f3-f4 g8-g7 e3-e4 g7-h6 e2-g4 g9-g7 g3-h4 g7-g5 g4-g9xg5"
    response = explore(client, game, line=line)
    assert "White wins by checkmate." in words(response)
    assert 'aria-label="f9, black king, in check"' in response.content.decode()
    assert buttons(response) == set()


# -- Le Carge ------------------------------------------------------------------------------

PLACEMENT = "@a1 @a3 @b1 @a4 @c1 @a5 @d1 @c3 @e1 @c4 @b2 @c5 @d2 @e4 @b3 @e5"


def test_carge_placement_by_a_click_on_an_empty_square(client, alice, bob):
    game = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n"})
    response = explore(client, game)
    assert response.content.decode().count("possible move") == 25
    response = explore(client, game, square="c3")
    assert query(response.url) == {"line": "@c3"}
    after = client.get(response.url)
    assert line_of(after) == ["1. White @c3"]
    assert 'aria-label="c3, white pawn, barrier towards d3, last move"' in after.content.decode()


def test_carge_barrier_moves_are_offered_and_played(client, alice, bob):
    game = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n", "barrier_rule": "on"})
    response = explore(client, game, line=PLACEMENT, sel="b2")
    body = words(response)
    assert "Or move a barrier of this pawn:" in body
    assert "from the b3 side to the c2 side (b2n>b2e)" in body
    assert "Barrier moves left: White 3, Black 3." in body
    href = f"/game/{game.pk}/explore?line=" + PLACEMENT.replace(" ", "+").replace("@", "%40")
    assert f'href="{href}+b2n%3Eb2e"' in response.content.decode()
    after = explore(client, game, line=f"{PLACEMENT} b2n>b2e")
    assert line_of(after)[-1] == "17. White b2n>b2e"
    assert "Black to move." in words(after)
    assert "Barrier moves left: White 2, Black 3." in words(after)
    fen = re.search(r'id="explore-fen" readonly value="([^"]+)"', after.content.decode())[1]
    assert "b2e" in fen.split()[2] and "b2n" not in fen.split()[2]


# -- Shuuro --------------------------------------------------------------------------------


def test_shuuro_deployment_from_the_hand(client, deploying):
    response = explore(client, deploying)
    assert "Phase: deployment." in words(response)
    # the King is deployed first: the queen and the rook wait in the hand
    assert buttons(response) == {"@K"}
    html = response.content.decode()
    assert 'aria-label="1 × white queen"' in html and 'aria-label="1 × white rook"' in html
    response = client.get(explore(client, deploying, square="@K").url)
    html = response.content.decode()
    # Mini-Shuuro: the King goes on a free square of rank 1, never rank 2
    assert 'aria-label="c1, empty, possible move"' in html
    assert 'aria-label="a2, empty, possible move"' not in html
    response = explore(client, deploying, sel="@K", square="c1")
    assert query(response.url) == {"line": "K@c1"}
    assert line_of(client.get(response.url)) == ["1. White K@c1"]


def test_shuuro_a_deployment_off_its_ranks_is_illegal(client, deploying):
    body = words(explore(client, deploying, line="K@c2"))
    assert "Move 1 of the line, K@c2, cannot be played" in body


def test_shuuro_who_goes_first_is_a_button_after_deployment(client, deploying):
    deployed = "K@c1 k@a6 Q@d1 R@e1"
    response = explore(client, deploying, line=deployed)
    body = words(response)
    assert "The dice decide who moves first." in body and "Who goes first?" in body
    first = f"/game/{deploying.pk}/explore?line=K%40c1+k%40a6+Q%40d1+R%40e1+first+w"
    assert f'href="{first}"' in response.content.decode()
    after = client.get(first)
    assert line_of(after)[-1] == "5. Dice White moves first"
    assert "Phase: fight." in words(after) and "White to move." in words(after)


def test_shuuro_check_is_shown(client, deploying):
    # the queen d1 goes to d6, on the black King's rank: check
    response = explore(client, deploying, line="K@c1 k@a6 Q@d1 R@e1 first w d1_d6")
    assert "Black to move. Check." in words(response)
    assert 'aria-label="a6, black king, in check"' in response.content.decode()


# -- Shuuro recruitment: nothing to explore, and nothing of the other's army -------------


# what would give alice's army away: her moves, her pieces in a hand, her FEN
ALICE_SECRETS = ("+Q", "+R", "white queen", "white rook", "White's army", "white +Q")


@pytest.mark.parametrize("alice_done", [False, True])
@pytest.mark.parametrize("viewer", ["bob", "charlie", None])
def test_no_explore_page_shows_alices_secret_army(recruiting, players, viewer, alice_done, request):
    if alice_done:  # bob alone is still to act: his explore page must not tell either
        post_move(*players["white"], recruiting.pk, "done")
    user = request.getfixturevalue(viewer) if viewer else None
    client = client_for(user) if user else request.getfixturevalue("client")
    lines = ["", "+Q", "done", "+N", "K@c1", "-Q +R done", "x" * 3000]
    for step in ["", "0", "1", "2", "3", "4", "99"]:
        for line in lines:
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                response = explore(client, recruiting, headers, **{"from": step, "line": line})
                assert response.status_code == 200, (step, line)
                html = response.content.decode()
                # the refusal quotes the viewer's own line back, and nothing else
                refusals = re.findall(r'<p class="game-notice" role="alert">(.*?)</p>', html)
                if line.split() and len(line) < 3000:
                    assert refusals == [
                        f"Move 1 of the line, {line.split()[0]}, cannot be played: there is "
                        "nothing to explore on the board before the armies are deployed. "
                        "The line stops before it."
                    ]
                html = re.sub(r'<p class="game-notice" role="alert">.*?</p>', "", html)
                for secret in ALICE_SECRETS:
                    assert secret not in html, (step, line, secret)
                assert buttons(response) == set()  # nothing to click
                assert "Nothing to explore on the board before the armies are deployed." in words(
                    response
                )
                fen = re.search(r'id="explore-fen" readonly value="([^"]+)"', html)[1]
                assert "Q" not in fen and "R" not in fen, fen
    # bob's own knight is in his own view, and in nobody else's
    seen = explore(client, recruiting).content.decode()
    assert ("1 × black knight" in seen) == (viewer == "bob")


def test_a_line_in_recruitment_says_there_is_nothing_to_explore(client, recruiting):
    body = words(explore(client, recruiting, line="+Q"))
    assert (
        "Move 1 of the line, +Q, cannot be played: there is nothing to explore on the board "
        "before the armies are deployed." in body
    )


def test_alice_explores_her_own_recruitment_without_moves(players, recruiting):
    response = explore(players["white"][0], recruiting, line="+B")
    assert "1 × white queen" in response.content.decode()  # her own, on her page
    assert buttons(response) == set() and line_of(response) == []
