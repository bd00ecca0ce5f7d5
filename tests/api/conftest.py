"""An API client that checks every JSON answer against the published OpenAPI schema."""

import json
import re

import jsonschema
import pytest
from django.core.cache import cache
from django.test import Client

from accounts import tokens

_schema = {}


def published_schema():
    if not _schema:
        response = Client().get("/api/schema")
        assert response.status_code == 200
        _schema.update(response.json())
    return _schema


def operation(method: str, path: str) -> dict:
    """The schema's operation for a concrete path such as /api/games/12/moves."""
    schema = published_schema()
    path = path.split("?")[0]
    for template, operations in schema["paths"].items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path) and method.lower() in operations:
            return operations[method.lower()]
    raise AssertionError(f"{method} {path} is not in the schema")


def check_against_schema(method: str, path: str, status: int, body) -> None:
    responses = operation(method, path)["responses"]
    assert str(status) in responses, f"{method} {path} answered {status}, not in the schema"
    content = responses[str(status)]["content"]["application/json"]["schema"]
    whole = {**content, "components": published_schema().get("components", {})}
    jsonschema.validate(body, whole, cls=jsonschema.Draft202012Validator)


class Api:
    """Calls /api/... with a token (or a session), returns (status, body) checked."""

    def __init__(self, token=None, client=None):
        self.client = client or Client()
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def call(self, method, path, body=None, *, raw=None, headers=None):
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        kwargs = {"headers": {**self.headers, **(headers or {})}}
        if data is not None:
            kwargs.update(data=data, content_type="application/json")
        response = getattr(self.client, method.lower())(path, **kwargs)
        self.last = response  # for a test that reads the headers
        assert response["Content-Type"].startswith("application/json"), response.content[:300]
        payload = response.json()
        check_against_schema(method, path, response.status_code, payload)
        return response.status_code, payload

    def get(self, path, **kwargs):
        return self.call("GET", path, **kwargs)

    def post(self, path, body=None, **kwargs):
        return self.call("POST", path, body, **kwargs)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def api_of(user) -> Api:
    """An Api client with a fresh token of ``user``."""
    _row, raw = tokens.create_token(user, "tests")
    return Api(raw)


@pytest.fixture
def api_for():
    """``api_for(user)``: ``api_of`` as a fixture."""
    return api_of


@pytest.fixture
def api_alice(alice, api_for):
    return api_for(alice)


@pytest.fixture
def api_bob(bob, api_for):
    return api_for(bob)


@pytest.fixture
def api_charlie(charlie, api_for):
    return api_for(charlie)


@pytest.fixture
def anonymous():
    return Api()


def start_game(white: Api, black: Api, game="carolo", options=None, **extra):
    """White challenges Black (by username) with White's colour; Black accepts."""
    _, me = black.get("/api/account")
    challenge = {"game": game, "options": options or {}, "color": "white", **extra}
    status, created = white.post("/api/challenges", {**challenge, "opponent": me["username"]})
    assert status == 200, created
    status, accepted = black.post(f"/api/challenges/{created['id']}/accept")
    assert status == 200, accepted
    return accepted["game_id"]


def play(api: Api, game_id: int, move: str, ply: int | None = None):
    """Play ``move`` as seen now (or at ``ply``); returns (status, body)."""
    if ply is None:
        ply = api.get(f"/api/games/{game_id}")[1]["ply"]
    return api.post(f"/api/games/{game_id}/moves", {"move": move, "ply": ply})
