"""Quantum Link: two players bet dice faces on how many friendly dice will surround them.

Players take turns putting one of their 30 dice on an empty cell of a
hexagonal board (side 5, 61 cells), face chosen and fixed, or passing. A die
scores its face when exactly that many dice of its own colour touch it.

What the companion does for the table:

- After every placement, every die that is fully surrounded (each of its six
  sides touches a die or the board's edge) and whose count of friendly
  neighbours is not its face is covered: one `Covered` event per die tells
  the players which real dice to cover.
- Covered dice stay on the board and still count as neighbours, for both
  colours (RULINGS). A covered die's own neighbours are all in place, so it
  can never score again: covering is for good.
- The live score is the sum of the faces of the uncovered dice whose count of
  friendly neighbours equals their face right now.
- Two passes in a row end the game: every remaining non-scoring die is
  covered, and the higher score wins; a tie is played again with the other
  player opening.

The board, the vocabulary and the rules are in `rules`; what the table sees
in `views`.
"""

from companion.engine import Facts

FACTS = Facts(name="quantum-link", title="Quantum Link", min_players=2, max_players=2, chooses_first=True)
