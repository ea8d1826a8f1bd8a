"""What the table sees of a score pad, and its news in sentences. A score pad keeps no secrets."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import everything_public
from companion.game import Event, GameView, PlayerLeft, UnknownEvent, addressed
from companion.games.score_pad.rules import (
    Cleared,
    Ended,
    Named,
    RoundAdded,
    Scored,
    ScorePadState,
    players_in,
    win_words,
)

public_event = everything_public


@dataclass(frozen=True)
class Column:
    """One player's column: their name, their running total (None once they left: RULINGS, a leaver has no
    score) and whether they lead."""

    player: str
    total: int | None
    leads: bool
    left: bool


@dataclass(frozen=True, kw_only=True)
class ScorePadView(GameView):
    """The whole pad: the game's name, how it is won, the columns with their totals, and every round's cells."""

    title: str  # "" until the table names the game
    wins: str  # "highest" or "lowest"
    columns: tuple[Column, ...]
    cells: tuple[tuple[int | None, ...], ...]  # [round][seat]
    leaders: tuple[str, ...]  # who leads now (all of them on a tie); nobody before the first points
    lead: int | None  # the leaders' total


@dataclass(frozen=True, kw_only=True)
class ScorePadOwnView(ScorePadView):
    """The table's view, with the player's own name picked out (a score pad has nothing private)."""

    you: str


def public_view(state: ScorePadState) -> ScorePadView:
    leaders = state.leaders()
    still_in = set(players_in(state))
    columns = tuple(
        Column(p, state.total(p) if p in still_in else None, p in leaders, p not in still_in) for p in state.players
    )
    return ScorePadView(
        title=state.title,
        wins=state.wins,
        columns=columns,
        cells=state.cells,
        leaders=leaders,
        lead=state.total(leaders[0]) if leaders else None,
    )


def private_view(state: ScorePadState, player: str) -> ScorePadOwnView:
    return addressed(public_view(state), ScorePadOwnView, you=player)


revealed_view = public_view  # nothing hidden: the end reveals nothing more


def tell(event: Event, state: ScorePadState) -> str:
    """The sentence the table reads for `event`, in the state it led to."""
    match event:
        case Named(title=title, wins=wins):
            return f"Scoring {title}: the {wins} total wins."
        case Scored(player=player, round=number, points=points):
            return f"{player}: {points} in round {number}, {state.total(player)} in all."
        case Cleared(player=player, round=number):
            return f"{player}'s round {number} is empty again, {state.total(player)} in all."
        case RoundAdded(round=number):
            return f"Round {number} added."
        case Ended():
            leaders = state.leaders()
            if not leaders:
                return "The game is over."
            return win_words(state.title, leaders, state.total(leaders[0]))
        case PlayerLeft(player=player):
            still = len(players_in(state))
            others = f"; {still} still playing" if still else "; nobody is left to play"
            return f"{player} left the game: their scores stay on the pad{others}."
    raise UnknownEvent("Score pad", event)
