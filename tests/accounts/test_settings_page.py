import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import timezone

from accounts.middleware import TimeZoneMiddleware
from tests.helpers import text


def save(client, **changes):
    data = {"notify": "per_turn", "time_zone": "UTC", "confirm_moves": "on"} | changes
    return client.post("/settings/", {k: v for k, v in data.items() if v is not None}, follow=True)


def test_it_requires_login(client):
    r = client.get("/settings/")
    assert r.status_code == 302
    assert r["Location"] == "/accounts/login/?next=/settings/"


def test_it_shows_the_current_settings_and_account_links(client_alice):
    r = client_alice.get("/settings/")
    form = r.context["form"]
    assert (form["notify"].value(), form["time_zone"].value()) == ("per_turn", "UTC")
    assert form["confirm_moves"].value() is True
    page = text(r)
    assert "An e-mail each time it is my turn" in page
    assert '<option value="Europe/Paris">Europe/Paris</option>' in page
    assert 'href="/accounts/email/"' in page
    assert 'href="/accounts/password/change/"' in page


def test_it_saves_the_settings(client_alice, alice):
    r = save(client_alice, notify="daily", time_zone="Europe/Paris", confirm_moves=None)
    assert "Your settings are saved." in text(r)
    alice.refresh_from_db()
    assert (alice.notify, alice.time_zone, alice.confirm_moves) == ("daily", "Europe/Paris", False)


def test_it_offers_no_email_at_all(client_alice, alice):
    save(client_alice, notify="none")
    alice.refresh_from_db()
    assert alice.notify == "none"


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "localtime", "Factory"])
def test_it_rejects_an_unknown_time_zone(client_alice, alice, zone):
    # "localtime" (the server's own zone) and "Factory" are in the system's list,
    # but no place keeps their time
    r = save(client_alice, time_zone=zone)
    assert "Select a valid choice." in text(r)
    alice.refresh_from_db()
    assert alice.time_zone == "UTC"


def test_it_rejects_an_unknown_notification_choice(client_alice, alice):
    r = save(client_alice, notify="hourly")
    assert "Select a valid choice." in text(r)


def test_the_middleware_activates_the_players_time_zone(alice):
    alice.time_zone = "Asia/Tokyo"
    seen = []

    def view(request):
        seen.append(timezone.get_current_timezone_name())
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = alice
    TimeZoneMiddleware(view)(request)
    assert seen == ["Asia/Tokyo"]
