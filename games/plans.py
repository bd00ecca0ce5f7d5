"""Conditional moves: a player waiting for the opponent's move plans their replies.

A plan is lines ``X1 Y1 X2 Y2 …``: the X the opponent's moves, the Y the player's
replies, all checked by the rules engine from the current position and kept in
the game's own move text.  Lines that begin alike form a tree; two lines that give
the same opponent's move different replies are refused.  When the opponent plays
a move that begins some lines, the reply is played at once for the player, through
the same path as any move (``services._play``: recorded, timed, e-mailed, bots
woken), and what follows it in those lines is kept; every other line is dropped.

Whose plan waits is on the game's row (``Game.plan_side``), read with the lock a
move takes anyway: a move costs no query for plans unless one waits.  Saving a
plan locks that row too, so a save and the opponent's move never interleave, and
a save made from a position the game has left is refused (``StalePly``); so is a
line's deletion, which is a save of the other lines.  The flag
and the plan never move the game's ``version``, poll token or ETag, and nothing
the opponent sees tells of either: only the planner's own game page shows them.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import rules, services
from games.models import PLAN_MAX_LINES, PLAN_MAX_MOVES, Game, Plan

Line = list[str]


def may_plan(user, game: Game, side: str | None = None) -> bool:
    """Whether ``user`` may save a plan in ``game`` now: a player (not a bot) of an
    active game, whose opponent alone is to move, outside a secret phase."""
    side = side or game.side_of(user)
    if side is None or user.is_bot or not game.is_active:
        return False
    if game.to_act() != [rules.opponent(side)]:
        return False
    position = game.position()
    return position.to_act == (rules.opponent(side),) and not position.is_secret


def plan_of(user, game: Game) -> Plan | None:
    """``user``'s plan in ``game``; no query unless the game's flag says one waits."""
    side = game.side_of(user)
    if side is None or game.plan_side != side or not game.is_active:
        return None
    return Plan.objects.filter(game=game, user=user).first()


def save_plan(user, game_id, lines, ply, *, now: datetime | None = None) -> Plan | None:
    """Make ``lines`` (lists of move texts) ``user``'s whole plan in the game, seen at
    ``ply``; an empty list deletes it (None).  GameError, nothing saved, if refused."""
    return _save(user, game_id, ply, lambda _old: lines, now)


def add_line(user, game_id, line, ply, *, now: datetime | None = None) -> Plan | None:
    """Add ``line`` (a list of move texts, or one text with them separated by spaces)
    to ``user``'s plan in the game, seen at ``ply``."""
    if isinstance(line, str):
        line = line.split()
    if not line:
        raise services.GameError(_("Type a line of moves: your opponent's move, then your reply."))
    return _save(user, game_id, ply, lambda old: [*old, line], now)


def delete_line(user, game_id, line, ply, *, now: datetime | None = None) -> Plan | None:
    """Take ``line`` (one text of move texts separated by spaces, as the box lists it)
    out of ``user``'s plan in the game, seen at ``ply``.  The plan keeps its leaves,
    so the moves ``line`` shares with other lines stay theirs; its last line gone, the
    plan is deleted (None).  GameError, nothing changed, if the plan has no such line."""
    line = line.split()

    def without(old: list[Line]) -> list[Line]:
        if line not in old:
            raise services.GameError(_("That line is not in your plan."))
        return [kept for kept in old if kept != line]

    return _save(user, game_id, ply, without, now)


def clear_plan(user, game_id, *, now: datetime | None = None) -> None:
    """Delete ``user``'s plan in the game, if any (at any ply)."""
    with transaction.atomic():
        game, side = services._open_game(user, game_id, now or timezone.now())
        Plan.objects.filter(game=game, user=user).delete()
        if game.plan_side == side:
            _flag(game, "")


def _save(user, game_id, ply, make_lines, now) -> Plan | None:
    now = now or timezone.now()
    with transaction.atomic():
        game, side = services._open_game(user, game_id, now)
        if game.is_active:
            return _save_in(user, game, side, ply, make_lines, now)
    raise services.over(game)  # after the transaction: an ending on time is kept


def _save_in(user, game: Game, side: str, ply, make_lines, now) -> Plan | None:
    if type(ply) is not int or ply != game.visible_ply(side):
        raise services.StalePly(game.visible_ply(side))
    if not may_plan(user, game, side):
        raise services.Conflict(
            _("Conditional moves can be planned only while your opponent alone is to move.")
        )
    old = plan_of(user, game)
    lines = checked_lines(game.position(), side, make_lines(old.lines if old else []))
    if not lines:
        Plan.objects.filter(game=game, user=user).delete()
        _flag(game, "")
        return None
    if old is None:
        old = Plan(game=game, user=user)
    old.lines, old.updated_at = lines, now
    old.save()
    _flag(game, side)
    return old


def _flag(game: Game, side: str) -> None:
    """Set the game's ``plan_side``, alone: not its version, nor anything a poll reads."""
    if game.plan_side != side:
        game.plan_side = side
        Game.objects.filter(pk=game.pk).update(plan_side=side)


def checked_lines(position, side: str, lines) -> list[Line]:
    """``lines`` as the plan keeps them: each move checked by the engine from
    ``position`` and written as the game writes it, lines merged into a tree and
    listed leaf by leaf.  GameError saying why if any line is refused."""
    if not isinstance(lines, list) or not all(isinstance(line, list) for line in lines):
        raise services.GameError(_("A plan is a list of lines of moves."))
    tree: dict = {}
    for line in lines:
        _graft(tree, _checked_line(position, side, line))
    found = leaves(tree)
    if len(found) > PLAN_MAX_LINES:
        raise services.GameError(
            _("A plan has at most %(limit)d lines; this one would have %(count)d.")
            % {"limit": PLAN_MAX_LINES, "count": len(found)}
        )
    return found


