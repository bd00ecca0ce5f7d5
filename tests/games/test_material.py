"""The material a side is ahead by (games/material.py), and beside each player on the
game page; never a word of it while a Shuuro army is secret."""

import re
import types

import pytest
from django.core.cache import cache
from django.urls import reverse

from games import rules, services
from games.material import ahead
from tests.games.game_utils import client_for, play_line, post_move, start_game

W, B = rules.WHITE, rules.BLACK


def board_of(key, fen):
    position = rules.get(key).from_fen(fen)
    return position.board_for(None) if key.startswith("shuuro") else position.board()


# -- the counts ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", rules.GAME_KEYS)
def test_no_side_is_ahead_at_the_start(key):
    # the same army each side: Carge's 8 pawns in hand, Shuuro's King in hand
    assert ahead(key, board_of(key, rules.get(key).start().fen())) == {W: [], B: []}


def test_a_carolo_piece_taken_puts_the_taker_ahead_by_it():
    # Black's Aymon a8 is gone
    board = board_of("carolo", "1hbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1")
    assert ahead("carolo", board) == {W: [("A", 1)], B: []}


def test_each_side_is_ahead_by_its_own_kinds():
    # Black lost the Bayard c8, White the Aymons a1 and h1
    board = board_of("carolo", "ah1cebha/3a1a2/8/8/8/8/3A1A2/1HBCEBH1 w c1f1f8 1")
    assert ahead("carolo", board) == {W: [("B", 1)], B: [("a", 2)]}


def test_rococo_kinds_come_in_legend_order():
    # Black lost a pawn (b8) and a long leaper (d9), White a pushme-pullyu (c2): the
    # legend goes king, pushme-pullyu, swapper, long leaper, chameleon, immobilizer, pawn
    board = board_of("rococo", "91/1rq1bknqm1/2ppppppp1/91/91/91/91/1PPPPPPPP1/1M1NBKNQR1/91 w 0 -")
    assert ahead("rococo", board) == {W: [("N", 1), ("P", 1)], B: [("q", 1)]}


def test_a_carge_stack_is_two_pawns():
    # White: b3, c3 and the stack e1, 4 pawns; Black: the stack b5, e3, a2 and d1, 5
    board = board_of("carge", "1s3/5/1PP1p/p4/3pS w b2n,c3e,d1n 0,0 0,0")
    assert ahead("carge", board) == {W: [], B: [("p", 1)]}


def test_carge_pawns_in_hand_count():
    # placing, from a FEN with a pawn short: White 2 on the board and 6 in hand, Black 7
    # in hand
    board = board_of("carge", "5/5/2P2/1P3/5 b b2n,c3e,d1n 6,7 3,3")
    assert ahead("carge", board) == {W: [("P", 1)], B: []}


def test_plinths_are_not_pieces():
    # the same army each side (K R B N 3P), plinths on a5 and b3
    board = board_of("shuuro-mini", "kr1n1b/_.2ppp/6/1_.4/PP2P1/R1BKN1 w - 15 -")
    assert ahead("shuuro-mini", board) == {W: [], B: []}


def test_a_promoted_pawn_is_its_new_piece():
    position = rules.get("shuuro-mini").from_fen("k5/4P1/6/2p3/6/K5 w - 20 -")
    assert ahead("shuuro-mini", position.board_for(None)) == {W: [], B: []}
    promoted = position.play(position.parse_move("e5_e6=Q", W))
    # White: King and queen; Black: King and pawn
    assert ahead("shuuro-mini", promoted.board_for(None)) == {W: [("Q", 1)], B: [("p", 1)]}


def test_shuuro_pieces_in_hand_belong_to_the_army():
    # deployment: White's King placed, a queen in hand; Black's King placed, 2 knights
    # in hand
    board = board_of("shuuro-mini", "2k3/6/6/6/6/3K2 w Q2n 3")
    assert ahead("shuuro-mini", board) == {W: [("Q", 1)], B: [("n", 2)]}


# -- the game page -------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def material_of(response) -> dict[str, str]:
    """Username -> what the page prints beside that player: label | images and counts."""
    found = re.findall(
        r'<a href="/@/(\w+)">\w+</a>\s*<span class="game-rating"[^>]*>[^<]*</span>'
        r'(?:<span class="rating-change[^>]*>[^<]*</span>)?\n?'
        r'(?:<span class="board game-material" role="img" aria-label="([^"]*)">(.*?)</span>)?\n',
        response.content.decode(),
    )
    return {user: f"{label} | {images}" if label else "" for user, label, images in found}


