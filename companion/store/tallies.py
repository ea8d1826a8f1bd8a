"""The `Store`'s wins and dice statistics, read from the running tallies that `store.tally` keeps with every move;
counted again from the games (and kept) where a tally is missing, damaged or behind."""

from __future__ import annotations

import contextlib
import sqlite3

from companion.dicestats import DiceStats
from companion.game import TITLED, wins_under
from companion.store import tally
from companion.store.base import FINISHED, NotSaved
from companion.store.reading import Reading
from companion.store.writing import Writing


def _most_first(counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _apart(game: str, wins: dict[str, int]) -> dict[str, dict[str, int]]:
    """A game's wins row, with the wins of each game the table named on it (`tally.counted`) apart, each under
    `wins_under(game, title)`."""
    out: dict[str, dict[str, int]] = {}
    for counted, count in wins.items():
        title, titled, name = counted.partition(TITLED)
        under, name = (wins_under(game, title), name) if titled else (game, counted)
        out.setdefault(under, {})[name] = count
    return out


class Tallies(Reading, Writing):
    """Wins per player and per game, and dice statistics per game."""

    def win_counts(self) -> dict[str, int]:
        """Games won per player name, over every finished game on this appliance, most first."""
        counts: dict[str, int] = {}
        for wins in self.wins_by_game().values():
            for name, count in wins.items():
                counts[name] = counts.get(name, 0) + count
        return _most_first(counts)

    def wins_by_game(self) -> dict[str, dict[str, int]]:
        """Games won per game and player name over every finished game, most first; games nobody won left out.

        Ties and abandoned games count for nobody; a game won because the others left (reason "left") is a
        win. A game the table named on a tool (`Outcome.title`) has an entry of its own, under
        `companion.game.wins_under` (the score pad's name and "Carcassonne"; `played` reads them back).
        Read from the running wins tally (`store.tally`): one row per game, however many were played.
        Where that row is missing, damaged or behind, that game's wins are counted again once, and kept.
        """
        # The stamps are summed over the games' records: damage there is repaired at the store's edge, as any read's.
        kinds: dict[str, int] = self._guarded(lambda: tally.stamps(self._db)) or {}
        out = {}
        for game, at_stamp in sorted(kinds.items()):
            try:
                wins = tally.current_wins(self._db, game, at_stamp)
            except Exception:
                wins = None
            if wins is None:
                wins = self._count_wins_again(game, at_stamp)
            for under, counts in _apart(game, wins).items():
                out[under] = _most_first(counts)
        return dict(sorted(out.items()))

    def _count_wins_again(self, game: str, at_stamp: int) -> dict[str, int]:
        records = self._guarded(lambda: self._games(f"WHERE game = ? AND {FINISHED}", (game,))) or []
        wins = tally.count_wins(record.outcome for record in records)
        if not (self._writable and self._saving):
            return wins  # only looking, or moves are not being saved: counted, not kept
        with contextlib.suppress(NotSaved, sqlite3.Error), self._transaction() as db:
            if tally.wins_stamp(db, game) == at_stamp:  # nothing was written meanwhile
                tally.write_wins(db, game, wins, at_stamp)
        return wins

    def dice_stats(self, game: str) -> DiceStats:
        """Dice statistics over every live move of every game of one kind, from the running tally.

        The tally is kept with every move (`store.tally`); where it is missing, damaged or behind (a file made
        before it, a salvaged file), it is counted again from the moves once, and kept from then on.
        """
        try:
            counts = tally.current(self._db, game)
        except Exception:
            counts = None
        if counts is None:
            counts = self._count_dice_again(game)
        return DiceStats.of_tally(counts)

    def _count_dice_again(self, game: str) -> list[int]:
        before = self._guarded(lambda: tally.stamp(self._db, game))  # None: the games could not be read
        counts = tally.recount(event for move in self.all_moves(game) for event in move.events)
        if before is None or not (self._writable and self._saving):
            return counts  # only looking, or moves are not being saved: counted, not kept
        with contextlib.suppress(NotSaved, sqlite3.Error), self._transaction() as db:
            if tally.stamp(db, game) == before:  # nothing was written meanwhile
                tally.write(db, game, counts, before)
        return counts
