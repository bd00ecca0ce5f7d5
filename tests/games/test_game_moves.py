"""Whole games of each of the four games played through the game page, and bad input."""

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Game, Move
from games.presenters import choice_words
from tests.games.game_utils import click, client_for, play_line, post_move, start_game, words

# -- whole games ----------------------------------------------------------------------------


def test_carolo_game_ends_in_mat(players, alice, bob):
    # The Aymon d2 jumps away, opening the d-file; Black's Hubris b8 blocks on d6; the
    # Carolo slides up and takes it; after an Aymon move it bounces off the Aymon f6
    # at e6 and slides up to e7, next to Black's Ego e8: mat.
    game = start_game("carolo", alice, bob)
    game = play_line(players, game.pk, ["d2-f6", "b8-d6", "d1xd6", "h8-h6", "d6-e7"])
    assert game.status == Game.Status.FINISHED
    assert (game.winner, game.result_reason) == ("white", "mat")
    page = words(players["black"][0].get(reverse("game", args=[game.pk])))
    assert "White wins by mat" in page
    assert "d6-e7" in page


def test_carge_game_ends_in_annihilation(players, alice, bob):
    game = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n"})
    placement = "@a1 @a3 @b1 @a4 @c1 @a5 @d1 @c3 @e1 @c4 @b2 @c5 @d2 @e4 @b3 @e5".split()
    fight = "a1xa3 e5-d5 a3xa4 d5-e5 a4xa5 e5-d5 c1xc3 d5-e5 c3xc4 e5-d5 c4xc5 d5-e5 e1xe4"
    game = play_line(players, game.pk, placement + fight.split(), htmx=True)
    # Black placed 8 pawns and lost a3, a4, a5, c3, c4, c5 and e4: one pawn left (d5).
    assert (game.winner, game.result_reason) == ("white", "annihilation")
    assert game.ply == 29
    page = words(players["white"][0].get(reverse("game", args=[game.pk])))
    assert "White wins: Black is left with one pawn or none." in page


def test_rococo_game_ends_in_checkmate(players, alice, bob):
    # White's chameleon comes out to g4; Black's long leaper walks g9-g7-g5 next to
    # it.  The chameleon takes it as a long leaper does, jumping from g4 over g5 to
    # g9, beside Black's King f9: an adjacent chameleon gives check, and Black has
    # no legal move.
    game = start_game("rococo", alice, bob)
    line = "f3-f4 g8-g7 e3-e4 g7-h6 e2-g4 g9-g7 g3-h4 g7-g5 g4-g9xg5".split()
    game = play_line(players, game.pk, line[:-1], htmx=True)
    html = players["black"][0].get(reverse("game", args=[game.pk])).content.decode()
    assert "in check" not in html
    game = play_line(players, game.pk, line[-1:], htmx=True)
    assert (game.status, game.winner, game.result_reason) == ("finished", "white", "checkmate")
    html = players["black"][0].get(reverse("game", args=[game.pk])).content.decode()
    assert 'aria-label="f9, black king, in check"' in html
    page = words(players["black"][0].get(reverse("game", args=[game.pk])))
    assert "White wins by checkmate." in page
    assert "g4-g9xg5" in page


