from tests.helpers import text


def test_it_welcomes_visitors_and_presents_the_four_games(client, db):
    r = client.get("/")
    page = text(r)
    assert "Slow games, deep moves" in page
    for key, name in [
        ("carolo", "Le Carolo"),
        ("carge", "Le Carge"),
        ("rococo", "Rococo"),
        ("shuuro", "Shuuro"),
    ]:
        assert f'href="/rules/{key}/"' in page
        assert name in page
    assert 'href="/accounts/signup/"' in page
    assert "Your games" not in page


def test_it_shows_your_games_to_a_signed_in_player(client_alice):
    page = text(client_alice.get("/"))
    assert "Hello, alice" in page
    assert "Your games" in page
    assert "Slow games, deep moves" not in page


def test_the_rules_index_lists_the_games(client, db):
    page = text(client.get("/rules/"))
    assert 'href="/rules/shuuro/"' in page


def test_a_rules_page_names_its_game(client, db):
    r = client.get("/rules/rococo/")
    assert r.status_code == 200
    assert "Rococo" in text(r)


def test_an_unknown_game_has_no_rules_page(client, db):
    assert client.get("/rules/chess/").status_code == 404


def test_a_rules_page_renders_the_rules_text(client, db, settings, tmp_path):
    settings.BASE_DIR = tmp_path
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "carge.md").write_text("# Le Carge\n\n| a |\n|---|\n| 1 |\n")
    page = text(client.get("/rules/carge/"))
    assert "<h1>Le Carge</h1>" in page
    assert "<table>" in page


def test_the_time_left_is_worded_as_on_the_game_page(client_alice, alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.models import Game

    challenge = services.create_challenge(alice, variant="carolo", color="white", opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    deadline = timezone.now() + timedelta(days=2, hours=4, minutes=30)
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    assert "(2 days 4 hours left)" in text(client_alice.get("/"))
    alice.vacation_started_at = timezone.now()
    alice.save(update_fields=["vacation_started_at"])
    assert "(on vacation)" in text(client_alice.get("/"))
