"""What the home screen shows: the games, seats and their colours, unfinished games, wins and past games.

Plain Python, tested without a window. Nothing here names a game: the list
comes from `companion.games` (each game's facts: its name, title, seats and
the variant the table may pick when it starts), read without loading any
game's rules. So a new game appears here with no edit to this file or to the
home screen, and the home screen starts quickly.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from companion import games
from companion.game import ABANDONED, LEFT, played
from companion.games import names
from companion.names import look, normal_name
from companion.palette import delta_e, hard_pairs, is_light
from ui.presenters import Variant, format_clock
from ui.theme import SEAT_COLOURS

MAX_SEATS = len(SEAT_COLOURS)
MIN_SEATS = 2


@dataclass(frozen=True)
class GameEntry:
    """One game on the home screen: its button's words, and its variant toggle if it has one."""

    game: str
    title: str
    seats: str
    variant: Variant | None = None
    tool: bool = False
    """A tool for any board game (the score pad): listed apart, under "Any game"."""


def seats_text(low: int, high: int) -> str:
    """``"2 players"`` or ``"2–4 players"``."""
    return f"{low} players" if low == high else f"{low}–{high} players"


def game_entries() -> list[GameEntry]:
    """Every game in the registry, in its order; a game whose rules have not landed yet is left out."""
    entries = []
    for name in names():
        facts = games.facts(name)
        # What home can seat: a tool takes more through `companion play` (up to 10), but home has a seat colour
        # each for MAX_SEATS players, and "1–8 players" beside a table that stops at 5 would mislead.
        seats = seats_text(facts.min_players, min(facts.max_players, MAX_SEATS))
        entries.append(GameEntry(name, facts.title, seats, facts.variant, facts.tool))
    return entries


def tools_hint(entries: Sequence[GameEntry]) -> str:
    """The cue that the tools wait below the games, in words ("" with no tool): "More below, under Any game:
    Dice tray, ..." (issue 27: at 800×480 they lie below the fold, and a scroll bar alone is easy to miss)."""
    titles = [entry.title for entry in entries if entry.tool]
    return f"More below, under Any game: {', '.join(titles)}" if titles else ""


def title_of(game: str) -> str:
    """What the table calls `game` (its name, if it is no longer known); for the wins of a game the table named
    on a tool (`companion.game.wins_under`), that name: "Carcassonne"."""
    game, title = played(game)
    if title:
        return title
    try:
        return games.facts(game).title
    except (LookupError, ImportError, AttributeError):
        return game


# -- seats -----------------------------------------------------------------------------------


def free_colour(taken: Iterable[str]) -> str:
    """The first seat colour nobody has (the first one if all are taken)."""
    used = set(taken)
    return next((c for c in SEAT_COLOURS if c not in used), SEAT_COLOURS[0])


def next_colour(current: str, taken: Iterable[str]) -> str:
    """The colour after `current` that nobody else has (`current` itself if there is none)."""
    used = set(taken)
    start = SEAT_COLOURS.index(current) if current in SEAT_COLOURS else -1
    for step in range(1, len(SEAT_COLOURS) + 1):
        candidate = SEAT_COLOURS[(start + step) % len(SEAT_COLOURS)]
        if candidate not in used:
            return candidate
    return current


def colour_pairs(seats: Sequence[tuple[str, str]]) -> set[frozenset[str]]:
    """The seated colours that make a hard pair (`colour_warning`), each pair as its two colours."""
    return {frozenset((seats[i][1].lower(), seats[j][1].lower())) for i, j in hard_pairs([c for _, c in seats])}


def colour_warning(seats: Sequence[tuple[str, str]], put_away: Collection[frozenset[str]] = ()) -> str:
    """One sentence when two seated colours would be hard to tell apart, else "" (issue 28).

    `seats` are (name as typed, colour) in seat order. Hard: closer than ΔE 40 to normal eyes or to a
    deuteranope, protanope or tritanope (`companion.palette.hard_pairs`). The table's own five colours are
    never a hard pair; two seats come to one only through a colour kept from an older game, or an Undo that
    gives a removed seat back its colour after another seat took it. The first hard pair is named, unless the
    table put that pair of colours away (`put_away`, as `colour_pairs` gives them); once it is changed the
    next one (if any) is said.
    """
    for first, second in hard_pairs([colour for _, colour in seats]):
        a, b = seats[first][1].lower(), seats[second][1].lower()
        if frozenset((a, b)) in put_away:
            continue
        one = normal_name(seats[first][0]) or f"Seat {first + 1}"
        other = normal_name(seats[second][0]) or f"Seat {second + 1}"
        if a == b:
            return f"{one} and {other} have the same colour: tap a colour to change it."
        if delta_e(a, b) < 40:
            return f"{one}'s and {other}'s colours look alike: tap a colour to change it."
        return f"{one}'s and {other}'s colours look alike to a colour-blind player: tap a colour to change it."
    return ""


# -- unfinished games, wins and history ----------------------------------------------------------------------


def _player_names(options: Mapping[str, Any]) -> str:
    return ", ".join(p["name"] for p in options.get("players", []))


