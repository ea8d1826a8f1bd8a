"""What the finger chooser's table sees and reads: the last choice, how many were made, and its sentences.

Nothing is secret: every finger is on the same glass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.engine import everything_public
from companion.game import Event, GameView, PlayerLeft, UnknownEvent, addressed
from companion.games.finger_chooser.rules import ChooserPutAway, ChooserState, FingerChosen, Round, TeamsMade

public_event = everything_public

TEAM_LETTERS = "ABCDE"
"""Team names, in the order the dice dealt them: a letter on every ring, so no team is told by colour alone."""


@dataclass(frozen=True)
class RoundSeen:
    """One choice: the rings present, the ring chosen (or None), the teams (each a tuple of rings), in words."""

    fingers: tuple[int, ...]
    chosen: int | None
    teams: tuple[tuple[int, ...], ...]
    said: str


@dataclass(frozen=True, kw_only=True)
class ChooserView(GameView):
    """The chooser: every choice so far (the last one is what the screen shows), and whether it is put away."""

    seats: tuple[str, ...]
    rounds: tuple[RoundSeen, ...]
    last: RoundSeen | None
    choices: int
    put_away: bool


@dataclass(frozen=True, kw_only=True)
class ChooserOwnView(ChooserView):
    """The table's view with the player's own name picked out."""

    you: str


def rings(fingers: Sequence[int]) -> str:
    """``rings 1, 3 and 4``; ``ring 2``."""
    words = [str(f) for f in fingers]
    if len(words) == 1:
        return f"ring {words[0]}"
    return f"rings {', '.join(words[:-1])} and {words[-1]}"


def said(round_: Round) -> str:
    """The sentence for one choice: "Ring 3 is chosen, of 5 fingers." or "2 teams: A has rings 1 and 4; B has ..."."""
    if round_.chosen is not None:
        return f"Ring {round_.chosen} is chosen, of {len(round_.fingers)} fingers."
    teams = "; ".join(f"{TEAM_LETTERS[i]} has {rings(team)}" for i, team in enumerate(round_.teams))
    return f"{len(round_.teams)} teams: {teams}."


def _seen(round_: Round) -> RoundSeen:
    return RoundSeen(round_.fingers, round_.chosen, round_.teams, said(round_))


def public_view(state: ChooserState) -> ChooserView:
    """Every choice so far, the last one apart."""
    seen = tuple(_seen(r) for r in state.rounds)
    return ChooserView(
        seats=state.seats,
        rounds=seen,
        last=seen[-1] if seen else None,
        choices=len(seen),
        put_away=state.put_away,
    )


def private_view(state: ChooserState, player: str) -> ChooserOwnView:
    """The table's view with the player's own name picked out: the chooser keeps no secrets."""
    return addressed(public_view(state), ChooserOwnView, you=player)


revealed_view = public_view  # nothing to reveal at the end


def tell(event: Event, state: ChooserState) -> str:
    """The sentence the table reads for `event` in the `state` it led to."""
    match event:
        case FingerChosen() | TeamsMade():
            return said(state.rounds[-1])
        case ChooserPutAway(choices=choices):
            made = "1 choice" if choices == 1 else f"{choices} choices"
            return f"The chooser was put away after {made}."
        case PlayerLeft(player=gone):
            return f"{gone} left the game."
    raise UnknownEvent("Finger chooser", event)
