"""What a player's profile shows: ratings, their history, results and games.

Each piece is one query (players joined with ``select_related``, counts
aggregated in the database), so a profile costs the same number of queries
whatever the number of games. Filtering the finished games adds at most two: the
opponent's row and the head-to-head counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games import rules, tournaments
from games.models import Game, Rating, RatingChange, Variant
from games.queries import game_url, mark_result

FINISHED_PER_PAGE = 20
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 600, 160, 8


@dataclass
class Chart:
    """A rating-history line, drawn server-side as SVG."""

    title: str
    points: str  # "x,y x,y ..." for <polyline>: the start, then one point per game
    # "Mx,yh0 ..." for a <path> whose round caps mark each game's point (not the
    # start): caps keep round where the chart is stretched, circles would not
    dots: str
    low: int
    high: int
    first: datetime
    last: datetime
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT


@dataclass
class GameStats:
    variant: str
    name: str
    rating: Rating | None = None
    wins: int = 0
    draws: int = 0
    losses: int = 0
    start: float | None = None  # the rating before the first rated game
    history: list[tuple[datetime, float]] = field(default_factory=list)  # after each
    chart: Chart | None = None

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class GameFilter:
    """Which of a player's ended games to list; an empty field matches every game."""

    variant: str = ""
    result: str = ""  # "won", "draw" or "lost", from the player's side
    rated: bool | None = None
    opponent: str = ""  # a username, in any case


@dataclass
class HeadToHead:
    """A player's finished games against one opponent, from the player's side."""

    player: str
    opponent: str
    wins: int
    draws: int
    losses: int

    def __str__(self) -> str:
        return _("%(player)s against %(opponent)s: %(wins)s, %(draws)s, %(losses)s.") % {
            "player": self.player,
            "opponent": self.opponent,
            "wins": ngettext("%(count)s win", "%(count)s wins", self.wins) % {"count": self.wins},
            "draws": ngettext("%(count)s draw", "%(count)s draws", self.draws)
            % {"count": self.draws},
            "losses": ngettext("%(count)s loss", "%(count)s losses", self.losses)
            % {"count": self.losses},
        }


def _of(player) -> Q:
    return Q(white=player) | Q(black=player)


def _between(player, opponent) -> Q:
    return Q(white=player, black=opponent) | Q(white=opponent, black=player)


def _won(player) -> Q:
    return Q(white=player, winner=rules.WHITE) | Q(black=player, winner=rules.BLACK)


def _lost(player) -> Q:
    return Q(white=player, winner=rules.BLACK) | Q(black=player, winner=rules.WHITE)


# Aborted games have no winner either, but are no draw: only finished ones are.
_DRAWN = Q(status=Game.Status.FINISHED, winner="")


def rating_chart(name: str, start: float, history: list[tuple[datetime, float]]) -> Chart | None:
    """A polyline of ``(when, rating after)`` points, time across, rating up, from
    ``start`` (the rating before the first game); None if no game.

    The start sits at the first game's time, so one game draws a line from its
    start to its result, not a lone dot.
    """
    if not history:
        return None
    history = [(history[0][0], start), *history]
    times = [when.timestamp() for when, _rating in history]
    values = [rating for _when, rating in history]
    low, high = min(values), max(values)
    span_t, span_r = times[-1] - times[0], high - low
    inner_w, inner_h = CHART_WIDTH - 2 * CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD
    points = []
    for i, (t, r) in enumerate(zip(times, values, strict=True)):
        if span_t > 0:
            x = CHART_PAD + inner_w * (t - times[0]) / span_t
        else:  # all on one instant (one game, say): spread evenly, in order
            x = CHART_PAD + inner_w * i / (len(times) - 1)
        y = CHART_PAD + inner_h * ((high - r) / span_r if span_r > 0 else 0.5)
        points.append(f"{x:.1f},{y:.1f}")
    title = _(
        "%(game)s rating history: from %(first)s to %(last)s, between %(low)s and %(high)s"
    ) % {
        "game": name,
        "first": round(values[0]),
        "last": round(values[-1]),
        "low": round(low),
        "high": round(high),
    }
    dots = " ".join(f"M{point}h0" for point in points[1:])
    return Chart(
        title, " ".join(points), dots, round(low), round(high), history[0][0], history[-1][0]
    )


def game_stats(player) -> list[GameStats]:
    """Per game: rating, wins/draws/losses of all finished games, rating chart.

    Three queries. Only the games the player has a rating or a result in.
    """
    stats = {key: GameStats(key, str(name)) for key, name in Variant.choices}
    for rating in Rating.objects.filter(user=player):
        stats[rating.variant].rating = rating
    results = (
        Game.objects.filter(_of(player), status=Game.Status.FINISHED)
        .values("variant")
        .annotate(
            wins=Count("pk", filter=_won(player)),
            draws=Count("pk", filter=Q(winner="")),
            losses=Count("pk", filter=_lost(player)),
        )
        .order_by()
    )
    for row in results:
        entry = stats[row["variant"]]
        entry.wins, entry.draws, entry.losses = row["wins"], row["draws"], row["losses"]
    changes = (
        RatingChange.objects.filter(user=player)
        .order_by("created_at", "pk")
        .values_list("variant", "created_at", "before", "after")
    )
    for variant, when, before, after in changes:
        entry = stats[variant]
        if not entry.history:
            entry.start = before
        entry.history.append((when, after))
    shown = [s for s in stats.values() if s.rating is not None or s.played]
    for entry in shown:
        entry.chart = rating_chart(entry.name, entry.start, entry.history)
    return shown


