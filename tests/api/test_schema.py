"""The published OpenAPI schema and the docs page."""

import re

import jsonschema
import pytest
from django.contrib.staticfiles import finders

from tests.api.conftest import check_against_schema, published_schema

PATHS = {
    "/api/token": {"post"},
    "/api/account": {"get"},
    "/api/challenges": {"get", "post"},
    "/api/challenges/{id}": {"get"},
    "/api/challenges/{id}/accept": {"post"},
    "/api/challenges/{id}/decline": {"post"},
    "/api/challenges/{id}/cancel": {"post"},
    "/api/games": {"get"},
    "/api/games/{id}": {"get"},
    "/api/games/{id}/moves": {"post"},
    "/api/games/{id}/resign": {"post"},
    "/api/games/{id}/draw": {"post"},
    "/api/games/{id}/abort": {"post"},
    "/api/games/{id}/rematch": {"post"},
}


def test_the_schema_lists_every_endpoint(db):
    schema = published_schema()
    assert schema["openapi"].startswith("3.")
    assert {path: set(ops) for path, ops in schema["paths"].items()} == PATHS


def test_every_operation_publishes_its_errors(db):
    for path, operations in published_schema()["paths"].items():
        for operation in operations.values():
            for code in ("400", "401", "403", "404", "409", "429"):
                content = operation["responses"][code]["content"]["application/json"]
                assert content["schema"] == {"$ref": "#/components/schemas/ErrorOut"}, path


def test_the_schema_declares_bearer_and_session_auth(db):
    schemes = published_schema()["components"]["securitySchemes"]
    assert {"type": "http", "scheme": "bearer"}.items() <= schemes["BearerToken"].items()
    assert schemes["SessionWithCsrf"]["in"] == "cookie"
    assert published_schema()["paths"]["/api/token"]["post"].get("security") in (None, [])


def test_the_checker_refuses_a_body_off_the_schema(db):
    with pytest.raises(jsonschema.ValidationError):
        check_against_schema("GET", "/api/games/3", 200, {"id": "three"})
    with pytest.raises(jsonschema.ValidationError):
        check_against_schema("POST", "/api/games/3/moves", 409, {"detail": "stale"})
    with pytest.raises(AssertionError):
        check_against_schema("GET", "/api/games/3", 500, {"error": "x"})


def test_the_docs_page_uses_bundled_swagger_not_a_cdn(client):
    r = client.get("/api/docs")
    assert r.status_code == 200
    page = r.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page
    # every script, stylesheet and icon is ours (not the CSRF token: random letters
    # of it spelt "cdn" once in a few hundred runs)
    linked = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert linked and all(url.startswith("/static/") for url in linked)
    assert "https://" not in page
    assert finders.find("ninja/swagger-ui-bundle.js")
    assert finders.find("ninja/swagger-ui.css")
