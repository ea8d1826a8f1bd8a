"""Quin with hidden identities: the companion is the referee who alone knows every piece.

Each side has 17 plain pieces labelled "1" to "17" in its player's colour.
Before play each player, in private, picks a Clone and gives every label an
identity and a place (10 on the starting points, 7 on the Zero-G card). In
play the table moves the real pieces on the real board and tells the
companion what happened; the companion referees flashes by the capture table,
keeps the powers' limits, answers "what was the last move?" and checks a claim
that a Light stands on First Sight. The board's geometry stays on the table.

The parts: `pieces` (the nine kinds and the capture table), `state`, `rules`
(the actions, events and referee of play), `private_setup` (of the setup before
play), `views` (what each audience may see),
`settings`, `examples` (ready-made setups) and `display` (a player's own
small display).
"""

from __future__ import annotations

from companion.engine import Facts, Variant

FACTS = Facts(
    name="quin",
    title="Quin",
    min_players=2,
    max_players=2,
    chooses_first=True,
    # The capture table is picked when the game starts; the Key's table comes first, as the default.
    variant=Variant("capture_rule", (("key", "Capture rule: the Key"), ("arcade", "Capture rule: Arcade"))),
)
