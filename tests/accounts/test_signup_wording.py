"""The sign-up and sign-in pages say "Sign up" and "Sign in", as the header does, not
allauth's "Signup", "Sign Up" and "Sign In"."""

import re

from tests.helpers import text


def headings(page: str, action: str = "/accounts/signup/") -> tuple[str, str, str]:
    """The page's title, its h1 and the submit button of its form posting to ``action``."""
    title = re.search(r"<title>(.*?) · Carolo</title>", page).group(1)
    h1 = re.search(r"<h1>(.*?)</h1>", page).group(1)
    button = re.search(
        rf'<form method="post" action="{action}">.*<button type="submit">(.*?)</button>', page
    ).group(1)
    return title, h1, button


def test_the_sign_up_page_says_sign_up_like_the_header(client, db):
    page = text(client.get("/accounts/signup/"))
    assert headings(page) == ("Sign up", "Sign up", "Sign up")
    assert 'href="/accounts/signup/">Sign up</a>' in page  # the header's link
    assert "Sign Up" not in page and "Signup" not in page
    assert 'Already have an account? Then please <a href="/accounts/login/">sign in</a>.' in page


def test_in_french_it_says_s_inscrire_everywhere(client, db):
    page = text(client.get("/accounts/signup/", headers={"accept-language": "fr"}))
    assert headings(page) == ("S’inscrire", "S’inscrire", "S’inscrire")
    assert 'href="/accounts/signup/">S’inscrire</a>' in page
    assert "Création de compte" not in page and "Inscription" not in page
    assert "Vous avez déjà un compte ?" in page  # allauth's own translation still applies


def test_the_sign_in_page_says_sign_in_like_the_header(client, db):
    page = text(client.get("/accounts/login/"))
    assert headings(page, "/accounts/login/") == ("Sign in", "Sign in", "Sign in")
    assert "Sign In" not in page
    assert 'please <a href="/accounts/signup/">sign up</a> first.' in page
    assert 'name="password"' in page and 'name="login"' in page and 'name="remember"' in page
    assert "Remember me" in page and "Remember Me" not in page
    fr = text(client.get("/accounts/login/", headers={"accept-language": "fr"}))
    assert re.search(r"<h1>(.*?)</h1>", fr).group(1) == "Se connecter"
    assert "<title>Se connecter · Carolo</title>" in fr
    assert "Se souvenir de moi" in fr
