"""Quintet: the opening roll, the capturing circle, fair dice and who is still alive.

The tokens move on the physical board; the companion rolls the dice and keeps
what the table would otherwise argue about: who plays first, the capturing
order (the "killing circle"), whose turn it is, which captures the order
allows, and who is out.

The flow of a game, as phases:

``opening``
    Every player rolls two dice, in seat order. The highest total plays
    first; on a tie the one who rolled that total first wins (no re-roll).
    So the table never chooses who starts: the dice do.
``circle``
    The opening winner sets the capturing circle: a cycle of all players,
    each capturing the next one (its prey) and captured by the previous one
    (its predator). Not necessarily the seating order.
``rolling_on``
    Starting with the opening winner and going round the seats, each player
    rolls once to enter their two tokens on the spaces the dice name.
``play``
    Turns go round the seats from the opening winner, skipping players who
    are out. A turn is one roll (double fives: another roll after moving).
    A roll ends the previous turn, so a single roll button (or a GPIO
    button) is all a table needs; ``end_turn`` says it explicitly.
``over``
    One player is left in the circle: they win.

Captures are recorded, never seen: the table says "X captured Y" and the
companion checks it against the circle. During a turn only the mover's
landings capture: the mover captures its prey (rule 4), or the mover lands on
its own predator and is captured by it (rule 7, also rules 10 and 12). Each
token that moved lands once, so a roll allows as many such captures as the
mover had tokens (fewer for tokens sent into Safety). When a player loses
both tokens they are out and the circle closes over the gap; the player
before the gap now preys on the player after it, and the table is asked
whether one of their shared spaces (an old alliance) is now a capture
(rule 8) before play goes on.

The parts: `rules` (the vocabulary and the rules), `views` (what the table
sees and reads), `settings` (Quintet has none).
"""

from companion.engine import Facts

FACTS = Facts(name="quintet", title="Quintet", min_players=2, max_players=5, chooses_first=False)