def test_rococo_game_ends_by_resignation(players, alice, bob):
    game = start_game("rococo", alice, bob)
    game = play_line(players, game.pk, ["e3-e4", "e8-e7"])
    client, _user = players["black"]
    url = reverse("game_resign", args=[game.pk])
    response = client.post(url)  # the first click asks for a confirmation
    assert response.status_code == 302
    assert response.url.endswith("?resign=1")
    assert "Do you really want to resign" in words(client.get(response.url))
    game.refresh_from_db()
    assert game.is_active
    response = client.post(url, {"confirmed": "1"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.winner, game.result_reason) == ("white", "resign")
    assert "Black resigned: White wins." in words(client.get(reverse("game", args=[game.pk])))


def test_rococo_game_ends_by_threefold_repetition(players, alice, bob):
    # Both e-pawns step forward and back twice: the start position stands for the
    # third time after ply 8 (start, ply 4, ply 8), a draw.
    game = start_game("rococo", alice, bob)
    shuffle = ["e3-e4", "e8-e7", "e4-e3", "e7-e8"]
    game = play_line(players, game.pk, shuffle + shuffle[:3])
    assert game.is_active
    game = play_line(players, game.pk, shuffle[3:])
    assert (game.status, game.winner, game.result_reason) == ("finished", "", "repetition")
    assert "Draw by threefold repetition." in words(get_page(players["white"][0], game))


def get_page(client, game):
    return client.get(reverse("game", args=[game.pk]))


def test_mini_shuuro_with_kings_only_ends_by_insufficient_material(players, alice, bob):
    game = start_game("shuuro-mini", alice, bob, {"budget": "0"})
    for side in ("white", "black"):
        assert post_move(*players[side], game.pk, "done").status_code == 302
    game.refresh_from_db()
    # two plinth rolls and the roll for who deploys first, all by the server
    chance = Move.objects.filter(game=game, side="chance").values_list("text", flat=True)
    assert [t.split()[0] for t in chance] == ["roll", "roll", "first"]
    (first,) = game.to_act()
    client, user = players[first]
    assert "Phase: deployment." in words(client.get(reverse("game", args=[game.pk])))
    # each King goes on a free square of its first rank (a plinth may stand on some)
    for side in (first, "black" if first == "white" else "white"):
        game.refresh_from_db()
        position = game.position()
        king = position.move_text(position.legal_moves(side)[0])
        assert king[1] == "@"
        post_move(*players[side], game.pk, king)
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == (
        "finished",
        "",
        "insufficient-material",
    )
    assert "Draw by insufficient material." in words(client.get(reverse("game", args=[game.pk])))


def test_mini_shuuro_game_ends_in_checkmate(players, alice, bob, fixed_dice):
    # Rolls are listed column by column: index 2 is "roll 1,3", a plinth on a3 (twice,
    # so one plinth); index 0 is "first w" for who deploys first and who moves first.
    fixed_dice.extend([2, 2, 0, 0])
    game = start_game("shuuro-mini", alice, bob)
    for buy in ("+Q", "+R", "done"):
        post_move(*players["white"], game.pk, buy)
    post_move(*players["black"], game.pk, "done")
    game = play_line(players, game.pk, ["K@c1", "k@a6"])
    # Black has nothing left to deploy, so White places the queen and the rook in turn.
    for deploy in ("Q@d1", "R@e1"):
        post_move(*players["white"], game.pk, deploy)
    game.refresh_from_db()
    assert game.position().phase == "fight"
    assert game.fen.startswith("k5/6/6/_.5/6/2KQR1 w")
    # The rook takes rank 5, the king steps to b6, the queen checks from d6: a6 and
    # c6 are on the queen's lines, a5, b5 and c5 on the rook's.
    game = play_line(players, game.pk, ["e1_e5", "a6_b6", "d1_d6"])
    assert (game.winner, game.result_reason) == ("white", "checkmate")
    page = words(players["black"][0].get(reverse("game", args=[game.pk])))
    assert "White wins by checkmate." in page
    assert "Dice 1, 3" in page  # the plinth rolls are in the move list


# -- board clicks --------------------------------------------------------------------------


def test_a_click_on_a_piece_highlights_its_moves(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["white"]
    response = click(client, user, game.pk, "d2", htmx=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="from" value="d2"' in html
    assert 'aria-label="d2, white Aymon, selected"' in html
    # an Aymon teleports to any empty square: e4 is a possible move, d1 (own Carolo) not
    assert 'value="e4" class="sq-target sq-target-empty"' in html
    assert 'aria-label="e4, empty, possible move"' in html
    assert 'aria-label="d1, white Carolo"' in html
    # the board's form is boosted: its address must not become the page's
    assert response["HX-Push-Url"] == "false"


def test_the_click_address_opened_as_a_page_leads_to_the_game(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, _user = players["white"]
    response = client.get(reverse("game_click", args=[game.pk]))
    assert response.status_code == 302 and response["Location"] == f"/game/{game.pk}/"


def test_clicks_name_a_move_then_ask_for_confirmation(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["white"]
    response = click(client, user, game.pk, "f6", start="d2", htmx=True)
    html = words(response)
    assert "Play d2-f6 ?" in html
    game.refresh_from_db()
    assert game.ply == 0
    response = post_move(client, user, game.pk, "d2-f6", htmx=True)
    assert response.status_code == 200
    game.refresh_from_db()
    assert Move.objects.get(game=game).text == "d2-f6"
    assert "d2-f6" in words(response)


def test_clicks_play_at_once_without_confirmation(alice, bob):
    game = start_game("carolo", alice, bob)
    client = client_for(alice, confirm_moves=False)
    response = click(client, alice, game.pk, "d2")
    assert response.status_code == 302
    assert response.url.endswith("?sel=d2")  # without JavaScript, the selection is in the URL
    assert 'aria-label="d2, white Aymon, selected"' in client.get(response.url).content.decode()
    response = click(client, alice, game.pk, "f6", start="d2")
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.ply, game.black_to_act) == (1, True)


def test_a_click_on_an_empty_square_places_a_carge_pawn(alice, bob):
    game = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n"})
    client = client_for(alice, confirm_moves=False)
    click(client, alice, game.pk, "c3", htmx=True)
    assert Move.objects.get(game=game).text == "@c3"


def test_several_moves_between_two_squares_offer_a_choice(alice, bob, fixed_dice):
    # Mini-Shuuro with a white pawn on e5 ready to promote on e6.
    fixed_dice.extend([2, 2, 0, 0])
    game = start_game("shuuro-mini", alice, bob)
    white = client_for(alice, confirm_moves=False)
    black = client_for(bob, confirm_moves=False)
    players = {"white": (white, alice), "black": (black, bob)}
    for buy in ("+P", "done"):
        post_move(white, alice, game.pk, buy)
    post_move(black, bob, game.pk, "done")
    game = play_line(players, game.pk, ["K@c1", "k@a6", "P@e2"])
    game = play_line(players, game.pk, ["e2_e4", "a6_a5", "e4_e5", "a5_a6"])
    response = click(white, alice, game.pk, "e6", start="e5", htmx=True)
    html = words(response)
    assert "Which move?" in html
    for letter in "QRBN":
        assert f'value="e5_e6={letter}"' in response.content.decode()
    assert "e5_e6=N (promote to a knight)" in html
    game.refresh_from_db()
    # 3 recruitment moves, 3 rolls, 3 placements, the fight roll and 4 moves
    assert game.ply == 14
    white.post(reverse("game_move", args=[game.pk]), {"text": "e5_e6=N", "ply": 14})
    assert Move.objects.filter(game=game).last().text == "e5_e6=N"


# -- bad input ----------------------------------------------------------------------------


def test_it_rejects_a_move_out_of_turn(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["black"]
    response = post_move(client, user, game.pk, "b8-d6")
    assert response.status_code == 302
    assert "It is not your turn." in words(client.get(response.url))
    assert not Move.objects.filter(game=game).exists()


def test_it_rejects_an_illegal_move(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["white"]
    response = post_move(client, user, game.pk, "e1-e3", htmx=True)
    assert response.status_code == 200
    assert "e1-e3: the Ego steps one square orthogonally" in words(response)
    game.refresh_from_db()
    assert (game.ply, game.version) == (0, 1)


def test_a_french_player_is_told_why_a_typed_move_is_illegal_in_french(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["white"]
    client.cookies["django_language"] = "fr"
    page = words(post_move(client, user, game.pk, "e1-e3", htmx=True))
    assert "e1-e3 : l’Ego avance d’une seule case vers le haut, le bas, la gauche ou la droite" in (
        page
    )
    # a translated part inside a translated sentence: the piece's name
    page = words(post_move(client, user, game.pk, "e1xd1", htmx=True))
    assert "e1xd1 : la case d1 est occupée par votre propre Carolo" in page
    assert "holds your own" not in page


def test_it_rejects_stale_ply(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["white"]
    post_move(client, user, game.pk, "d2-f6")
    # bob saw the game at ply 0 and sends his move late, with that ply
    client, user = players["black"]
    response = post_move(client, user, game.pk, "b8-d6", ply=0, htmx=True)
    assert "The game has changed since you saw it" in words(response)
    assert Move.objects.filter(game=game).count() == 1


def test_a_double_submission_plays_once(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["white"]
    post_move(client, user, game.pk, "d2-f6", ply=0)
    post_move(client, user, game.pk, "d2-f6", ply=0)
    assert Move.objects.filter(game=game).count() == 1


def test_it_forbids_moves_in_someone_elses_game(alice, bob, charlie):
    game = start_game("carolo", alice, bob)
    client = client_for(charlie)
    response = post_move(client, charlie, game.pk, "d2-f6", ply=0)
    assert response.status_code == 403
    assert "You are not playing in this game." in response.content.decode()
    response = click(client, charlie, game.pk, "d2")
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.ply == 0


def test_a_missing_game_is_404(players):
    client, user = players["white"]
    assert client.get(reverse("game", args=[999])).status_code == 404
    response = client.post(reverse("game_move", args=[999]), {"text": "d2-f6", "ply": 0})
    assert response.status_code == 404
    assert client.get(reverse("game_poll", args=[999])).status_code == 404


def test_it_rejects_a_malformed_form(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["white"]
    url = reverse("game_move", args=[game.pk])
    response = client.post(url, {"text": "d2-f6", "ply": "soon"}, HTTP_HX_REQUEST="true")
    assert "Enter a whole number." in words(response)
    response = client.post(url, {"ply": 0}, HTTP_HX_REQUEST="true")
    assert "Type a move, such as e2_e4." in words(response)
    response = click(client, user, game.pk, "z99", htmx=True)
    assert "That is not a square." in words(response)
    game.refresh_from_db()
    assert (game.ply, game.version) == (0, 1)


def test_a_click_on_nothing_of_yours_says_so(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["white"]
    response = click(client, user, game.pk, "e8", htmx=True)
    assert "e8: you have no move there." in words(response)


def test_a_move_needs_a_login(client, alice, bob):
    game = start_game("carolo", alice, bob)
    response = client.post(reverse("game_move", args=[game.pk]), {"text": "d2-f6", "ply": 0})
    assert response.status_code == 302
    assert "/login" in response.url
    assert not Move.objects.filter(game=game).exists()


def test_without_javascript_a_typed_move_is_confirmed_on_the_page(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["white"]
    response = post_move(client, user, game.pk, "d2-f6", confirmed=False)
    assert response.status_code == 302
    assert response.url.endswith("?confirm=d2-f6")
    page = client.get(response.url)
    assert "Play d2-f6 ? Confirm Cancel" in words(page)
    assert 'name="confirmed" value="1"' in page.content.decode()
    assert not Move.objects.filter(game=game).exists()
    post_move(client, user, game.pk, "d2-f6")
    assert Move.objects.get(game=game).text == "d2-f6"


@pytest.mark.parametrize("text", ["h8-h6", "a1-a8", "z9-z10", "<b>d2-f6</b>"])
def test_a_link_offers_no_move_for_confirmation_that_cannot_be_played(players, alice, bob, text):
    # h8-h6 is Black's (White is to move), a1-a8 illegal, z9-z10 no move at all.
    game = start_game("carolo", alice, bob)
    client, _ = players["white"]
    page = words(client.get(reverse("game", args=[game.pk]), {"confirm": text}))
    assert "? Confirm Cancel" not in page
    page = words(players["black"][0].get(reverse("game", args=[game.pk]), {"confirm": "h8-h6"}))
    assert "? Confirm Cancel" not in page  # not Black's turn
    page = words(client.get(reverse("game", args=[game.pk]), {"confirm": "d2-f6"}))
    assert "Play d2-f6 ? Confirm Cancel" in page  # a move White may play is offered


@pytest.mark.parametrize(
    ("text", "reason"),
    [("a1-a8", "the Aymon never takes anything"), ("z9-z10", "not a Carolo move")],
)
def test_a_typed_move_that_cannot_be_played_is_refused_before_any_confirmation(
    players, alice, bob, text, reason
):
    game = start_game("carolo", alice, bob)
    client, user = players["white"]
    page = words(post_move(client, user, game.pk, text, confirmed=False, htmx=True))
    assert reason in page and "Confirm" not in page
    assert not Move.objects.filter(game=game).exists()


def test_a_click_out_of_turn_is_refused(players, alice, bob):
    game = start_game("carolo", alice, bob)
    client, user = players["black"]
    response = click(client, user, game.pk, "d7", htmx=True)
    assert "It is not your turn." in words(response)
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("text", "meaning"),
    [
        ("e4-e3:swap", "swap places with the piece on e3"),
        ("e4-e3xe3:kamikaze", "take e3; your piece is removed too"),
        ("d4-d6xd3,d7", "take d3, d7"),
        ("d4-d6", "no capture"),
    ],
)
def test_a_rococo_move_among_several_says_what_it_does(text, meaning):
    # in English whatever language an earlier request of this process left active
    with translation.override("en"):
        assert choice_words("rococo", text) == meaning


def board_cells(response) -> dict[str, tuple[str, str]]:
    """Each board square's (classes, accessible label), from the board partial."""
    import re

    cells = re.findall(
        r'<(?:div role="img"|button[^>]*?)(?: class="([^"]*)")? aria-label="([a-l]\d+)([^"]*)"',
        response.content.decode(),
    )
    return {square: (classes, label) for classes, square, label in cells}


@pytest.mark.parametrize("htmx", [False, True])
def test_the_move_waiting_for_confirmation_is_highlighted_on_the_board(alice, bob, htmx):
    game = start_game("carolo", alice, bob)
    client = client_for(alice, confirm_moves=True)
    click(client, alice, game.pk, "d2", htmx=htmx)
    response = click(client, alice, game.pk, "f6", start="d2", htmx=htmx)
    if not htmx:
        response = client.get(response.url)
    assert "Play d2-f6 ? Confirm Cancel" in words(response)
    cells = board_cells(response)
    assert len(cells) == 64
    pending = {s for s, (classes, _label) in cells.items() if "sq-pending" in classes.split()}
    assert pending == {"d2", "f6"}
    assert cells["d2"][1] == ", white Aymon, move to confirm"
    assert cells["f6"][1] == ", empty, move to confirm"
