"""What the home screen shows: the games (from the registry), seats and their colours, unfinished games and results.

Plain Python, tested without a window. Nothing here names a game: the list
comes from `companion.games` (each game's facts: its name, title, seats and
the variant the table may pick when it starts), read without loading any
game's rules. So a new game appears here with no edit to this file or to the
home screen, and the home screen starts quickly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion import games
from companion.games import names
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


def seats_text(low: int, high: int) -> str:
    """``"2 players"`` or ``"2–4 players"``."""
    return f"{low} players" if low == high else f"{low}–{high} players"


def game_entries() -> list[GameEntry]:
    """Every game in the registry, in its order; a game whose rules have not landed yet is left out."""
    entries = []
    for name in names():
        facts = games.facts(name)
        seats = seats_text(facts.min_players, facts.max_players)
        entries.append(GameEntry(name, facts.title, seats, facts.variant))
    return entries


def title_of(game: str) -> str:
    """What the table calls `game` (its name, if it is no longer known)."""
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


# -- unfinished games, wins and history ----------------------------------------------------------------------


def _player_names(options: Mapping[str, Any]) -> str:
    return ", ".join(p["name"] for p in options.get("players", []))


@dataclass(frozen=True)
class UnfinishedEntry:
    """One unfinished game on the home screen: what its row says, and what Discard asks first."""

    game_id: int
    title: str
    players: str
    detail: str
    question: str


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
        detail = f"{moves_words(item.moves)} · {last_played_words(item.last_played, now)}"  # last played
        question = f"Discard {title} with {players} ({moves_words(item.moves)})? It cannot be resumed afterwards."
        entries.append(UnfinishedEntry(record.id, title, players, detail, question))
    return entries


def wins_line(wins: Mapping[str, int], *, most: int = 8) -> str:
    return "   ".join(f"{name} {count}" for name, count in list(wins.items())[:most]) or "No games yet."


def history_text(records: Sequence[Any]) -> str:
    """Finished games, newest first, one line each (Kivy markup)."""
    lines = []
    for game in records:
        winners = ", ".join((game.outcome or {}).get("winners", []))
        result = f"won by {winners}" if winners else "a tie"
        players = _player_names(game.options)
        lines.append(f"[b]{title_of(game.game)}[/b]  {players}: {result}, {format_clock(game.elapsed)}")
    return "\n".join(lines) or "No finished games yet."
