"""The finger chooser's fingers and words: plain Python, tested without a window.

`Fingers` follows the fingers on the glass (each touch's id, where it is, the ring it wears) and knows how long
they have been still: a finger put down or lifted restarts the count, and so does one that moves further than
`STILL_TOLERANCE` from where it settled (a finger at rest still trembles and rolls a little). Once the fingers
have been still for `STILL_SECONDS`, `due` says so; the screen asks the dice (the tool's ``choose`` action, or
`companion.games.finger_chooser.rules.draw` for a game's "Who goes first?") and hands back the `Choice`. The
widget (`ui.widgets.finger_chooser`) copies `rings` and `headline` onto the glass; time is passed in, so a
test steps it.

Each ring carries its number (and, in teams, its team's letter) as well as its colour: ten colours cannot all
stay apart for every eye, a number can.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field

from companion.games.finger_chooser.rules import FEWEST, MAX_FINGERS, Choose, SplitTeams
from companion.games.finger_chooser.views import TEAM_LETTERS, ChooserView, RoundSeen

STILL_SECONDS = 2.0
"""How long every finger must rest before the choice (the issue's "still for 2 s")."""
STILL_TOLERANCE = 24.0
"""How far a finger may drift from where it settled and still count as still, in px at 800×480 (about 5 mm on the
7-inch panel: a resting fingertip rolls that much; a finger slid away goes further)."""
RING_COLOURS: tuple[str, ...] = (
    "#ff8f1f",  # orange
    "#26c6da",  # cyan
    "#f2f2f2",  # white
    "#ff7eb6",  # pink
    "#9be15d",  # lime
    "#9e8cff",  # lavender
    "#c8a27a",  # tan
    "#00897b",  # teal
    "#8d99ae",  # grey
    "#e040fb",  # magenta
)
"""A colour per ring, 1 to 10, none of them a seat's colour (a ring is nobody's until the choice: red would say
"Ann"). Ten colours cannot all stay apart for colour-blind eyes (docs/colours.md's five are the seats'), so every
ring also wears its number, large: the number is the cue, the colour a help."""
TEAM_COLOURS = RING_COLOURS[:5]
"""A team's colour (the first five rings'); each team also wears its letter."""
WAITING, COUNTING, CHOSEN = "waiting", "counting", "chosen"


@dataclass(frozen=True)
class Choice:
    """What the dice said: the ring chosen, or the teams (each a tuple of rings, team A first)."""

    chosen: int | None = None
    teams: tuple[tuple[int, ...], ...] = ()

    def team_of(self, ring: int) -> int | None:
        return next((i for i, team in enumerate(self.teams) if ring in team), None)


@dataclass
class Finger:
    """One finger on the glass: its ring, where it is, and where it settled (the still count measures from there)."""

    ring: int
    x: float
    y: float
    settled: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class RingShown:
    """One ring as the glass shows it: under which touch, where, its colour (hex), its label, grown or faded."""

    key: Hashable
    ring: int
    x: float
    y: float
    colour: str
    label: str
    grown: bool = False
    faded: bool = False


@dataclass
class Fingers:
    """The fingers on the glass, and how long they have been still.

    `needed` is the number of fingers a choice waits for (a game's players), or None: any number from two (the
    tool). After a choice the rings stay as they are until every finger is lifted; a finger put down meanwhile
    gets no ring.
    """

    needed: int | None = None
    teams: int = 1  # 1: choose one finger; 2 to 5: split them into that many teams
    still_seconds: float = STILL_SECONDS
    tolerance: float = STILL_TOLERANCE
    fingers: dict[Hashable, Finger] = field(default_factory=dict)
    since: float = 0.0  # when the fingers last changed: the still count runs from here
    choice: Choice | None = None
    asked: bool = False  # the choice was asked for and not answered yet (or refused): no second ask

    # -- the glass -------------------------------------------------------------------------------------

    def down(self, key: Hashable, x: float, y: float, now: float) -> Finger | None:
        """A finger put down: its ring (the lowest number free), or None (after a choice, or an eleventh)."""
        if self.choice is not None or len(self.fingers) >= MAX_FINGERS or key in self.fingers:
            return None
        used = {f.ring for f in self.fingers.values()}
        ring = min(set(range(1, MAX_FINGERS + 1)) - used)
        finger = self.fingers[key] = Finger(ring, x, y, (x, y))
        self._restart(now)
        return finger

    def move(self, key: Hashable, x: float, y: float, now: float) -> None:
        """A finger moved: beyond the tolerance from where it settled, it settles anew and the count restarts."""
        finger = self.fingers.get(key)
        if finger is None:
            return
        finger.x, finger.y = x, y
        if self.choice is None and math.dist((x, y), finger.settled) > self.tolerance:
            finger.settled = (x, y)
            self._restart(now)

    def up(self, key: Hashable, now: float) -> None:
        """A finger lifted: before the choice the count restarts; once every finger is up, a new round may begin."""
        if self.fingers.pop(key, None) is None:
            return
        if self.choice is None:
            self._restart(now)
        elif not self.fingers:
            self.choice = None
            self.asked = False

    def _restart(self, now: float) -> None:
        self.since = now
        self.asked = False

    # -- the count -----------------------------------------------------------------------------------------

    @property
    def present(self) -> tuple[int, ...]:
        """The rings on the glass, in order."""
        return tuple(sorted(f.ring for f in self.fingers.values()))

    @property
    def enough(self) -> bool:
        """As many fingers as the choice waits for: every player's (a game), or two at least (the tool)."""
        count = len(self.fingers)
        return count == self.needed if self.needed is not None else count >= max(FEWEST, self.teams)

    @property
    def phase(self) -> str:
        if self.choice is not None:
            return CHOSEN
        return COUNTING if self.enough else WAITING

    def progress(self, now: float) -> float:
        """How far the still count has run, 0 to 1 (0 while there are not enough fingers)."""
        if self.phase != COUNTING:
            return 0.0
        return min(1.0, max(0.0, (now - self.since) / self.still_seconds))

    def due(self, now: float) -> bool:
        """The fingers have been still long enough, and the choice has not been asked for yet."""
        return self.phase == COUNTING and not self.asked and now - self.since >= self.still_seconds

    def ask(self) -> tuple[int, ...]:
        """The rings to choose among, marking the choice as asked for (one ask per still spell)."""
        self.asked = True
        return self.present

    def chosen(self, choice: Choice) -> None:
        """The dice's answer: the rings now show it, until every finger is lifted."""
        self.choice = choice

    def clear(self) -> None:
        """Forget every finger (the screen went away)."""
        self.fingers.clear()
        self.choice = None
        self.asked = False

    # -- what the glass shows ----------------------------------------------------------------------------

    def rings(self) -> tuple[RingShown, ...]:
        """Every finger's ring: after a choice the chosen one grown and the others faded, or every ring in its team."""
        shown = []
        choice = self.choice
        for key, finger in sorted(self.fingers.items(), key=lambda item: item[1].ring):
            colour, label, grown, faded = RING_COLOURS[finger.ring - 1], str(finger.ring), False, False
            if choice is not None and choice.teams:
                team = choice.team_of(finger.ring)
                if team is not None:
                    colour, label = TEAM_COLOURS[team], TEAM_LETTERS[team]
            elif choice is not None:
                grown, faded = finger.ring == choice.chosen, finger.ring != choice.chosen
            shown.append(RingShown(key, finger.ring, finger.x, finger.y, colour, label, grown, faded))
        return tuple(shown)

    def headline(self, now: float) -> str:
        """The one line over the glass: what to do now, the count, or the choice."""
        count, choice = len(self.fingers), self.choice
        if choice is not None:
            if choice.teams:
                letters = [TEAM_LETTERS[i] for i in range(len(choice.teams))]
                return f"Teams {', '.join(letters[:-1])} and {letters[-1]}: find your ring's letter"
            return f"Ring {choice.chosen} is chosen!"
        if self.needed is not None and count > self.needed:
            extra = count - self.needed
            return f"{count} fingers for {self.needed} players: lift {extra} finger{'s' if extra > 1 else ''}"
        if not self.enough:
            if count == 0:
                return "Everyone: put a finger on the screen"
            if self.needed is not None:
                return f"{count} of {self.needed} fingers: everyone put one down"
            if self.teams > 1:
                return f"{self.teams} teams need {self.teams} fingers at least"
            return "One finger: one more at least"
        left = max(0.0, self.still_seconds - (now - self.since))
        return f"Hold still… {math.ceil(left) if left > 0 else 0}"


HOW_IT_WORKS = (
    "Every player puts a finger on the screen. Once all are still for 2 seconds, one is chosen; "
    "lifting or adding a finger starts the count again."
)
TEAMS_HOW = "Once all fingers are still for 2 seconds, they are split into teams, as even as can be."


# -- the tool's screen --------------------------------------------------------------------------------------

TEAM_CHOICES = (1, 2, 3, 4)
"""The ways offered under the glass: choose one finger, or split into 2, 3 or 4 teams (the rules allow 5)."""


def teams_words(teams: int) -> str:
    """The button for a way of choosing: "One finger" or "3 teams"."""
    return "One finger" if teams == 1 else f"{teams} teams"


def action_for(fingers: tuple[int, ...], teams: int) -> Choose | SplitTeams:
    """The tool's action for a still set of rings: choose one, or split them into `teams` teams."""
    return Choose(fingers) if teams == 1 else SplitTeams(fingers, teams)


def choice_of(seen: RoundSeen | None) -> Choice | None:
    """A stored choice (the view's last) as the glass shows it."""
    return None if seen is None else Choice(seen.chosen, seen.teams)


@dataclass(frozen=True)
class ChooserShown:
    """The tool's screen: the last choice in words (or how it works), and whether the glass takes fingers."""

    said: str
    open: bool


def present(view: ChooserView, teams: int) -> ChooserShown:
    if view.over:
        return ChooserShown(view.outcome.detail if view.outcome else "", False)
    if view.last is not None:
        return ChooserShown(f"Last: {view.last.said}", True)
    return ChooserShown(TEAMS_HOW if teams > 1 else HOW_IT_WORKS, True)
