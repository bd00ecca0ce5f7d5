"""Every path that shows a game, as one viewer sees it: for the tests that a
private part of a game (notes, chat) reaches nobody it is not for."""

from django.test import Client

from accounts import tokens
from tests.helpers import without_tokens


def client_for(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def seen_by(user, game) -> dict[str, str]:
    """Every HTML and text path that shows ``game`` (or lists it), as ``user`` sees it."""
    client, htmx = client_for(user), {"HX-Request": "true"}
    responses = {
        "page": client.get(f"/game/{game.pk}/"),
        "replay": client.get(f"/game/{game.pk}/?ply=1"),
        "replay step": client.get(f"/game/{game.pk}/?ply=1", headers=htmx),
        "fragment": client.get(f"/game/{game.pk}/", headers=htmx),
        "poll": client.get(f"/game/{game.pk}/poll?v=0", headers=htmx),
        "record": client.get(f"/game/{game.pk}/record.txt"),
        "explore": client.get(f"/game/{game.pk}/explore"),
        "explore step": client.get(f"/game/{game.pk}/explore?from=1&square=a1", headers=htmx),
        "home": client.get("/"),
        "profile": client.get(f"/@/{game.white.username}"),
        "opponent's profile": client.get(f"/@/{game.black.username}"),
        "players": client.get("/players/"),
        "lobby": client.get("/lobby/"),
    }
    for name, response in responses.items():
        assert response.status_code in (200, 286), (name, response.status_code)
    return {name: without_tokens(r.content.decode()) for name, r in responses.items()}


def api_seen_by(user, game) -> dict[str, str]:
    auth = {"Authorization": f"Bearer {tokens.create_token(user)[1]}"}
    responses = {
        "api game": Client().get(f"/api/games/{game.pk}", headers=auth),
        "api games": Client().get("/api/games", headers=auth),
        "api account": Client().get("/api/account", headers=auth),
    }
    for name, response in responses.items():
        assert response.status_code == 200, (name, response.status_code)
    return {name: response.content.decode() for name, response in responses.items()}


def shows(body: str, text: str) -> bool:
    # as a page may write it: apostrophes escaped in HTML, or not
    return text in body or text.replace("'", "&#x27;") in body