def _checked_line(position, side: str, line) -> Line:
    if not line:
        return []
    if len(line) > PLAN_MAX_MOVES:
        raise services.GameError(
            _("A line has at most %(limit)d moves; this one has %(count)d.")
            % {"limit": PLAN_MAX_MOVES, "count": len(line)}
        )
    if len(line) % 2:
        raise services.GameError(
            _("A line ends with your reply: %(line)s") % {"line": " ".join(map(str, line))}
        )
    texts = []
    for n, text in enumerate(line):
        mover = rules.opponent(side) if n % 2 == 0 else side
        if not isinstance(text, str):
            raise services.GameError(_("A move must be text."))
        if n and (position.outcome() is not None or position.to_act != (mover,)):
            raise services.GameError(
                _("%(move)s: a line stops where the game ends or where the turn does not pass.")
                % {"move": texts[-1]}
            )
        if position.is_secret:
            raise services.Conflict(
                _("Conditional moves can be planned only while your opponent alone is to move.")
            )
        try:
            move = position.parse_move(text, mover)
        except rules.RulesError as error:
            raise services.GameError(error.render(_)) from None
        texts.append(position.move_text(move))
        position = position.play(move)
    return texts


def _graft(tree: dict, line: Line) -> None:
    """Put ``line`` in ``tree`` (opponent's move -> (reply, subtree))."""
    for n in range(0, len(line), 2):
        move, reply = line[n], line[n + 1]
        known = tree.get(move)
        if known is not None and known[0] != reply:
            raise services.GameError(
                _("You already reply %(reply)s to %(move)s.") % {"reply": known[0], "move": move}
            )
        if known is None:
            known = tree[move] = (reply, {})
        tree = known[1]


def leaves(tree: dict) -> list[Line]:
    """Every line of ``tree``, from its root to a leaf, in the order they were added."""
    found = []
    for move, (reply, subtree) in tree.items():
        found += [[move, reply, *rest] for rest in leaves(subtree)] or [[move, reply]]
    return found


def _tree(lines: list[Line]) -> dict:
    tree: dict = {}
    for line in lines:
        _graft(tree, line)
    return tree


def reply_planned(game: Game, position, mover_side: str, text: str, mover, now) -> None:
    """The hook of a move (``services._play``, the game locked, before it is saved):
    ``mover`` (the user of ``mover_side``) has played ``text``, as the game writes it,
    and the game's ``plan_side`` is the other side.  Play that side's planned reply,
    if its plan has one, and keep the rest of the lines it follows; else drop the plan.

    The reply is a move of the planner's in every way the others can see: it ends
    the game if it mates or repeats, and it clears the planner's draw offer that the
    mover declined by moving, as any move of theirs would (its staying would tell)."""
    planner = rules.opponent(mover_side)
    user_id = game.white_id if planner == rules.WHITE else game.black_id
    plan = Plan.objects.filter(game=game, user_id=user_id).first()
    game.plan_side = ""
    found = _tree(plan.lines).get(text) if plan is not None else None
    playable = game.is_active and position.to_act == (planner,) and not position.is_secret
    if found is not None and playable:
        try:
            position.parse_move(found[0], planner)  # checked when saved: never refused
        except rules.RulesError:
            found = None
    if found is None or not playable:
        if plan is not None:
            plan.delete()
        return
    reply, rest = found
    if rest:
        plan.lines, plan.updated_at = leaves(rest), now
        plan.save(update_fields=["lines", "updated_at"])
        game.plan_side = planner
    else:
        plan.delete()
    ply = game.visible_ply(planner)
    services._play(game, planner, reply, ply, game.player(planner), now, mover=mover)


def forget(game: Game) -> None:
    """An ended game keeps no plan (``services._finish``; the row saved by the caller)."""
    Plan.objects.filter(game=game).delete()
    game.plan_side = ""


def box(user, game: Game, replay: int | None, number: int | None = None) -> dict | None:
    """The conditional-moves box on ``user``'s own page of ``game`` (None: none), at
    most one query (only while a plan waits): while they may plan, or one waits.
    ``number``: the move list's number of the opponent's next move."""
    side = game.side_of(user)
    if replay is not None or side is None or getattr(user, "is_bot", True):
        return None
    plan = plan_of(user, game)
    allowed = may_plan(user, game, side)
    if plan is None and not allowed:
        return None
    lines = plan.lines if plan else []
    return {
        "lines": [{"moves": " ".join(line), "words": _words(line, number)} for line in lines],
        "ply": game.visible_ply(side),
        "open": allowed,
    }


def _words(line: Line, number: int | None) -> str:
    """A line as the box says it: "If 12. d1-d7, reply e8xe7, then if d7-d6, reply …"."""
    parts = []
    for n in range(0, len(line), 2):
        move, reply = line[n], line[n + 1]
        if n == 0:
            move = f"{number}. {move}" if number else move
            parts.append(_("If %(move)s, reply %(reply)s") % {"move": move, "reply": reply})
        else:
            parts.append(_("then if %(move)s, reply %(reply)s") % {"move": move, "reply": reply})
    return ", ".join(parts)
