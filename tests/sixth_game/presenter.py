"""What the Pig screen shows, and the action each tap sends: plain Python, no Kivy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.game import Action, View
from tests.sixth_game.rules import Bet, Hold, Roll


@dataclass(frozen=True)
class PigShown:
    """The screen's words, and the buttons that work now (each with the action it sends)."""

    scores: str
    running: str
    buttons: tuple[tuple[str, Action], ...]


def present(view: View, legal: Sequence[Action]) -> PigShown:
    scores = "   ".join(f"{name} {score}" for name, score in view["scores"].items())
    if view["turn"] is None:
        running = "Bets: " + ", ".join(f"{name} on {on}" for name, on in (view["bets"] or {}).items())
    else:
        running = f"{view['turn']} has {view['running']} this turn"
    return PigShown(scores, running, tuple((words(action), action) for action in legal))


def words(action: Action) -> str:
    """A button's words for `action`; a bet says only that it is one (the shared screen keeps it secret)."""
    match action:
        case Bet(player=player, on=on):
            return f"{player}: bet on {on}"
        case Roll():
            return "Roll"
        case Hold():
            return "Hold"
    return action.type
