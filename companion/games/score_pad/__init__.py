"""The score pad: a grid of rounds × players for any board game, kept like the five.

The table names the game it plays ("Carcassonne") and says whether the highest or the lowest total wins; then
each cell of the grid is a player's points in one round (negative too), entered again to change it. The totals
run as it goes, and who leads is marked. **End** (asked first on the screen) ends it: the player(s) with the best
total win, all of them on a tie, and the wins count under the game's own name (`Outcome.title`), so that the
wins per game show Carcassonne beside Quin.

The parts: `rules` (the vocabulary and the rules), `views` (what the table sees and reads), `settings` (none).
"""

from companion.engine import Facts

FACTS = Facts(name="score-pad", title="Score pad", min_players=1, max_players=8, tool=True)
