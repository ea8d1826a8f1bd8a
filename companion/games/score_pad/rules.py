"""The score pad's rules: name the game, score cells, add rounds, end.

Issue 27: "the table names the game ("Carcassonne"; the names used before are offered again) and the players; a
grid of rounds × players; a tap on a cell opens a big number pad (negative numbers too); running totals and who
leads; "highest wins" or "lowest wins"; **End** asks, then the winner(s) go into the history and the wins under
that game's name."

- ``name`` gives the game its name and says whether the highest or the lowest total wins. The screen asks it
  first; the rules need it only before the end (so a pad started headless may be named later), and it may be
  given again at any time before the end (a name mistyped, the wrong way round); Undo takes it back.
- ``score`` puts a player's points for one round in its cell (negative allowed); a cell scored again is
  replaced. A round up to one past the last may be scored: scoring the next round adds it.
- ``clear`` empties a cell again. ``add_round`` adds an empty round at the bottom.
- ``end`` ends the game once something is scored: the players still in with the best total win, all of them on
  a tie; the outcome carries the game's name (`Outcome.title`), so the wins count under it.
- A player who leaves (the engine's ``leave``) keeps their column as it was, is scored no more, has no total and
  is never among the winners; the others play on. Once nobody is left, the game ends without a winner.

No turns: anyone may be scored at any moment, in any order, as tables do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

from companion.dice import Dice
from companion.game import TIE, Action, Event, Options, Outcome, Seat, UnknownEvent, require
from companion.games.score_pad.settings import ScorePadSettings
from companion.names import normal_name

MAX_TITLE = 24
"""The longest name of a game, in characters: it stays whole on the score pad's bar and in the wins per game."""
MAX_POINTS = 999_999
"""The most points one cell holds, either way (six digits on the number pad)."""
MAX_ROUNDS = 999
"""The most rounds a pad holds: far beyond any evening, short of a grid nobody could scroll."""

WinsBy = Literal["highest", "lowest"]


class Ending(StrEnum):
    """How a score pad is won (`Outcome.reason`): the best total, as the table chose at the start."""

    HIGHEST = "highest total"
    LOWEST = "lowest total"


# -- the vocabulary ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NameGame(Action):
    """The table names the game it scores, and says how it is won: ``{"type": "name", "title": "Carcassonne",
    "wins": "highest"}``."""

    type = "name"
    title: str
    wins: WinsBy = "highest"


@dataclass(frozen=True, slots=True)
class Score(Action):
    """A player's points in one round (1 is the first): ``{"type": "score", "player": "Ann", "round": 3,
    "points": 12}``. Scoring a cell again replaces it."""

    type = "score"
    player: Seat
    round: int
    points: int


@dataclass(frozen=True, slots=True)
class Clear(Action):
    """A cell emptied again: ``{"type": "clear", "player": "Ann", "round": 3}``."""

    type = "clear"
    player: Seat
    round: int


@dataclass(frozen=True, slots=True)
class AddRound(Action):
    """An empty round at the bottom of the pad."""

    type = "add_round"


@dataclass(frozen=True, slots=True)
class End(Action):
    """The game is over: the best total wins (the screen asks first)."""

    type = "end"


@dataclass(frozen=True, slots=True)
class Named(Event):
    type = "named"
    title: str
    wins: str


@dataclass(frozen=True, slots=True)
class Scored(Event):
    type = "scored"
    player: str
    round: int
    points: int


@dataclass(frozen=True, slots=True)
class Cleared(Event):
    type = "cleared"
    player: str
    round: int


@dataclass(frozen=True, slots=True)
class RoundAdded(Event):
    type = "round_added"
    round: int


@dataclass(frozen=True, slots=True)
class Ended(Event):
    type = "ended"


ACTIONS = (NameGame, Score, Clear, AddRound, End)
EVENTS = (Named, Scored, Cleared, RoundAdded, Ended)
ScorePadAction = NameGame | Score | Clear | AddRound | End
ScorePadEvent = Named | Scored | Cleared | RoundAdded | Ended


# -- the state ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScorePadState:
    """The pad: its players in seat order, the game's name, how it is won, and one row of cells per round."""

    players: tuple[str, ...]
    cells: tuple[tuple[int | None, ...], ...]  # [round][seat]: the points, or None while empty
    title: str = ""  # "" until the table names the game
    wins: str = "highest"
    gone: tuple[str, ...] = ()  # left the game: their column stays, they are scored no more
    ended: bool = False

    @property
    def rounds(self) -> int:
        return len(self.cells)

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def total(self, player: str) -> int:
        """`player`'s running total: the sum of their cells (an empty cell adds nothing)."""
        seat = self.seat(player)
        return sum(row[seat] or 0 for row in self.cells)

    @property
    def scored(self) -> bool:
        """Whether any cell holds points."""
        return any(points is not None for row in self.cells for points in row)

    def leaders(self) -> tuple[str, ...]:
        """Who leads now (the best total among the players still in, all of them on a tie); nobody before the
        first points."""
        still_in = players_in(self)
        if not self.scored or not still_in:
            return ()
        totals = {player: self.total(player) for player in still_in}
        best = max(totals.values()) if self.wins == "highest" else min(totals.values())
        return tuple(player for player in still_in if totals[player] == best)


def setup(options: Options, settings: ScorePadSettings) -> ScorePadState:
    """An empty pad of one round for the seated players; the game is named by the first move."""
    return ScorePadState(options.names, ((None,) * len(options.players),))


