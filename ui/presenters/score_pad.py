"""What the score pad shows, and what a tap on it sends: plain Python, tested without a window.

Two faces. Before the game has a name: the question "What are you playing?", the names played here before (from
the wins per game, `Store.wins_by_game`), and "Highest total wins" or "Lowest total wins". Then the grid: a
column per player, a row per round, the totals under it with the leader marked, Add round and End. A tap on a
cell opens the number pad (`NumberPad`), whose OK gives the action to send.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.game import Action, played
from companion.games.score_pad import FACTS
from companion.games.score_pad.rules import (
    MAX_POINTS,
    MAX_TITLE,
    AddRound,
    Clear,
    End,
    NameGame,
    Score,
    ScorePadState,
    win_words,
)
from companion.games.score_pad.views import ScorePadOwnView, ScorePadView
from companion.names import normal_name
from companion.session import Session

ScorePadSession = Session[ScorePadState, ScorePadView, ScorePadOwnView]

PAST_TITLES = 6
"""Names played here before, offered as buttons: two rows of three."""
WINS_WORDS = {"highest": "Highest total wins", "lowest": "Lowest total wins"}
MINUS = "−"
"""The minus the pad shows (a real minus sign: wider than a hyphen, read at arm's length)."""
DIGITS = len(str(MAX_POINTS))


def past_titles(wins_by_game: Mapping[str, Mapping[str, int]], most: int = PAST_TITLES) -> list[str]:
    """The names of the games scored on the pad before (`Store.wins_by_game`), the most won first.

    Every game ended on the pad has a winner (a tie: all of them), so every name played to its end is here.
    """
    counts: dict[str, int] = {}
    for under, wins in wins_by_game.items():
        game, title = played(under)
        if game == FACTS.name and title:
            counts[title] = counts.get(title, 0) + sum(wins.values())
    return [title for title, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0].casefold()))][:most]


def points_text(points: int | None) -> str:
    """A cell's words: "" while empty, ``"12"``, ``"−3"`` (the minus sign the pad shows)."""
    if points is None:
        return ""
    return f"{MINUS}{-points}" if points < 0 else str(points)


@dataclass(frozen=True)
class CellShown:
    """One cell: its words, and the player and round a tap on it opens the number pad for."""

    text: str
    player: str
    round: int
    points: int | None


@dataclass(frozen=True)
class ColumnShown:
    """One player's column head and total: the name in their colour, the total, and whether they lead."""

    player: str
    colour: str
    total: str  # "37", or "left" for a player who left
    leads: bool
    left: bool


@dataclass(frozen=True)
class PadShown:
    """The whole screen: named or not, the grid, the totals, the leader in words, and what End asks."""

    named: bool
    title: str
    wins: str
    wins_words: str
    columns: tuple[ColumnShown, ...]
    rows: tuple[tuple[CellShown, ...], ...]
    leader: str  # "Ann leads with 37." / "Ann and Bo lead with 12." / "Tap a cell to score it."
    can_add_round: bool
    can_end: bool
    end_question: str  # "End the game? Ann wins with 83."
    over: bool
    tappable: bool = True  # cells open the pad (not once the game is over)
    notes: tuple[str, ...] = field(default=())


def present(view: ScorePadView, colours: Mapping[str, str]) -> PadShown:
    """What the screen shows of `view`; `colours` are the players' own (their seats')."""
    seen: set[str] = set()
    columns = []
    for c in view.columns:
        colour = colours.get(c.player, "")
        # A colour means one seat: past the fifth the table's colours come round again, and a second column in
        # Ann's red would say it is Ann's. Only the first player in a colour wears it.
        shown_colour = "" if colour.lower() in seen else colour
        seen.add(colour.lower())
        columns.append(ColumnShown(c.player, shown_colour, "left" if c.left else points_text(c.total), c.leads, c.left))
    players = [c.player for c in view.columns]
    rows = tuple(
        tuple(CellShown(points_text(p), players[seat], number, p) for seat, p in enumerate(row))
        for number, row in enumerate(view.cells, start=1)
    )
    scored = any(p is not None for row in view.cells for p in row)
    if view.over and view.outcome is not None:
        leader = f"Game over. {view.outcome.detail}" if view.outcome.detail else "Game over."
    elif view.leaders:
        verb = "leads" if len(view.leaders) == 1 else "lead"
        leader = f"{_and(view.leaders)} {verb} with {points_text(view.lead)}."
    else:
        leader = "Tap a cell to score it."
    question = ""
    if view.leaders and view.lead is not None:
        question = "End the game? " + win_words("", view.leaders, view.lead).replace("-", MINUS)
    return PadShown(
        named=bool(view.title),
        title=view.title,
        wins=view.wins,
        wins_words=WINS_WORDS.get(view.wins, ""),
        columns=tuple(columns),
        rows=rows,
        leader=leader,
        can_add_round=not view.over,
        can_end=not view.over and bool(view.title) and scored,
        end_question=question,
        over=view.over,
        tappable=not view.over,
    )


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def add_round() -> Action:
    return AddRound()


def end() -> Action:
    return End()


# -- naming the game -----------------------------------------------------------------------------------------


def name_action(typed: str, wins: str) -> NameGame:
    """The name as typed, as the table keeps it (spaces and invisible characters cleaned), and how it is won."""
    return NameGame(normal_name(typed)[: MAX_TITLE + 1], "lowest" if wins == "lowest" else "highest")


# -- the number pad -----------------------------------------------------------------------------------------

KEYS = ("1", "2", "3", MINUS, "4", "5", "6", "Clear", "7", "8", "9", "0")
"""The pad's keys, row by row, four to a row (OK and Cancel under them)."""


@dataclass
class NumberPad:
    """The number being typed for one cell: digits, a minus, Clear; OK gives the action to send (or none).

    Opened on a cell, it starts empty: the number typed replaces the cell's (the cell's own shows above it).
    """

    player: str
    round: int
    was: int | None = None
    digits: str = ""
    negative: bool = False

    @property
    def heading(self) -> str:
        """``"Ann, round 3"``."""
        return f"{self.player}, round {self.round}"

    @property
    def shown(self) -> str:
        """What the pad's display shows: the number so far (a lone minus while only it is typed), or the cell's."""
        if self.digits:
            return (MINUS if self.negative else "") + self.digits
        return MINUS if self.negative else ""

    @property
    def hint(self) -> str:
        """Under the display: what the cell holds now, and what OK does with nothing typed."""
        if self.was is None:
            return "Empty now. Type the points, then OK."
        return f"Now {points_text(self.was)}. Type new points, or OK to empty it."

    def press(self, key: str) -> None:
        """One key: a digit (at most six; a leading zero is dropped), the minus (on and off), or Clear."""
        if key == "Clear":
            self.digits, self.negative = "", False
        elif key == MINUS:
            self.negative = not self.negative
        elif key.isdigit() and len(self.digits) < DIGITS:
            self.digits = (self.digits + key).lstrip("0") or "0"

    @property
    def value(self) -> int | None:
        if not self.digits:
            return None
        number = int(self.digits)
        return -number if self.negative else number

    def ok(self) -> Action | None:
        """The action OK sends: the points typed; with nothing typed, emptying a cell that has points; else none."""
        value = self.value
        if value is None:
            return Clear(self.player, self.round) if self.was is not None else None
        if value == self.was:
            return None  # the same points again: nothing to change
        return Score(self.player, self.round, value)


def pad_for(cell: CellShown) -> NumberPad:
    return NumberPad(cell.player, cell.round, cell.points)
