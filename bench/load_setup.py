"""Players, tokens and games for the load benchmark (run inside the bench's settings).

``python -m bench.load_setup <players> <games per pair>`` prints JSON: one entry per
pair of players, with both tokens and their games' ids.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys


def main(players: int, games_per_pair: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carolo_site.settings")
    import django

    django.setup()
    from accounts.models import User
    from accounts.tokens import create_token
    from games import notify, services

    pairs = []
    for n in range(players // 2):
        white = User.objects.create_user(f"loadw{n}", f"loadw{n}@example.org", "load-pass-123")
        black = User.objects.create_user(f"loadb{n}", f"loadb{n}@example.org", "load-pass-123")
        games = []
        for _ in range(games_per_pair):
            challenge = services.create_challenge(
                white, variant="carolo", color="white", opponent=black
            )
            games.append(services.accept_challenge(black, challenge.pk).pk)
        pairs.append(
            {"white": create_token(white)[1], "black": create_token(black)[1], "games": games}
        )
    # Starting 12 games each owes every player a digest e-mail: sent now, not by the
    # worker in the first measured stage (a 7 s task).
    with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
        notify.deliver_due()  # the embedded mail backend echoes every e-mail
    json.dump(pairs, sys.stdout)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
