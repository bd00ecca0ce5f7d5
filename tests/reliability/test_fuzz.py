"""Hostile input to the move, challenge and API endpoints: always a clear 4xx, never a
500, never a change of state.  Hypothesis draws the input; counts are in max_examples.
"""

import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts import tokens
from games import services
from games.models import Challenge, Game, Move

HOSTILE_TEXT = st.one_of(
    st.text(max_size=80),
    st.text(min_size=5000, max_size=10000),
    st.sampled_from(
        [
            "'; DROP TABLE games_game; --",
            "1 OR 1=1",
            "<script>alert(1)</script>",
            "<img src=x onerror=alert(1)>",
            "e2_e4\x00",
            "ｄ１－ｄ７",
            "d1-d7" * 20,
            "../../etc/passwd",
            "%s%s%s",
            "{{ 7*7 }}",
        ]
    ),
)
HOSTILE_INT = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from([-1, 2**31, 2**63])
)
JSON = st.recursive(
    st.none() | st.booleans() | HOSTILE_INT | st.floats(allow_nan=False) | HOSTILE_TEXT,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)
MOVE_BODY = st.one_of(
    JSON,
    st.fixed_dictionaries({"move": JSON, "ply": JSON}),
    st.fixed_dictionaries({"move": HOSTILE_TEXT, "ply": HOSTILE_INT}),
)
FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def alice_token(alice):
    return tokens.create_token(alice, "fuzz")[1]


@pytest.fixture
def game(alice, bob):
    challenge = services.create_challenge(alice, variant="carolo", color="white", opponent=bob)
    return services.accept_challenge(bob, challenge.pk)


def state(game):
    fresh = Game.objects.get(pk=game.pk)
    return fresh.version, fresh.ply, fresh.fen, Move.objects.filter(game=game).count()


def legal_texts(game):
    position = game.position()
    return {position.move_text(m) for m in position.legal_moves()}


@FUZZ
@given(body=MOVE_BODY, raw=st.booleans())
def test_api_move_endpoint_refuses_hostile_bodies(game, alice_token, body, raw):
    if isinstance(body, dict) and isinstance(body.get("move"), str):
        if body["move"] in legal_texts(game):
            return  # a real move is allowed to change the game
    before = state(game)
    data = json.dumps(body) if not raw else (json.dumps(body)[:-1] or "{")
    response = Client().post(
        f"/api/games/{game.pk}/moves",
        data=data,
        content_type="application/json",
        headers={"Authorization": f"Bearer {alice_token}"},
    )
    assert 400 <= response.status_code < 500, response.content[:300]
    assert response.json()["error"]
    assert state(game) == before


@FUZZ
@given(body=JSON)
def test_api_challenge_endpoint_refuses_hostile_bodies(alice_token, body):
    before = Challenge.objects.count()
    response = Client().post(
        "/api/challenges",
        data=json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {alice_token}"},
    )
    assert 400 <= response.status_code < 500, response.content[:300]
    assert response.json()["error"]
    assert Challenge.objects.count() == before


@FUZZ
@given(text=HOSTILE_TEXT, ply=st.one_of(HOSTILE_INT.map(str), HOSTILE_TEXT))
def test_html_move_form_refuses_hostile_input(game, bob, text, ply):
    client = Client()
    client.force_login(bob)  # not bob's turn: nothing he sends may change the game
    before = state(game)
    response = client.post(f"/game/{game.pk}/move", {"text": text, "ply": ply})
    assert response.status_code < 500
    assert state(game) == before
    assert b"<script>alert(1)" not in response.content
    assert b"<img src=x onerror" not in response.content


@FUZZ
@given(
    fields=st.dictionaries(
        st.sampled_from(
            ["game", "days_per_move", "rated", "color", "opponent", "barriers", "budget", "fen"]
        ),
        HOSTILE_TEXT,
        max_size=6,
    )
)
def test_html_challenge_form_refuses_hostile_input(alice, fields):
    client = Client()
    client.force_login(alice)
    before = Challenge.objects.count()
    response = client.post("/challenge/new/", fields)
    assert response.status_code < 500
    assert Challenge.objects.count() == before


def test_hostile_move_text_is_escaped_in_the_page(game, alice):
    client = Client()
    client.force_login(alice)
    response = client.post(
        f"/game/{game.pk}/move", {"text": "<script>alert(1)</script>", "ply": 0}, follow=True
    )
    assert b"<script>alert(1)</script>" not in response.content
