"""The error pages as a visitor sees them with DEBUG off: the site's own, in their language.

404 and 403 extend the base layout (navigation, a link home); 500 is a page of its own
that needs neither context processors nor the database, as either may be what failed.
"""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.urls import path
from django.utils import translation
from django.views import defaults

from carolo_site.urls import urlpatterns as site_urlpatterns
from tests.helpers import text


def forbidden(request):
    raise PermissionDenied


def broken(request):
    raise RuntimeError("a bug")


urlpatterns = [
    path("forbidden/", forbidden),
    path("broken/", broken),
    *site_urlpatterns,
]

pytestmark = pytest.mark.urls("tests.test_error_pages")


@pytest.fixture(autouse=True)
def no_debug(settings):
    settings.DEBUG = False


def test_a_missing_game_has_the_site_s_404_page(client, db):
    response = client.get("/game/99999/")
    assert response.status_code == 404
    page = text(response)
    assert "<title>Page not found · Carolo</title>" in page
    assert "<h1>Page not found</h1>" in page
    assert 'href="/lobby/"' in page  # the navigation
    assert '<a class="button" href="/">Back to the home page</a>' in page
    assert "Not Found" not in page


def test_the_404_page_is_in_french_for_a_french_browser(client, db):
    response = client.get("/game/99999/", headers={"accept-language": "fr"})
    page = text(response)
    assert response.status_code == 404
    assert '<html lang="fr">' in page
    assert "<h1>Page introuvable</h1>" in page
    assert "Retour à l’accueil" in page


def test_a_form_s_address_opened_as_a_page_has_the_site_s_405_page(client, alice):
    client.force_login(alice)
    response = client.get("/settings/vacation/")  # a reload after the form was sent
    assert response.status_code == 405 and response["Allow"] == "POST"
    page = text(response)
    assert "<h1>Not a page to open</h1>" in page
    assert '<a class="button" href="/">Back to the home page</a>' in page
    page = text(client.get("/settings/vacation/", headers={"accept-language": "fr"}))
    assert "<h1>Ce n’est pas une page à ouvrir</h1>" in page


def test_a_refused_page_has_the_site_s_403_page_in_either_language(client, db):
    response = client.get("/forbidden/")
    assert response.status_code == 403
    page = text(response)
    assert "<h1>Access refused</h1>" in page
    assert 'href="/lobby/"' in page
    assert '<a class="button" href="/">Back to the home page</a>' in page
    page = text(client.get("/forbidden/", headers={"accept-language": "fr"}))
    assert "<h1>Accès refusé</h1>" in page


def test_a_server_error_has_a_plain_page_with_the_site_s_stylesheet(db):
    client = Client(raise_request_exception=False)
    response = client.get("/broken/")
    assert response.status_code == 500
    page = text(response)
    assert '<link rel="stylesheet" href="/static/css/site.css">' in page
    assert "<h1>Something went wrong</h1>" in page
    assert 'href="/"' in page
    page = text(client.get("/broken/", headers={"accept-language": "fr"}))
    assert "<h1>Une erreur s’est produite</h1>" in page


def test_the_500_page_renders_without_the_database():
    # without the db fixture any query fails the test; no middleware ran: no user
    with translation.override("en"):  # no LocaleMiddleware ran either
        response = defaults.server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Something went wrong" in text(response)


@pytest.mark.parametrize("address", ["/players/?q=%00", "/@/al%00ice", "/game/1%00/", "/?q=a%00"])
def test_an_address_with_a_nul_character_is_a_bad_request(client, alice, address):
    # PostgreSQL refuses NUL in text: a lookup with it would be a server error.
    response = client.get(address)
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()
    french = client.get(address, headers={"accept-language": "fr"}).content.decode()
    assert "caractère NUL" in french
