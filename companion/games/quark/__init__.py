"""Quark: the companion keeps the table's counts and scores the end.

The cards stay physical: which quark a player holds, and its rank, is on the
card in their hand. The companion keeps what the table would otherwise keep
in tokens and heads: each player's energy, protons, neutrons and particle
points, the finite supplies (80 energy, 16 protons, 20 neutrons), the three
decks as counts with their face-up rows of three, how many cards each player
holds and has decayed, the two actions of each turn, the end of the game and
the final score. When a card's rank matters (annihilating, transforming) the
player says it.

Seating: players sit in session order, clockwise. A player's left neighbour
is the next seat (who plays after them), the right neighbour the seat before.

The game's numbers and its state are in `state`, atoms and the final score in
`scoring`, the vocabulary and the rules in `rules`, what the table sees and
reads in `views`, the ``[games.quark]`` config table in `settings`.
"""

from companion.engine import Facts

FACTS = Facts(name="quark", title="Quark", min_players=2, max_players=4, chooses_first=True)
