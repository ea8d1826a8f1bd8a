"""What the Quintet table sees and reads: the view of a game, and its news in sentences.

Quintet has no secrets: every player sees what the table sees, and every
event is shown as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.engine import everything_public
from companion.game import Event, GameView, PlayerLeft, UnknownEvent, addressed
from companion.games.quintet.rules import (
    CIRCLE,
    OPENING,
    PLAY,
    RULE7,
    RULE8,
    AllianceCapture,
    AlliancePair,
    AlliancesSettled,
    Capture,
    Captured,
    CircleSet,
    GameWon,
    OpeningRolled,
    OpeningWon,
    PlayerOut,
    QuintetState,
    Rolled,
    RolledOn,
    SafetyTaken,
    TurnEnded,
    due_to_roll,
    legal_actions,
)

public_event = everything_public


def circle_text(circle: Sequence[str]) -> str:
    """``Ann → Bo → Cy → Ann``: the capturing circle as a sentence."""
    return " → ".join([*circle, circle[0]]) if circle else ""


def legal_captures(state: QuintetState) -> list[Capture | AllianceCapture]:
    """The captures the table may record right now: the mover's turn's, or the rule 8 question's."""
    if state.current is None:
        return []
    return [a for a in legal_actions(state, state.current) if isinstance(a, Capture | AllianceCapture)]


@dataclass(frozen=True)
class PlayerSeen:
    """One seat: its colour, tokens on the board, whether it is out, and its place in the circle (None outside it)."""

    name: str
    colour: str
    tokens: int
    out: bool
    prey: str | None
    predator: str | None


@dataclass(frozen=True)
class OpeningSeen:
    """One opening roll and its total."""

    player: str
    dice: tuple[int, int]
    total: int


@dataclass(frozen=True)
class RollOnSeen:
    """One roll on: where the player's two tokens entered."""

    player: str
    dice: tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class QuintetView(GameView):
    """The whole table: players and tokens, the circle, the dice, what may be captured. Quintet keeps no secrets."""

    phase: str
    players: tuple[PlayerSeen, ...]
    circle: tuple[str, ...]
    arrows: tuple[tuple[str, str], ...]  # (predator, prey) round the circle
    circle_text: str
    current: str | None
    first: str | None
    opening: tuple[OpeningSeen, ...]
    rolled_on: tuple[RollOnSeen, ...]
    dice: tuple[int, int] | None
    extra_turn: bool
    safety_offer: int
    safety_taken: int
    landings: int
    alliances: tuple[AlliancePair, ...]
    captures: tuple[Capture | AllianceCapture, ...]  # the legal captures now: the buttons send these
    due_to_roll: str | None
    out: tuple[str, ...]
    gone: tuple[str, ...]
    winner: str | None
    turns: int
    rolls: int


@dataclass(frozen=True, kw_only=True)
class QuintetOwnView(QuintetView):
    """The table's view with the player's own name picked out."""

    you: str


def public_view(state: QuintetState) -> QuintetView:
    """The whole table: players and tokens, the circle, the dice, and what may be captured."""
    colours = dict(zip(state.seats, state.colours, strict=True))
    circle = state.circle
    in_circle = len(circle) > 1
    return QuintetView(
        phase=state.phase,
        players=tuple(
            PlayerSeen(
                name=p,
                colour=colours[p],
                tokens=n,
                out=p in state.out,
                prey=state.prey_of(p) if p in state.circle and in_circle else None,
                predator=state.predator_of(p) if p in state.circle and in_circle else None,
            )
            for p, n in zip(state.seats, state.tokens, strict=True)
        ),
        circle=circle,
        arrows=tuple((p, state.prey_of(p)) for p in circle) if in_circle else (),
        circle_text=circle_text(circle),
        current=state.current,
        first=state.first,
        opening=tuple(OpeningSeen(r.player, r.dice, r.total) for r in state.opening),
        rolled_on=tuple(RollOnSeen(r.player, r.dice) for r in state.rolled_on),
        dice=state.dice,
        extra_turn=state.extra_turn,
        safety_offer=state.safety_offer,
        safety_taken=state.safety_taken,
        landings=state.landings,
        alliances=state.alliances,
        captures=tuple(legal_captures(state)),
        due_to_roll=due_to_roll(state),
        out=state.out,
        gone=state.gone,
        winner=state.winner,
        turns=state.turns,
        rolls=state.rolls,
    )


