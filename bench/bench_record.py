"""What telling a game's story costs: `companion.record.story` of a long game, against folding it bare.

The story (the Log screen, the replay slider, `companion export`) folds the
stored events as a resume does, and for every step also asks the game for its
sentences and each event's public form; each step's public view is drawn only
when read (the replay's one step, the export's last), so the story reads one
here, as an export does. The baseline,
measured in the same run on the same file, is the fold alone: reading the
moves, reading each event back as its class and evolving the state. A long
game is a Quintet evening of five players and a thousand moves.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bench.__main__ import line
from companion import record
from companion.dice import RandomDice
from companion.game import Options, RuleError
from companion.games import game
from companion.session import Session
from companion.store import Store

PLAYERS = ("Ann", "Bo", "Cy", "Dee", "Eve")
MOVES = 1000


def long_game(path: Path, moves: int = MOVES) -> int:
    """A Quintet game of `moves` moves, nobody captured (so it never ends), saved in the games file at `path`."""
    with Store.open(path) as store:
        session = Session.start(store, "quintet", Options.for_names(*PLAYERS), dice=RandomDice.seeded(7))
        while len(session.moves) < moves:
            player = session.current_player
            assert player is not None, "the game ended: nobody is captured in it"
            if session.state.phase == "circle":
                session.act({"type": "set_circle", "by": player, "order": list(PLAYERS)})
                continue
            try:
                session.act({"type": "roll", "player": player})
            except RuleError:  # a roll still to play out: the turn ends without a capture
                session.act({"type": "end_turn", "player": player})
        return session.game_id


def fold_bare(store: Store, game_id: int) -> object:
    """The game's last state, folded from its stored events and nothing else (what a resume does)."""
    found = store.game(game_id)
    assert found is not None
    entry = game(found.game)
    state = entry.setup(Options.from_json(found.options))
    for move in store.moves(game_id):
        if not move.undone:
            for stored in move.events:
                state = entry.evolve(state, entry.event_from_json(stored))
    return state


def story_of_a_long_game(folder: Path, moves: int = MOVES, rounds: int = 5) -> list[str]:
    path = folder / "games.db"
    game_id = long_game(path, moves)
    told, bare = [], []
    with Store.read(path) as store:
        for _ in range(rounds):  # interleaved, so the machine's mood hits both alike
            t0 = time.perf_counter()
            fold_bare(store, game_id)
            t1 = time.perf_counter()
            story = record.story(store, game_id)
            seen = story.final_view  # what an export reads besides the steps
            t2 = time.perf_counter()
            assert len(story.steps) == moves and not seen["over"]
            bare.append(t1 - t0)
            told.append(t2 - t1)
    t, b = statistics.median(told), statistics.median(bare)
    return [
        line(f"story of a {moves:,}-move game", f"{t * 1e3:.0f} ms", f"{b * 1e3:.0f} ms", t / b, "≤ 2×"),
        f"{'':<46} (baseline: folding the same stored events bare)",
    ]


def run() -> list[str]:
    folder = Path(tempfile.mkdtemp(prefix="bench-record-"))
    try:
        return story_of_a_long_game(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
