"""Filtering a profile's finished games, and the head-to-head line (games/profiles.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.profiles import GameFilter, HeadToHead, finished_context
from tests.ratings.helpers import FEN, active_game, finished_game

START = timezone.now() - timedelta(days=30)


def aborted_game(white, black, *, variant="carge", when):
    return Game.objects.create(
        variant=variant,
        white=white,
        black=black,
        rated=False,
        start_fen=FEN,
        fen=FEN,
        created_at=when - timedelta(days=1),
        status=Game.Status.ABORTED,
        result_reason="abort",
        ended_at=when,
    )


@pytest.fixture
def games(alice, bob, charlie):
    """Alice's ended games, g1 the oldest; from her side:

    g1 won against bob, Le Carge, rated        g5 lost to charlie, Mini-Shuuro, casual
    g2 lost to bob, Le Carge, rated            g6 won against bob, Mini-Shuuro, rated
    g3 drawn with bob, Rococo, casual          g7 aborted with bob, Le Carge, casual
    g4 won against charlie, Rococo, rated
    and "bc", bob's win over charlie, is not hers; nor is her active game listed.
    """
    day = timedelta(days=1)
    made = {
        "g1": finished_game(alice, bob, "white", when=START + day),
        "g2": finished_game(bob, alice, "white", when=START + 2 * day),
        "g3": finished_game(alice, bob, "", variant="rococo", rated=False, when=START + 3 * day),
        "g4": finished_game(charlie, alice, "black", variant="rococo", when=START + 4 * day),
        "g5": finished_game(
            alice, charlie, "black", variant="shuuro-mini", rated=False, when=START + 5 * day
        ),
        "g6": finished_game(bob, alice, "black", variant="shuuro-mini", when=START + 6 * day),
        "g7": aborted_game(alice, bob, when=START + 7 * day),
    }
    made["bc"] = finished_game(bob, charlie, "white", when=START + 8 * day)
    active_game(alice, bob)
    return made


def listed(player, games, **filters):
    page = finished_context(player, GameFilter(**filters))["finished_page"]
    names = {game.pk: name for name, game in games.items()}
    return [names[game.pk] for game in page.object_list]


def test_without_filters_it_lists_every_ended_game_aborted_too(alice, games):
    assert listed(alice, games) == ["g7", "g6", "g5", "g4", "g3", "g2", "g1"]


@pytest.mark.parametrize(
    ("result", "expected"),
    [("won", ["g6", "g4", "g1"]), ("draw", ["g3"]), ("lost", ["g5", "g2"])],
)
def test_it_filters_by_result_from_the_players_side_an_abort_being_none(
    alice, games, result, expected
):
    assert listed(alice, games, result=result) == expected


def test_the_result_is_the_profile_owners(bob, games):
    assert listed(bob, games, result="won") == ["bc", "g2"]
    assert listed(bob, games, result="lost") == ["g6", "g1"]


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("carge", ["g7", "g2", "g1"]),
        ("rococo", ["g4", "g3"]),
        ("shuuro-mini", ["g6", "g5"]),
        ("shuuro", []),  # Mini-Shuuro is a game of its own
        ("carolo", []),
    ],
)
def test_it_filters_by_game(alice, games, variant, expected):
    assert listed(alice, games, variant=variant) == expected


def test_it_filters_rated_and_casual_games(alice, games):
    assert listed(alice, games, rated=True) == ["g6", "g4", "g2", "g1"]
    assert listed(alice, games, rated=False) == ["g7", "g5", "g3"]


def test_it_filters_by_opponent_in_any_case(alice, games):
    assert listed(alice, games, opponent="bob") == ["g7", "g6", "g3", "g2", "g1"]
    assert listed(alice, games, opponent="BoB") == ["g7", "g6", "g3", "g2", "g1"]
    assert listed(alice, games, opponent="charlie") == ["g5", "g4"]


def test_filters_combine(alice, games):
    assert listed(alice, games, opponent="bob", rated=True, result="won") == ["g6", "g1"]
    assert listed(alice, games, variant="carge", result="lost") == ["g2"]
    assert listed(alice, games, variant="rococo", rated=True, result="draw") == []


def test_head_to_head_counts_finished_games_from_the_owners_side(alice, bob, games):
    against_bob = finished_context(alice, GameFilter(opponent="bob"))["head_to_head"]
    assert against_bob == HeadToHead("alice", "bob", wins=2, draws=1, losses=1)  # g7 no result
    against_alice = finished_context(bob, GameFilter(opponent="ALICE"))["head_to_head"]
    assert against_alice == HeadToHead("bob", "alice", wins=1, draws=1, losses=2)


def test_head_to_head_follows_the_other_filters_but_not_the_result(alice, games):
    def h2h(**filters):
        return finished_context(alice, GameFilter(opponent="bob", **filters))["head_to_head"]

    assert h2h(rated=True) == HeadToHead("alice", "bob", wins=2, draws=0, losses=1)
    assert h2h(rated=False) == HeadToHead("alice", "bob", wins=0, draws=1, losses=0)
    assert h2h(variant="carge") == HeadToHead("alice", "bob", wins=1, draws=0, losses=1)
    assert h2h(result="lost") == HeadToHead("alice", "bob", wins=2, draws=1, losses=1)


def test_no_head_to_head_without_an_opponent_or_against_oneself(alice, games):
    assert finished_context(alice, GameFilter(rated=True))["head_to_head"] is None
    own = finished_context(alice, GameFilter(opponent="alice"))
    assert own["head_to_head"] is None and list(own["finished_page"].object_list) == []


def test_an_unknown_opponent_gives_an_empty_list_and_says_so(alice, games):
    context = finished_context(alice, GameFilter(opponent="nobody"))
    assert context["unknown_opponent"] == "nobody"
    assert list(context["finished_page"].object_list) == []
    assert context["head_to_head"] is None


def test_the_head_to_head_sentence_has_plurals():
    assert (
        str(HeadToHead("alice", "bob", 5, 1, 3)) == "alice against bob: 5 wins, 1 draw, 3 losses."
    )
    assert str(HeadToHead("alice", "bob", 1, 0, 1)) == "alice against bob: 1 win, 0 draws, 1 loss."


def test_filters_keep_each_games_result_and_rating_change(alice, games):
    every = {g.pk: g for g in finished_context(alice)["finished_page"].object_list}
    page = finished_context(alice, GameFilter(opponent="bob", rated=True))["finished_page"]
    for game in page.object_list:
        same = every[game.pk]
        assert (game.result, game.rating_diff, game.opponent) == (
            same.result,
            same.rating_diff,
            same.opponent,
        )
    assert [g.result for g in page.object_list] == ["won", "lost", "won"]  # g6, g2, g1


@pytest.mark.parametrize("count", [3, 30])
def test_filtering_costs_a_fixed_number_of_queries(
    alice, bob, charlie, count, django_assert_num_queries
):
    for i in range(count):
        finished_game(alice, bob, ("white", "black", "")[i % 3], when=START + timedelta(hours=i))
        finished_game(charlie, alice, "white", variant="rococo", when=START + timedelta(hours=i))
    filters = GameFilter(variant="carge", result="won", rated=True, opponent="bob")
    # the opponent, the head-to-head, the page's count, the page
    with django_assert_num_queries(4):
        context = finished_context(alice, filters)
        assert context["head_to_head"].wins == len(range(0, count, 3))
        assert len(context["finished_page"].object_list) == len(range(0, count, 3))