def private_view(state: QuintetState, player: str) -> QuintetOwnView:
    """The table's view with the player's own name picked out: Quintet keeps no secrets."""
    return addressed(public_view(state), QuintetOwnView, you=player)


revealed_view = public_view  # nothing to reveal at the end


def tell(event: Event, state: QuintetState) -> str:
    """The sentence the table reads for `event` in the `state` it led to."""
    if isinstance(event, PlayerOut) and len(event.circle) < 2:
        return f"{event.player} is out."  # the win that follows says the rest
    return news(event, state)


def _allies_question(state: QuintetState) -> str:
    """The question a closing circle asks (rule 8), in plain words first: old allies may now be predator and prey.

    A circle that closes over a gap always joins a new pair (a circle of one ends the game, and is told so).
    """
    pairs = "; ".join(f"{p.by} and {p.of} were allies: now {p.by} may capture {p.of} (rule 8)" for p in state.alliances)
    return f" {pairs}. Does a space hold them both?"


def news(event: Event | None, state: QuintetState) -> str:
    """What the table reads after `event` (the last of an action's events), in the `state` it led to.

    With no event yet, how the game opens.
    """
    match event:
        case None:
            return f"Opening roll: {state.seats[0]} rolls first; the highest total plays first."
        case OpeningRolled(player=player, dice=(a, b)):
            follows = f" {state.current} rolls next." if state.current not in (None, player) else ""
            return f"{player} rolled {a} and {b}: {a + b}.{follows}"
        case OpeningWon(player=winner, total=total, tied=tied):
            tie = f" ({', '.join(tied)} also rolled {total}, but later.)" if tied else ""
            return f"{winner} rolled the highest, {total}, plays first and sets the capturing circle.{tie}"
        case CircleSet(order=circle):
            return f"Capturing circle: {circle_text(circle)}. {state.first} rolls on first."
        case RolledOn(player=player, dice=(a, b)):
            where = (
                f"both tokens on space {a}: a barricade" if a == b else f"tokens on spaces {min(a, b)} and {max(a, b)}"
            )
            follows = (
                f"Everyone is on the board: {state.first} rolls."
                if state.phase == PLAY
                else f"{state.current} rolls on next."
            )
            return f"{player} rolled {a} and {b} and enters {where}. {follows}"
        case TurnEnded(next_player=nxt, extra=extra):
            return f"{nxt} takes the extra turn from double fives." if extra else f"{nxt}'s turn."
        case Rolled(player=player, dice=(a, b), double_fives=double_fives, safety=safety):
            said = f"{player} rolled {a} and {b}."
            if double_fives:
                said += " Double fives: move, then roll again."
            if safety == 2:
                said += " Double sixes: both tokens may enter Safety."
            elif safety == 1:
                said += " A six: a token may enter the nearest Safety space."
            return said
        case SafetyTaken(player=player, tokens=tokens):
            return f"{player}: {'both tokens enter' if tokens == 2 else 'a token enters'} Safety."
        case Captured(by=by, of=of, rule=rule, left=left):
            how = {
                RULE7: f" ({of} landed on its predator, rule 7)",
                RULE8: f" (old allies: {by} may now capture {of}, rule 8)",
            }
            return f"{by} captured a token of {of}{how.get(rule, '')}; {of} has {left} left."
        case PlayerOut(player=gone, circle=circle):
            said = f"{gone} is out. New capturing circle: {circle_text(circle)}." + _allies_question(state)
            if state.phase == PLAY and state.dice is None:  # the mover went out: the turn has passed on
                said += f" {state.current}'s turn."
            return said
        case AlliancesSettled():
            goes_on = "goes on" if state.dice is not None else "rolls"
            return f"No old allies shared a space. {state.current} {goes_on}."
        case GameWon(player=winner):
            return f"{winner} is the last player standing and wins!"
        case PlayerLeft(player=gone):
            if len(state.still_in) == 1:
                return f"{gone} left the game. {state.still_in[0]} is the only player left and wins!"
            if state.phase in (OPENING, CIRCLE):
                return f"{gone} left the game. {state.current} is next."
            said = f"{gone} left the game. New capturing circle: {circle_text(state.circle)}." + _allies_question(state)
            return f"{said} {state.current}'s turn." if state.phase == PLAY and state.dice is None else said
        case _:
            raise UnknownEvent("Quintet", event)
