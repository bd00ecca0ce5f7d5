"""What one replay step (?ply=N) of a finished game costs: the stored position of
ply N, read in one query and parsed once, whatever N and the game's length."""

import pytest
from django.urls import reverse

from games import services
from games.rules.carolo import CaroloPosition
from tests.games.game_utils import aymon_walk, start_game

PLIES = 60


@pytest.fixture
def finished(alice, bob):
    """A Carolo game of 60 plies, Aymons touring empty squares, then White resigns."""
    game = start_game("carolo", alice, bob)
    aymon_walk(game, alice, bob, 0, PLIES)
    return services.resign(alice, game.pk)


@pytest.fixture
def engine_calls(monkeypatch):
    """The FENs the Carolo engine parses and the moves it plays."""
    calls = {"from_fen": [], "play": []}
    parse, play = CaroloPosition.from_fen, CaroloPosition.play

    def counted_parse(cls, fen):
        calls["from_fen"].append(fen)
        return parse(fen)

    def counted_play(self, move):
        calls["play"].append(move)
        return play(self, move)

    monkeypatch.setattr(CaroloPosition, "from_fen", classmethod(counted_parse))
    monkeypatch.setattr(CaroloPosition, "play", counted_play)
    return calls


# session, user, the game with its players, the move texts, the FEN of ply N and the
# players' ratings (the fragment has no header, so no count of games awaiting the user)
QUERIES = 6


@pytest.mark.parametrize("ply", [1, PLIES // 2, PLIES - 1])
def test_a_step_parses_the_stored_position_once_and_replays_nothing(
    client, alice, finished, engine_calls, django_assert_num_queries, ply
):
    client.force_login(alice)
    fen = finished.moves.get(ply=ply).fen_after
    with django_assert_num_queries(QUERIES):
        response = client.get(
            reverse("game", args=[finished.pk]), {"ply": ply}, HTTP_HX_REQUEST="true"
        )
    assert response.status_code == 200
    assert f'id="game-fen" readonly value="{fen}"' in response.content.decode()
    assert engine_calls == {"from_fen": [fen], "play": []}


def test_the_start_position_is_the_game_row_s(client, alice, finished, engine_calls):
    client.force_login(alice)
    response = client.get(reverse("game", args=[finished.pk]), {"ply": 0}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert engine_calls == {"from_fen": [finished.start_fen], "play": []}


def test_a_step_prints_each_listed_move_without_working_it_out(
    client, alice, finished, monkeypatch
):
    """The move list is redrawn on every step: its lines come ready to print
    (games.render.move_list), with no translation and four conditions each."""
    from django.template import defaulttags
    from django.templatetags import i18n

    rendered = {"conditions": 0, "translations": 0}
    for kind, node in (("conditions", defaulttags.IfNode), ("translations", i18n.TranslateNode)):
        monkeypatch.setattr(node, "render", _counted(node.render, rendered, kind))
    client.force_login(alice)
    response = client.get(
        reverse("game", args=[finished.pk]), {"ply": PLIES // 2}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    # which list to print (two), then per line: its class, the current line's
    # aria-current, the words of a row of its own, a secret move's note (the columns'
    # header, once per list, is a template of its own)
    assert rendered == {"conditions": 2 + 4 * PLIES, "translations": 0}


def _counted(render, tally, kind):
    def counted(self, context):
        if self.origin.template_name == "games/_move_list.html":
            tally[kind] += 1
        return render(self, context)

    return counted