def _as_seen_by(games, player) -> list[Game]:
    games = list(games)
    for game in games:
        game.viewer_side = rules.WHITE if game.white_id == player.pk else rules.BLACK
        game.opponent = game.black if game.viewer_side == rules.WHITE else game.white
        game.url = game_url(game.pk)
    return games


# The order of games in progress, on the profile and the games page: the latest move
# first (a secret move leaves ``last_move_at`` as it was), those without one last.
MOVED_FIRST = (F("last_move_at").desc(nulls_last=True), "-pk")


def current_games(player) -> list[Game]:
    """The player's games in progress, the latest move first. One query."""
    games = (
        Game.objects.filter(_of(player), status=Game.Status.ACTIVE)
        .select_related("white", "black")
        .order_by(*MOVED_FIRST)
    )
    games = _as_seen_by(games, player)
    for game in games:
        game.to_move = game.viewer_side in game.to_act()
    return games


# The order of ended games, on the profile, in its export and on the games page: the
# latest first.
LATEST_FIRST = (F("ended_at").desc(nulls_last=True), "-pk")


def named_player(name: str) -> User | None:
    """The player a filter names, in any case (a closed account too: its games are listed)."""
    return User.objects.filter(username__iexact=name).first()


def ended_games(player, filters: GameFilter, opponent) -> QuerySet:
    """The player's ended games (finished or aborted) that ``filters`` select."""
    games = Game.objects.filter(_of(player)).exclude(status=Game.Status.ACTIVE)
    if opponent is not None:
        games = games.filter(_between(player, opponent))
    if filters.variant:
        games = games.filter(variant=filters.variant)
    if filters.rated is not None:
        games = games.filter(rated=filters.rated)
    results = {"won": _won(player), "draw": _DRAWN, "lost": _lost(player)}
    if filters.result:
        games = games.filter(results[filters.result])
    return games


def finished_games(player, page_number, filters=GameFilter(), opponent=None) -> Page:
    """One page of the player's ended games, the latest first, with ``result`` and
    ``rating_diff`` (None when unrated). Two queries: the count and the page.

    ``opponent`` is the user ``filters.opponent`` names, found by the caller."""
    mine = RatingChange.objects.filter(game=OuterRef("pk"), user=player)
    games = (
        ended_games(player, filters, opponent)
        .select_related("white", "black")
        .annotate(
            rating_before=Subquery(mine.values("before")[:1]),
            rating_after=Subquery(mine.values("after")[:1]),
        )
        .order_by(*LATEST_FIRST)
    )
    page = Paginator(games, FINISHED_PER_PAGE).get_page(page_number)
    page.object_list = _as_seen_by(page.object_list, player)
    for game in page.object_list:
        mark_result(game)
        game.rating_diff = (
            round(game.rating_after) - round(game.rating_before)
            if game.rating_after is not None
            else None
        )
    return page


def head_to_head(player, opponent, filters=GameFilter()) -> HeadToHead:
    """The player's wins, draws and losses against ``opponent`` in the finished games
    of the other filters (whatever result is asked for). One query."""
    counts = (
        ended_games(player, replace(filters, result=""), opponent)
        .filter(status=Game.Status.FINISHED)
        .aggregate(
            wins=Count("pk", filter=_won(player)),
            draws=Count("pk", filter=Q(winner="")),
            losses=Count("pk", filter=_lost(player)),
        )
    )
    return HeadToHead(player.username, opponent.username, **counts)


def finished_context(player, filters=GameFilter(), page_number=None) -> dict:
    """The profile's finished games part: the page, the opponent named in ``filters``
    (``unknown_opponent`` if no one has that name) and the head-to-head against them.

    Two queries, two more with an opponent."""
    context = {"filtered": filters != GameFilter(), "head_to_head": None}
    opponent = None
    if filters.opponent:
        opponent = named_player(filters.opponent)
        if opponent is None:
            context["unknown_opponent"] = filters.opponent
            context["finished_page"] = Paginator([], FINISHED_PER_PAGE).get_page(1)
            return context
        if opponent.pk != player.pk:
            context["head_to_head"] = head_to_head(player, opponent, filters)
    context["finished_page"] = finished_games(player, page_number, filters, opponent)
    return context


def profile_context(player, filters=GameFilter(), page_number=None) -> dict:
    """Everything the profile template shows beyond the user row itself."""
    return {
        "game_stats": game_stats(player),
        "current_games": current_games(player),
        "tournaments": tournaments.of_player(player),
        **finished_context(player, filters, page_number),
    }