def names_that_fit(names: Sequence[str], room: float, measure: Callable[[str], float]) -> str:
    """As many whole names as fit in `room` (as `measure` sizes text), then how many more: never a name cut.

    ``"Ann, Bo, Cy"``, ``"Bartholomew Fenn, Ann +3"``; when not even one fits, ``"5 players"``.
    """
    for shown in range(len(names), 0, -1):
        rest = len(names) - shown
        text = ", ".join(names[:shown]) + (f" +{rest}" if rest else "")
        if measure(text) <= room:
            return text
    return f"{len(names)} players" if names else ""


@dataclass(frozen=True)
class UnfinishedEntry:
    """One unfinished game on the home screen: what its row says, and what Discard asks first."""

    game_id: int
    title: str
    players: str
    detail: str
    question: str
    names: tuple[str, ...] = ()
    """Every player's name, whole (the row may shorten `players`; a tap shows these)."""


def moves_words(moves: int) -> str:
    return "1 move" if moves == 1 else f"{moves} moves"


def last_played_words(at: float, now: float) -> str:
    """``"today 19:24"``, ``"yesterday 21:05"`` or ``"3 Nov 20:10"``, in the appliance's local time."""
    then = datetime.fromtimestamp(at)
    days = (datetime.fromtimestamp(now).date() - then.date()).days
    clock = then.strftime("%H:%M")
    if days == 0:
        return f"today {clock}"
    if days == 1:
        return f"yesterday {clock}"
    return f"{then.day} {then.strftime('%b')} {clock}"


def unfinished_entries(games: Iterable[Any], now: float) -> list[UnfinishedEntry]:
    """One row per unfinished game (`Store.unfinished_games()`, newest first): game, players, moves, last played."""
    entries = []
    for item in games:
        record = item.record
        title, players = title_of(record.game), _player_names(record.options)
        names = tuple(str(p["name"]) for p in record.options.get("players", []))
        detail = f"{moves_words(item.moves)} · {last_played_words(item.last_played, now)}"  # last played
        question = (
            f"Discard {title} with {players} ({moves_words(item.moves)})? "
            "It goes to Past games as ended without a result, and can be taken back from there."
        )
        entries.append(UnfinishedEntry(record.id, title, players, detail, question, names))
    return entries


NO_WINS = "No finished games yet."
CHART_PLAYERS = 3
"""Players shown per game in the wins chart (the rest are "+N more")."""


def wins_line(wins: Mapping[str, int], *, most: int = 8) -> str:
    return "   ".join(f"{name} {count}" for name, count in list(wins.items())[:most]) or NO_WINS


@dataclass(frozen=True)
class Bar:
    """One player's bar in the wins chart: the name, the count, its length (0–1) and the player's colour."""

    name: str
    count: int
    share: float
    colour: str


@dataclass(frozen=True)
class WinsRow:
    """One game's row of the wins chart: its title, the bars of its top players, and how many more won."""

    game: str
    title: str
    bars: tuple[Bar, ...]
    more: int

    @property
    def more_words(self) -> str:
        return f"+{self.more} more" if self.more else ""


def player_colour(name: str) -> str:
    """A player's colour in the wins charts: chosen by their name alone, so the same in every chart, every time.

    Not by rank (a rank changes with every win: "Cy (yellow) was drawn red once and blue the next time"), and
    not by Python's `hash` (different in every run). Two players may share a colour: their names stand beside
    their bars, so colour is never the only cue.
    """
    digest = hashlib.sha256(look(name).encode("utf-8")).digest()
    return SEAT_COLOURS[int.from_bytes(digest[:4], "big") % len(SEAT_COLOURS)]


