"""The base layout: htmx from our own static files, CSRF for htmx, two languages, a skip link."""

from pathlib import Path

from django.contrib.staticfiles import finders

from tests.helpers import text


def test_htmx_comes_from_our_own_static_files(client, db):
    page = text(client.get("/"))
    assert '<script src="/static/django_htmx/htmx-2.min.js" defer></script>' in page
    assert "https://" not in page.split("</head>")[0]
    assert finders.find("django_htmx/htmx-2.min.js")
    assert finders.find("css/site.css")


def test_every_htmx_request_carries_the_csrf_token(client, db):
    page = text(client.get("/"))
    assert '<body hx-headers=\'{"X-CSRFToken": "' in page


def test_the_navigation_links_home_lobby_and_rules(client, db):
    page = text(client.get("/"))
    for href in ('href="/"', 'href="/lobby/"', 'href="/rules/"', 'href="/accounts/login/"'):
        assert href in page


def test_the_browser_language_picks_french(client, db):
    page = text(client.get("/", headers={"accept-language": "fr"}))
    assert '<html lang="fr">' in page
    assert "Parties lentes, coups profonds" in page
    assert "Règles" in page


def test_the_footer_switches_the_language(client, db):
    r = client.post("/i18n/setlang/", {"language": "fr", "next": "/"}, follow=True)
    assert "Parties lentes, coups profonds" in text(r)
    r = client.post("/i18n/setlang/", {"language": "en", "next": "/"}, follow=True)
    assert "Slow games, deep moves" in text(r)


def test_allauth_pages_use_the_site_layout_in_french(client, db):
    page = text(client.get("/accounts/login/", headers={"accept-language": "fr"}))
    assert 'class="site-header"' in page
    assert "<h1>Se connecter</h1>" in page


def test_a_skip_link_comes_first_and_leads_to_the_main_content(client, db):
    page = text(client.get("/"))
    body = page.split("<body", 1)[1].split(">", 1)[1]
    assert body.lstrip().startswith('<a class="skip-link" href="#main">Skip to content</a>')
    assert page.count('id="main"') == 1
    assert '<main class="wrap" id="main">' in page


def test_no_template_comment_spans_lines():
    """Django's {# #} comment ends with its line: one that goes on is shown to users."""
    root = Path(__file__).resolve().parent.parent / "templates"
    open_comments = [
        f"{path.relative_to(root)}:{number}"
        for path in root.rglob("*.*")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.count("{#") > line.count("#}")
    ]
    assert open_comments == []
