"""Command line: python -m games.rules {moves,perft,divide,start} <game> ...

Errors print one line to stderr and exit with status 2.
"""

from __future__ import annotations

import os
import sys

from . import GAME_KEYS, RulesError, get
from .base import is_number

USAGE = "usage: python -m games.rules {moves,perft,divide,start} <game> ... (--help for more)"
HELP = f"""\
usage: python -m games.rules moves <game> <fen>
       python -m games.rules perft <game> <fen> <depth>
       python -m games.rules divide <game> <fen> <depth>
       python -m games.rules start <game> [option=value ...]

moves   every legal move, one a line, sorted
perft   the number of leaf nodes of the legal-move tree of <depth>
divide  each legal move with its count at <depth>, sorted
start   the FEN of the start position with these options

<game> is one of: {", ".join(GAME_KEYS)}.  Errors: one line on stderr, status 2."""


def _help() -> str:
    """HELP, then each game's start options with their defaults."""
    lines = [HELP, "", "start options (name=value; the default in brackets):"]
    for key in GAME_KEYS:
        for option in get(key).options:
            choices = "|".join(option.choices) if option.choices else "..."
            lines.append(f"  {key} {option.name}={choices} [{option.default}]: {option.help}")
    return "\n".join(lines)


def _depth(text: str) -> int:
    if not is_number(text):
        raise RulesError(f"depth must be a whole number, not {text!r}")
    return int(text)


def run(args: list[str]) -> list[str]:
    """The output lines of one command; RulesError on bad input."""
    if len(args) < 2:
        raise RulesError(USAGE)
    command, game, rest = args[0], get(args[1]), args[2:]
    if command == "start":
        options = {}
        for item in rest:
            name, sep, value = item.partition("=")
            if not sep:
                raise RulesError(f"option must be name=value, not {item!r}")
            options[name] = value
        return [game.start(options).fen()]
    if command == "moves" and len(rest) == 1:
        pos = game.from_fen(rest[0])
        return sorted(pos.move_text(m) for m in pos.legal_moves())
    if command == "perft" and len(rest) == 2:
        return [str(game.from_fen(rest[0]).perft(_depth(rest[1])))]
    if command == "divide" and len(rest) == 2:
        depth = _depth(rest[1])
        if depth < 1:
            raise RulesError("divide needs a depth of at least 1")
        return [f"{move} {count}" for move, count in game.from_fen(rest[0]).divide(depth)]
    raise RulesError(USAGE)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["-h"], ["--help"]):
        print(_help())
        return 0
    try:
        lines = run(args)
    except RulesError as error:
        print(f"error: {str(error).splitlines()[0]}", file=sys.stderr)
        return 2
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (| head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