def _colours(totals: Mapping[str, int]) -> dict[str, str]:
    return {name: player_colour(name) for name in totals}


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on `colour` (a seat chip's number on its colour): the one rule,
    `companion.palette.is_light`."""
    return "#000000" if is_light(colour) else "#ffffff"


def _bars(wins: Mapping[str, int], colours: Mapping[str, str], most: int) -> tuple[Bar, ...]:
    top = sorted(wins.items(), key=lambda item: (-item[1], item[0]))[:most]
    highest = max((count for _, count in top), default=0) or 1
    return tuple(Bar(name, count, count / highest, colours[name]) for name, count in top)


STRIP_PLAYERS = 3
"""Players on the home screen's wins strip: three names read whole beside Past games and Settings at 800×480."""


def wins_strip(wins: Mapping[str, int], *, most: int = STRIP_PLAYERS) -> tuple[Bar, ...]:
    """The home screen's strip: the players with the most wins over every game (`Store.win_counts()`)."""
    return _bars(wins, _colours(wins), most)


def in_seat_colours(bars: Sequence[Bar], seats: Iterable[tuple[str, str]]) -> tuple[Bar, ...]:
    """The home strip's bars in the colours of the seats their players sit in now; "" (drawn grey) for a player
    not seated. On home a colour means a seat: a bar in seat 2's colour beside another name would say it is
    theirs (the chart in its popup keeps each name's own colour)."""
    colours = {look(name): colour for name, colour in seats}
    return tuple(replace(bar, colour=colours.get(look(bar.name), "")) for bar in bars)


def wins_chart(wins_by_game: Mapping[str, Mapping[str, int]], *, most: int = CHART_PLAYERS) -> list[WinsRow]:
    """One row per game somebody has won (`Store.wins_by_game()`), in the registry's order: its top players.

    Each bar's length is its share of the row's best, so every game's leader is seen at a glance; the counts
    are written beside them. A player keeps one colour in every row.
    """
    totals: dict[str, int] = {}
    for wins in wins_by_game.values():
        for name, count in wins.items():
            totals[name] = totals.get(name, 0) + count
    colours = _colours(totals)
    order = {entry.game: i for i, entry in enumerate(game_entries())}
    rows = []
    # a game the table named on a tool comes after that tool's place, by its name: Carcassonne beside Quin
    for game in sorted(wins_by_game, key=lambda g: (order.get(played(g)[0], len(order)), played(g)[1].casefold(), g)):
        wins = {name: count for name, count in wins_by_game[game].items() if count > 0}
        if wins:
            rows.append(WinsRow(game, title_of(game), _bars(wins, colours, most), max(0, len(wins) - most)))
    return rows


# -- past games --------------------------------------------------------------------------------------------

PAST_PER_PAGE = 5


@dataclass(frozen=True)
class PastGame:
    """One finished game in the past games: game, players, result and when it ended."""

    game_id: int
    title: str
    players: str
    result: str
    when: str
    abandoned: bool = False
    """Ended without a result: it can be taken back into the unfinished games."""
    names: tuple[str, ...] = ()

    @property
    def line(self) -> str:
        return f"{self.title}  {self.players}: {self.result}, {self.when}"


ENDED_WITHOUT_RESULT = "Ended without a result"


def result_words(outcome: Mapping[str, Any] | None, players: Sequence[str], *, tool: bool = False) -> str:
    """``"won by Ann"``, ``"won by Ann: Bo left"``, ``"won by Cy, the last one still in"``, ``"won by Ann, Bo"``,
    ``"a tie"`` or ``"Ended without a result"``.

    A game won because nobody else is still in does not say the others left: in a game with knock-outs some
    were knocked out, and the outcome does not say which ("won by Cy: the others left" when Ann was knocked out).
    """
    outcome = outcome or {}
    if outcome.get("reason") == ABANDONED:
        return ENDED_WITHOUT_RESULT
    winners = list(outcome.get("winners", []))
    if not winners:
        # A tool for any game (a dice tray, a turn clock) is put away, not tied: its own sentence says how.
        return str(outcome.get("detail") or "put away") if tool else "a tie"
    words = f"won by {', '.join(winners)}"
    if outcome.get("reason") == LEFT:
        others = [p for p in players if p not in winners]
        words += f": {others[0]} left" if len(others) == 1 else ", the last one still in"
    return words


def _is_tool(game: str) -> bool:
    """Whether `game` is a tool for any game (a game this version does not know is not)."""
    try:
        return games.facts(game).tool
    except LookupError:
        return False


def past_games(records: Iterable[Any], now: float) -> list[PastGame]:
    """One entry per finished game (`Store.finished(...)`, newest first)."""
    out = []
    for record in records:
        names = [p["name"] for p in record.options.get("players", [])]
        when = last_played_words(record.finished_at, now) if record.finished_at is not None else ""
        result = result_words(record.outcome, names, tool=_is_tool(record.game))
        abandoned = (record.outcome or {}).get("reason") == ABANDONED
        title = (record.outcome or {}).get("title") or title_of(record.game)  # the game played on a tool: its name
        out.append(PastGame(record.id, str(title), ", ".join(names), result, when, abandoned, tuple(names)))
    return out


@dataclass(frozen=True)
class PastPage:
    """Which page of the past games is shown, and what its header says."""

    page: int
    count: int
    per_page: int = PAST_PER_PAGE

    @property
    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.per_page

    @property
    def has_newer(self) -> bool:
        return self.page > 1

    @property
    def has_older(self) -> bool:
        return self.page < self.pages

    def to(self, page: int) -> PastPage:
        """Page `page`, kept between the first and the last."""
        return PastPage(min(max(1, page), self.pages), self.count, self.per_page)

    @property
    def words(self) -> str:
        """``"Games 6–10 of 2,000, newest first"`` (or the empty state)."""
        if not self.count:
            return NO_WINS
        last = min(self.offset + self.per_page, self.count)
        return f"Games {self.offset + 1:,}–{last:,} of {self.count:,}, newest first"


def history_text(records: Sequence[Any]) -> str:
    """Finished games, newest first, one line each (Kivy markup)."""
    lines = []
    for game in records:
        winners = ", ".join((game.outcome or {}).get("winners", []))
        result = f"won by {winners}" if winners else "a tie"
        players = _player_names(game.options)
        lines.append(f"[b]{title_of(game.game)}[/b]  {players}: {result}, {format_clock(game.elapsed)}")
    return "\n".join(lines) or NO_WINS
