"""Pig with secret bets: a sixth game that exists only for the tests.

It proves the promise of the engine's one shape: a new game is its package
(this folder: facts, rules, views, settings, display), one screen (`screen.py`
and `screen.kv`) and one presenter (`presenter.py`), registered by a test
fixture, and nothing else in the project changes for it to reach the home
screen, the session, undo and redo, `companion play` and the player displays.

Pig: on your turn roll a die as often as you dare; a 1 loses what you rolled
this turn, holding banks it. The first to the target wins. Before play, each
player secretly bets on who will win; the bets are revealed at the end.
"""

from companion.engine import Facts

FACTS = Facts(name="pig", title="Pig", min_players=2, max_players=4, chooses_first=True)
