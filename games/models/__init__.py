"""The games app's models, one module per concern."""

from .chat import CHAT_MAX_LENGTH, ChatMessage, ChatReport
from .notes import NOTE_MAX_LENGTH, Note
from .notify import Notification
from .plans import PLAN_MAX_LINES, PLAN_MAX_MOVES, Plan
from .play import BOT_LEVELS, DAYS_PER_MOVE, Challenge, ColorChoice, Game, Move, Side, Variant
from .ratings import Rating, RatingChange
from .tournaments import Entry, Tournament

__all__ = ["BOT_LEVELS", "DAYS_PER_MOVE", "Challenge", "ColorChoice", "Game", "Move", "Side"]
__all__ += ["Variant"]
__all__ += ["Rating", "RatingChange"]
__all__ += ["Notification"]
__all__ += ["NOTE_MAX_LENGTH", "Note"]
__all__ += ["CHAT_MAX_LENGTH", "ChatMessage", "ChatReport"]
__all__ += ["PLAN_MAX_LINES", "PLAN_MAX_MOVES", "Plan"]
__all__ += ["Entry", "Tournament"]
