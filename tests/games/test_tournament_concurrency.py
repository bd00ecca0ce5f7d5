"""Two players take the last place of a tournament at once (PostgreSQL): one gets it,
the other is refused, and the tournament starts once.  Each join locks the
tournament's row before it counts the entrants; the pause holds the first join
between its count and its insert, where without the lock the second would count
the same free place and both would start the tournament (twice the games)."""

import time

from games import services, tournaments
from games.models import Entry, Game, Tournament
from tests.conftest import make_player
from tests.helpers import at_once


def test_two_joins_for_the_last_place_start_it_once(postgres, monkeypatch):
    alice, bob, charlie, dave = (make_player(n) for n in ("alice", "bob", "charlie", "dave"))
    tournament = tournaments.create_tournament(alice, name="Cup", variant="carolo", max_players=3)
    tournaments.join(bob, tournament.pk)
    entrants = tournaments.entrants_of
    monkeypatch.setattr(tournaments, "entrants_of", lambda t: time.sleep(0.3) or entrants(t))
    results = at_once(
        lambda: tournaments.join(charlie, tournament.pk),
        lambda: tournaments.join(dave, tournament.pk),
    )
    won = [r for r in results if isinstance(r, Tournament)]
    lost = [r for r in results if isinstance(r, services.Conflict)]
    assert (len(won), len(lost)) == (1, 1), results
    assert "has started" in lost[0].message
    assert Entry.objects.filter(tournament=tournament).count() == 3
    assert Tournament.objects.get(pk=tournament.pk).status == "running"
    games = Game.objects.filter(tournament=tournament)
    assert games.count() == 6
    pairs = set(games.values_list("white_id", "black_id"))
    assert len(pairs) == 6