def page(client, game, **params):
    return client.get(reverse("game", args=[game.pk]), params)


@pytest.fixture
def both_ahead(players, alice, bob):
    """Carolo: White's Carolo takes the Hubris d6, Black's Bayard the Aymon f6."""
    game = start_game("carolo", alice, bob)
    return play_line(players, game.pk, ["d2-f6", "b8-d6", "d1xd6", "c8xf6"])


WHITE_UP = 'Ahead by: 1 × Hubris | <i class="wH"></i>'
BLACK_UP = 'Ahead by: 1 × Aymon | <i class="bA"></i>'


def test_both_players_and_a_spectator_see_each_sides_lead(players, charlie, both_ahead):
    for client in (players["white"][0], players["black"][0], client_for(charlie)):
        assert material_of(page(client, both_ahead)) == {"alice": WHITE_UP, "bob": BLACK_UP}


def test_the_fragment_after_a_move_shows_it(players, alice, bob):
    game = start_game("carolo", alice, bob)
    play_line(players, game.pk, ["d2-f6", "b8-d6"])
    response = post_move(*players["white"], game.pk, "d1xd6", htmx=True)
    assert material_of(response) == {"alice": WHITE_UP, "bob": ""}


def test_a_replay_shows_the_material_of_the_position_shown(players, both_ahead):
    client = players["black"][0]
    assert material_of(page(client, both_ahead, ply=2)) == {"alice": "", "bob": ""}
    assert material_of(page(client, both_ahead, ply=3)) == {"alice": WHITE_UP, "bob": ""}


def test_more_than_one_of_a_kind_is_counted(players, alice, bob):
    # Carge placement: White has placed 5 pawns, Black 4; with those in hand, 8 each
    game = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n"})
    play_line(players, game.pk, "@a1 @a3 @b1 @a4 @c1 @a5 @d1 @c3 @e1".split())
    assert material_of(page(players["white"][0], game)) == {"alice": "", "bob": ""}
    # White takes a3, a4 and a5, one a move, while Black moves back and forth
    play_line(players, game.pk, "@c4 @b2 @c5 @d2 @e4 @b3 @e5 a1xa3 e5-d5 a3xa4 d5-e5".split())
    play_line(players, game.pk, ["a4xa5"])
    expected = 'Ahead by: 3 × pawn | <i class="wP"></i>×3'
    assert material_of(page(players["black"][0], game)) == {"alice": expected, "bob": ""}


# -- secrecy: Shuuro's recruitment -----------------------------------------------------


def tells_of_material(html):
    return "game-material" in html or "Ahead by" in html


def test_recruitment_shows_no_material_to_anyone(players, charlie, recruiting):
    for client in (players["white"][0], players["black"][0], client_for(charlie)):
        assert not tells_of_material(page(client, recruiting).content.decode())
        fragment = client.get(reverse("game", args=[recruiting.pk]), HTTP_HX_REQUEST="true")
        assert not tells_of_material(fragment.content.decode())
        poll = client.get(reverse("game_poll", args=[recruiting.pk]), {"v": 0})
        assert not tells_of_material(poll.content.decode())
        for ply in range(3):
            assert not tells_of_material(page(client, recruiting, ply=ply).content.decode())


def test_one_army_in_is_still_a_secret(players, recruiting):
    post_move(*players["white"], recruiting.pk, "done")
    for client, _user in players.values():
        assert not tells_of_material(page(client, recruiting).content.decode())


def test_a_game_ended_in_recruitment_keeps_it_secret(players, recruiting):
    services.resign(recruiting.black, recruiting.pk)
    for client, _user in players.values():
        assert not tells_of_material(page(client, recruiting).content.decode())


def test_material_shows_once_both_armies_are_in(players, recruiting, monkeypatch):
    rolls = [2, 2, 0]  # the plinth rolls, then who deploys first
    monkeypatch.setattr(
        "games.services.secrets", types.SimpleNamespace(choice=lambda seq: seq[rolls.pop(0)])
    )
    post_move(*players["white"], recruiting.pk, "done")
    post_move(*players["black"], recruiting.pk, "done")
    # deployment, every piece in hand: White K Q R, Black K N
    expected = {
        "alice": 'Ahead by: 1 × queen, 1 × rook | <i class="wQ"></i><i class="wR"></i>',
        "bob": 'Ahead by: 1 × knight | <i class="bN"></i>',
    }
    for client, _user in players.values():
        assert material_of(page(client, recruiting)) == expected
    # the recruitment replayed: still nothing, as while it was secret
    assert not tells_of_material(page(players["black"][0], recruiting, ply=1).content.decode())
