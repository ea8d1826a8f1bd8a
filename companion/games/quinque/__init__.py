"""Quinque: two players hang parachutes on a formation of skydiver tiles.

The formation is a set of square tiles touching edge to edge, each carrying a
2×2 block of skydivers. In turn, each player puts a parachute of their colour
on a free skydiver (on a placed tile, or on a tile they add to the formation),
then may move one tile. Five parachutes of one colour in a row, a column or a
diagonal win, even across tile borders; when both players run out of
parachutes without a line, the game is a tie. The table chooses who starts.

The modules: `board` (the geometry of tiles, skydivers and lines), `rules`,
`views`, `settings`. The action vocabulary is in the README section.
"""

from companion.engine import Facts, Variant

FACTS = Facts(
    name="quinque",
    title="Quinque",
    min_players=2,
    max_players=2,
    chooses_first=True,
    # How tiles move is picked when the game starts; basic comes first, as the default.
    variant=Variant("advanced", ((False, "Moves: basic"), (True, "Moves: advanced"))),
)