# -- deciding ----------------------------------------------------------------------------------------------------


def title_problem(title: str) -> str | None:
    """Why `title` cannot name the game, in one sentence; None when it can."""
    if not normal_name(title):
        return "Name the game you are scoring, for example Carcassonne."
    if normal_name(title) != title:
        return f"The name {normal_name(title)!r} was given with extra spaces or invisible characters; give it plainly."
    if len(title) > MAX_TITLE:
        return f"A game's name can have at most {MAX_TITLE} characters; this one has {len(title)}."
    return None


def decide(state: ScorePadState, action: Action, dice: Dice) -> Sequence[Event]:
    """The events `action` causes, or `RuleError` with a sentence for the table. Rolls no dice."""
    match action:
        case NameGame(title=title, wins=wins):
            problem = title_problem(title)
            require(problem is None, problem or "")
            require(
                (title, wins) != (state.title, state.wins),
                f"The game is already {title}, the {wins} total winning.",
            )
            return [Named(title, wins)]
        case Score(player=player, round=number, points=points):
            _check_cell(state, player, number)
            require(
                -MAX_POINTS <= points <= MAX_POINTS,
                f"A round's points go from -{MAX_POINTS:,} to {MAX_POINTS:,}; {points:,} is beyond them.",
            )
            if number <= state.rounds:
                was = state.cells[number - 1][state.seat(player)]
                require(was != points, f"{player} already has {points} in round {number}.")
            return [Scored(player, number, points)]
        case Clear(player=player, round=number):
            _check_cell(state, player, number)
            empty = number > state.rounds or state.cells[number - 1][state.seat(player)] is None
            require(not empty, f"{player} has nothing in round {number} to clear.")
            return [Cleared(player, number)]
        case AddRound():
            require(state.rounds < MAX_ROUNDS, f"A score pad holds at most {MAX_ROUNDS} rounds.")
            return [RoundAdded(state.rounds + 1)]
        case End():
            require(bool(state.title), "Name the game first, so that its wins count under its name.")
            require(state.scored, "Nothing is scored yet: score a round before ending the game.")
            return [Ended()]
    raise AssertionError(f"the engine let through {action!r}")


def _check_cell(state: ScorePadState, player: str, number: int) -> None:
    require(player not in state.gone, f"{player} left the game; their scores stay as they were.")
    last = min(state.rounds + 1, MAX_ROUNDS)
    require(1 <= number <= last, f"There is no round {number}: the rounds go from 1 to {last}.")


# -- folding -----------------------------------------------------------------------------------------------------


def evolve(state: ScorePadState, event: Event) -> ScorePadState:
    """The pad after `event` (one this game made)."""
    match event:
        case Named(title=title, wins=wins):
            return replace(state, title=title, wins=wins)
        case Scored(player=player, round=number, points=points):
            return _put(state, player, number, points)
        case Cleared(player=player, round=number):
            return _put(state, player, number, None)
        case RoundAdded():
            return replace(state, cells=(*state.cells, (None,) * len(state.players)))
        case Ended():
            return replace(state, ended=True)
    raise UnknownEvent("Score pad", event)


def _put(state: ScorePadState, player: str, number: int, points: int | None) -> ScorePadState:
    cells = state.cells
    if number > len(cells):  # scoring the next round adds it
        cells = (*cells, (None,) * len(state.players))
    seat = state.seat(player)
    row = cells[number - 1]
    changed = (*row[:seat], points, *row[seat + 1 :])
    return replace(state, cells=(*cells[: number - 1], changed, *cells[number:]))


# -- what the engine asks ----------------------------------------------------------------------------------------


def outcome(state: ScorePadState) -> Outcome | None:
    """Once ended: the best total wins, all the leaders on a tie, under the game's name; once everyone has left,
    nobody."""
    if not state.ended and players_in(state):
        return None
    winners = state.leaders()
    if not winners:
        return Outcome((), TIE, "Everyone left the game.", title=state.title)
    reason = Ending.HIGHEST if state.wins == "highest" else Ending.LOWEST
    return Outcome(winners, reason, win_words(state.title, winners, state.total(winners[0])), title=state.title)


def win_words(title: str, winners: Sequence[str], total: int) -> str:
    """``"Ann wins Carcassonne with 83."`` or ``"Ann and Bo share the win in Carcassonne with 83."``."""
    if len(winners) == 1:
        return f"{winners[0]} wins{f' {title}' if title else ''} with {total}."
    names = ", ".join(winners[:-1]) + f" and {winners[-1]}"
    return f"{names} share the win{f' in {title}' if title else ''} with {total}."


def current_player(state: ScorePadState) -> str | None:
    """Nobody's turn: a score pad takes any player's points at any moment."""
    return None


def players_in(state: ScorePadState) -> tuple[str, ...]:
    return tuple(player for player in state.players if player not in state.gone)


def left(state: ScorePadState, player: str) -> ScorePadState:
    return replace(state, gone=(*state.gone, player))


def legal_actions(state: ScorePadState, player: str) -> list[Action]:
    """What can be listed: a new round, and the end. Names and points are typed in (asked with `refusal`)."""
    listed: list[Action] = []
    if state.rounds < MAX_ROUNDS:
        listed.append(AddRound())
    if state.title and state.scored:
        listed.append(End())
    return listed
