"""The dice tray: any dice, for any board game, rolled with the same fair, seeded, stored dice as Quintet.

The table puts a set of dice in the tray (d4 to d20, or dice with faces of its own such as "Sun, Moon, Star"),
rolls them with one big button, holds some and rolls the rest again, and reads the sum and each die large.
Every roll is an event in the games file, so undo never rolls again and redo brings back the very same roll;
the tray's statistics (how often each face came, and the chi-square check) are counted from those events.

The parts: `kinds` (a die and its faces, the sets offered), `rules`, `views`, `settings`, `stats` (the faces
counted and checked), `saved` (the sets the table saves, kept across restarts in a small file of the app's own).
"""

from companion.engine import Facts

FACTS = Facts(name="dice-tray", title="Dice tray", min_players=1, max_players=8, tool=True)
