"""Static files as production collects them (carolo_site/storage.py)."""

import re
from pathlib import Path

import django_htmx
from django.core.management import call_command

STORAGE = "carolo_site.storage.MinifiedStaticFilesStorage"


def collect(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": STORAGE}}
    call_command("collectstatic", interactive=False, verbosity=0)
    return tmp_path


def hashed(root, name):
    stem, ext = name.rsplit(".", 1)
    (found,) = [
        p for p in root.glob(f"{stem}.*.{ext}") if re.fullmatch(r"[0-9a-f]{12}", p.suffixes[-2][1:])
    ]
    return found


def test_stylesheets_are_minified_and_still_point_at_hashed_images(settings, tmp_path):
    root = collect(settings, tmp_path)
    board = hashed(root, "games/board.css").read_text()
    assert "/*" not in board and "\n  " not in board
    assert ".board-squares>.d{background:var(--sq-dark)}" in board
    pieces = hashed(root, "games/pieces/rococo/pieces.css").read_text()
    image = hashed(root, "games/pieces/rococo/wK.svg").name
    assert f'.board .wK{{background-image:url("{image}")}}' in pieces
    assert (
        root / "games/pieces/rococo" / f"{hashed(root, 'games/pieces/rococo/pieces.css').name}.gz"
    ).exists()


def test_the_sites_scripts_are_minified_and_the_libraries_sent_as_they_come(settings, tmp_path):
    root = collect(settings, tmp_path)
    source = (settings.BASE_DIR / "static/games/game.js").read_text()
    script = hashed(root, "games/game.js").read_text()
    assert "/*" in source and "\n  " in source
    assert "/*" not in script and "\n  " not in script
    assert len(script) < 0.75 * len(source)
    assert "function showCurrentMove(){" in script  # names kept: only the layout goes
    (htmx,) = root.glob("django_htmx/htmx-2.min.*.js")
    shipped = Path(django_htmx.__file__).parent / "static/django_htmx/htmx-2.min.js"
    assert htmx.read_bytes() == shipped.read_bytes()
