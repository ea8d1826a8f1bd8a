"""The finger chooser: every player puts a finger on the screen, and one finger is chosen, fairly.

A tool for any board game (and one more way to say who goes first in the five): the screen gives each finger a
ring with its number; once the fingers have been still for two seconds, the seeded dice choose one of them, or
split them into teams. The fingers themselves are the screen's business (`ui.widgets.finger_chooser`); what
reaches the rules is the action "choose among rings 1, 2, 3 and 5", and the dice's answer is written into its
event, so undo never draws again and a resumed chooser shows the very same choice.

The parts: `rules` (the choice and the teams, drawn from the dice), `views`, `settings` (it has none).
"""

from companion.engine import Facts

FACTS = Facts(name="finger-chooser", title="Finger chooser", min_players=1, max_players=10, tool=True)
