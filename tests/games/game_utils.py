"""Helpers for the game page tests: a game from an accepted challenge, moves by the web."""

from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game


def start_game(variant, white, black, options=None, days_per_move=3):
    challenge = services.create_challenge(
        white,
        variant=variant,
        options=options or {},
        days_per_move=days_per_move,
        rated=False,
        color="white",
        opponent=black,
    )
    return services.accept_challenge(black, challenge.pk)


def client_for(user, *, confirm_moves=None):
    if confirm_moves is not None:
        user.confirm_moves = confirm_moves
        user.save(update_fields=["confirm_moves"])
    client = Client()
    client.force_login(user)
    return client


def seen_ply(game_id, user):
    game = Game.objects.get(pk=game_id)
    return game.visible_ply(game.side_of(user))


def post_move(client, user, game_id, text, *, htmx=False, confirmed=True, ply=None):
    """Type ``text`` in the move box (and confirm it)."""
    data = {"text": text, "ply": seen_ply(game_id, user) if ply is None else ply}
    if confirmed:
        data["confirmed"] = "1"
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("game_move", args=[game_id]), data, **headers)


def play_line(clients, game_id, texts, *, htmx=False):
    """Play ``texts`` alternately: clients is a dict side -> (client, user); White first."""
    for text in texts:
        game = Game.objects.get(pk=game_id)
        (side,) = game.to_act()
        client, user = clients[side]
        response = post_move(client, user, game_id, text, htmx=htmx)
        assert response.status_code in (200, 302), (text, response.status_code)
        game.refresh_from_db()
        assert game.ply > 0
    return Game.objects.get(pk=game_id)


def click(client, user, game_id, square, start=None, *, htmx=False):
    data = {"square": square, "ply": seen_ply(game_id, user)}
    if start:
        data["from"] = start
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("game_click", args=[game_id]), data, **headers)


def words(response):
    """The page's text without tags, whitespace collapsed: what a reader sees."""
    import html
    import re

    content = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(content)).strip()


def aymon_walk(game, alice, bob, start, stop):
    """Plies ``start`` to ``stop`` of a Carolo game from its start position: Aymons
    teleporting round empty squares without repeating a position thrice.

    White's a1 Aymon tours the 16 squares of ranks 3-4, Black's a8 Aymon 15 squares
    of ranks 5-6: the pair of squares repeats only after 240 plies.
    """
    tours = {
        "white": [f"{f}{r}" for r in "34" for f in "abcdefgh"],
        "black": [f"{f}{r}" for r in "65" for f in "abcdefgh"][:15],
    }
    at = {"white": "a1", "black": "a8"}
    for ply in range(stop):
        side = "white" if ply % 2 == 0 else "black"
        to = tours[side][(ply // 2) % len(tours[side])]
        if ply >= start:
            user = alice if side == "white" else bob
            services.play_move(user, game.pk, f"{at[side]}-{to}", ply)
        at[side] = to


def game_page(client, game, headers=None, **params):
    """The game's page (``params`` its query, ``headers`` as the test client takes them)."""
    return client.get(reverse("game", args=[game.pk]), params, **(headers or {}))


def post_text(client, url, text, **data_and_headers):
    """POST ``text`` and other form fields to ``url``; keywords named HTTP_* are headers."""
    headers = {k: v for k, v in data_and_headers.items() if k.startswith("HTTP_")}
    data = {"text": text, **{k: v for k, v in data_and_headers.items() if k not in headers}}
    return client.post(url, data, **headers)
