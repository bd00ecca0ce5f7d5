"""Page weight: the bytes of each game page (HTML, CSS, JS, images) and of the htmx
fragment a move or a poll swaps in, raw and as sent (static files gzipped by
WhiteNoise; the HTML as Django sends it).  Runs with the production settings
(``DEBUG=False``: collected static files, no debug-only script) on a throwaway
SQLite database.

``python -m bench.pages``: prints JSON.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import tempfile
from pathlib import Path

# (game, start options, moves played before measuring) — a position in play.
GAMES = [
    ("carolo", {}, ["d2-f6", "b8-d6"]),
    ("carge", {"barriers": "b2n,c3e,d1n"}, ["@a1", "@a3", "@b1", "@a4"]),
    ("rococo", {}, ["e3-e4", "e8-e7"]),
    ("shuuro-mini", {}, []),
]
ASSET = re.compile(r'(?:href|src)="(/static/[^"?#]+)')


def _setup() -> None:
    os.environ["VAR_DIR"] = tempfile.mkdtemp()
    os.environ.pop("DATABASE_URL", None)
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["DEBUG"] = "False"
    os.environ["SECRET_KEY"] = "bench-" + "x" * 50
    os.environ["SECURE_SSL_REDIRECT"] = "False"
    os.environ["SECURE_COOKIES"] = "False"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carolo_site.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def _asset_bytes(paths: set[str]) -> tuple[int, int]:
    """Raw bytes of the static files, and gzipped as WhiteNoise serves them."""
    from django.conf import settings

    raw = compressed = 0
    for path in paths:
        data = (Path(settings.STATIC_ROOT) / path.removeprefix("/static/")).read_bytes()
        raw += len(data)
        compressed += min(len(data), len(gzip.compress(data)))
    return raw, compressed


def run() -> dict:
    _setup()
    from django.test import Client

    from accounts.models import User
    from games import services

    white = User.objects.create_user("weightw", "w@example.org", "weight-pass-123")
    black = User.objects.create_user("weightb", "b@example.org", "weight-pass-123")
    client = Client()
    client.force_login(white)
    results = {}
    for variant, options, moves in GAMES:
        challenge = services.create_challenge(
            white, variant=variant, options=options, color="white", opponent=black
        )
        game = services.accept_challenge(black, challenge.pk)
        for text in moves:
            player = white if game.white_to_act else black
            game = services.play_move(player, game.pk, text, game.ply)
        html = client.get(f"/game/{game.pk}/").content
        assets = set(ASSET.findall(html.decode()))
        fragment = client.get(f"/game/{game.pk}/poll?v=0", headers={"HX-Request": "true"}).content
        asset_bytes, asset_gzip = _asset_bytes(assets)
        results[variant] = {
            "html_bytes": len(html),
            "assets": len(assets),
            "asset_bytes": asset_bytes,
            "asset_gzip_bytes": asset_gzip,
            "page_bytes": len(html) + asset_bytes,
            "page_wire_bytes": len(html) + asset_gzip,
            "fragment_bytes": len(fragment),
        }
    return results


def table(results: dict) -> str:
    lines = [f"{'game':12} {'page KB':>8} {'on the wire KB':>15} {'fragment KB':>12}"]
    for key, r in results.items():
        lines.append(
            f"{key:12} {r['page_bytes'] / 1024:>8.1f} {r['page_wire_bytes'] / 1024:>15.1f}"
            f" {r['fragment_bytes'] / 1024:>12.1f}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
