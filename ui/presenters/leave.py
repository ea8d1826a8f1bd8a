"""Someone leaves: who may, what the table is asked first, and the action a Yes sends. Plain Python.

The Menu's "Someone leaves…" (`ui.screens.leave`) shows one big button per
player still in the game, in their colour; a tap asks `Leaver.question`, and
"Yes, Ann leaves" sends `Leaver.action` (the engine's `leave`) through the game
screen, so a refusal shows in the banner and Undo takes it back.

RULINGS.md, "Every game: a player leaves": "Two players: the other wins";
"Whenever one player remains, that player wins". With more, play goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.game import Leave, Player
from companion.palette import is_light  # the one ink-on-a-colour rule (also for Quintet's tokens)

NO_TEXT = "No, back"
TITLE = "Who leaves?"
NOBODY = "The game is over: nobody can leave it now."


@dataclass(frozen=True)
class Leaver:
    """One player who may leave: their button in the picker, and the question a tap on it asks."""

    name: str
    colour: str  # the player's own colour, as in the options ("#e53935")
    light: bool  # a light colour: the name on it is written in ink, not in the theme's light text
    question: str  # "Ann leaves the game for good? Bo wins."
    yes_text: str  # "Yes, Ann leaves"
    done_text: str  # the banner once they have left

    @property
    def action(self) -> Leave:
        """What a Yes sends: the engine's ``{"type": "leave", "player": name}``."""
        return Leave(self.name)


def leavers(seats: Sequence[Player], still_in: Sequence[str], *, over: bool) -> tuple[Leaver, ...]:
    """The players who may leave now, in seat order: those still in, while the game is on (else none)."""
    if over:
        return ()
    staying = [seat for seat in seats if seat.name in still_in]
    return tuple(
        Leaver(
            name=seat.name,
            colour=seat.colour,
            light=is_light(seat.colour),
            question=question(seat.name, still_in),
            yes_text=f"Yes, {seat.name} leaves",
            done_text=f"{seat.name} left the game. {what_follows(seat.name, still_in)} Undo takes it back.",
        )
        for seat in staying
    )


def hint(still_in: Sequence[str]) -> str:
    """The line under the picker's title: leaving is for good, and what it means for this table."""
    if len(still_in) <= 2:
        return "Leaving is for good: the other player wins."
    return "Leaving is for good: the game goes on without them."


def what_follows(name: str, still_in: Sequence[str]) -> str:
    """What `name` leaving does to the game: the one player remaining wins; with more, play goes on."""
    rest = [player for player in still_in if player != name]
    if len(rest) == 1:
        return f"{rest[0]} wins."
    if not rest:
        return "The game ends."
    return f"Play goes on with {_and(rest)}."


def question(name: str, still_in: Sequence[str]) -> str:
    """``Ann leaves the game for good? Bo wins.``: asked before anyone leaves."""
    return f"{name} leaves the game for good? {what_follows(name, still_in)}"


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
