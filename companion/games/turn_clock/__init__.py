"""The turn clock: a chess-style clock for 2 to 5 players, for any board game.

Each player has a total time for the whole game (with an increment added after
each of their turns, if chosen) or a time per turn. The current player's time
runs; a tap on the clock (or their GPIO button) ends the turn and passes the
clock on in seat order. Pausing is the engine's game clock: the turn clock
reads its times from the game's seconds of play (`Session.elapsed`, pauses
left out), which every action carries as ``at``, so the times are folded from
stored facts like everything else, undone and resumed with them.

Running out of time: the flag falls and is shown (and buzzed) and the table
plays on; the player is marked as out of time for good (a total time) or the
turn is counted as over time (a time per turn), and the end names them.
**Stop** ends the clock with each player's total and longest turn.

The parts: `rules`, `views`, `settings` (the time chosen at the start).
"""

from companion.engine import Facts, Variant

TIMES = (
    ("total 20m", "20 minutes each"),
    ("total 10m +5s", "10 min each, +5 s a turn"),
    ("total 5m", "5 minutes each"),
    ("total 60m", "1 hour each"),
    ("turn 60s", "1 minute a turn"),
    ("turn 30s", "30 seconds a turn"),
    ("turn 2m", "2 minutes a turn"),
)
"""The times the home screen offers (the first is the default); the config file may give any other."""

FACTS = Facts(
    name="turn-clock",
    title="Turn clock",
    min_players=2,
    max_players=5,
    chooses_first=True,  # "Who goes first?" picks whose clock runs first
    variant=Variant("time", TIMES),
    tool=True,
)
