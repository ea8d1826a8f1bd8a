"""What the race screen shows: the race (`companion.race`) and its buttons, as texts, flags and tones.

Plain Python, tested without a window. The screen (`ui.screens.race`) copies
a `RaceShown` onto its widgets and wires each `Control` to a tap: it decides
nothing and reads no sentence. Everything here comes from the race's fields
(its phase, its `news`, its result), never from the words of its notice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.race import Phase, Race, choose_first, format_ms


class Snapshot(Protocol):
    """A race and its buttons at one moment (`hardware.race_buttons.RaceSnapshot` is one)."""

    @property
    def race(self) -> Race: ...

    @property
    def pressed(self) -> Sequence[bool]: ...  # each racer's button, right now

    @property
    def checked(self) -> Sequence[bool]: ...  # each racer's button has been seen working

    @property
    def problems(self) -> Sequence[str]: ...  # why the race cannot start yet


@dataclass(frozen=True)
class Card:
    """One racer's card: their button, their time, their false starts."""

    name: str
    state_text: str = ""
    time_text: str = ""
    note_text: str = ""
    pressed: bool = False
    winner: bool = False


@dataclass(frozen=True)
class Control:
    """One button of the action row.

    `key` is what the screen wires it to: ``"start"``, ``"stop"``, ``"again"``,
    ``"race_instead"``, or ``"first:<name>"``, whose tap sends `action` (the
    game's ``choose_first``).
    """

    key: str
    text: str
    accent: bool = False
    disabled: bool = False
    action: dict[str, str] | None = None


@dataclass(frozen=True)
class RaceShown:
    """Everything the race screen shows at one moment."""

    mode: str  # "loser", "test", "countdown", "set", "go", "done", "no race" or "fingers"
    headline: str
    tone: str = "text"  # the headline's colour, by meaning: "text", "warn" or "go" (see `ui.theme.TONES`)
    detail: str = ""
    cards: tuple[Card, ...] = ()
    controls: tuple[Control, ...] = ()


LOSER_NOTE = "Lost the last game: chooses"
TESTING = "Press your buttons to test them"
READY = "Ready? Tap Start"
GET_READY = "Glasses ready. Press only when your glass is empty!"


def first_choices(players: Sequence[str], chosen_by: str | None, how: str) -> tuple[Control, ...]:
    """One "<name> goes first" button per player; with `chosen_by` None each player speaks for themselves."""
    return tuple(
        Control(f"first:{name}", f"{name} goes first", accent=True, action=choose_first(name, chosen_by or name, how))
        for name in players
    )


def loser_chooses(players: Sequence[str], chooser: str, sentence: str) -> RaceShown:
    """The previous game's loser chooses who goes first (or the table races after all)."""
    return RaceShown(
        mode="loser",
        headline=f"{chooser} chooses who goes first",
        detail=f"{sentence} Or race for it.",
        cards=tuple(Card(name, note_text=LOSER_NOTE if name == chooser else "") for name in players),
        controls=(*first_choices(players, chooser, "loser"), Control("race_instead", "Race for it")),
    )


def testing(players: Sequence[str]) -> RaceShown:
    """The race is open and its buttons are being tested (until the first snapshot arrives)."""
    return RaceShown(mode="test", headline=TESTING, cards=tuple(Card(name) for name in players))


def no_race(players: Sequence[str], sentence: str) -> RaceShown:
    """No race is possible (too few buttons, pins busy): the table agrees, then taps who goes first."""
    return RaceShown(
        mode="no race",
        headline="Who goes first?",
        detail=sentence,
        cards=tuple(Card(name) for name in players),
        controls=first_choices(players, None, "table"),
    )


def fingers(players: Sequence[str]) -> RaceShown:
    """The finger chooser instead of the race: the glass takes the cards' place, its headline the race's."""
    return RaceShown(
        mode="fingers",
        headline="",
        detail=f"Each of the {len(players)} players puts a finger below. All still for 2 seconds: one is chosen.",
        controls=(Control("race_instead", "Race for it"),),
    )


def finger_chosen(players: Sequence[str], ring: int) -> RaceShown:
    """The dice chose ring `ring`: its player taps their own name, and starts (the game's ``choose_first``).

    The rings are numbered as the fingers came down, not by seat: asking whose finger it was is one tap, where
    putting fingers down in seat order would be a rule nobody at a table keeps.
    """
    return RaceShown(
        mode="fingers",
        headline=f"Ring {ring} is chosen!",
        tone="go",
        detail=f"Whose finger wears ring {ring}? Tap that name: they go first.",
        controls=(*first_choices(players, None, "fingers"), Control("fingers_again", "Again")),
    )


def present(snapshot: Snapshot) -> RaceShown:
    """The race as the screen shows it now."""
    race = snapshot.race
    cards = tuple(_card(snapshot, index) for index in range(len(race.racers)))
    stop = Control("stop", "Stop")
    if race.phase is Phase.ARMED:
        false_start = race.news.is_false_start
        headline = "False start!" if false_start else (TESTING if snapshot.problems else READY)
        parts = [race.notice] if race.notice else []
        parts += list(snapshot.problems)
        if not parts:
            every = "Both buttons work" if len(race.racers) == 2 else "Every button works"
            parts = [f"{every}. GO comes after 3, 2, 1 and a short random wait."]
        return RaceShown(
            mode="test",
            headline=headline,
            tone="warn" if false_start else "text",
            detail=" ".join(parts),
            cards=cards,
            controls=(Control("start", "Start", accent=True, disabled=bool(snapshot.problems)),),
        )
    if race.phase is Phase.COUNTDOWN:
        return RaceShown("countdown", str(race.count), detail=GET_READY, cards=cards, controls=(stop,))
    if race.phase is Phase.SET:
        return RaceShown("set", "Wait for it…", detail=GET_READY, cards=cards, controls=(stop,))
    if race.phase is Phase.GO:
        return RaceShown(
            mode="go",
            headline="GO!",
            tone="go",
            detail="Drink! Press your button the moment your glass is empty.",
            cards=cards,
            controls=(Control("stop", "Stop (nobody else will press)"),),
        )
    result = race.result
    if result is None or result.winner is None:
        return RaceShown(
            mode="done",
            headline="A tie!",
            tone="warn",
            detail=result.sentence if result else "",
            cards=cards,
            controls=(Control("again", "Race again", accent=True),),
        )
    return RaceShown(
        mode="done",
        headline=f"{result.winner} wins!",
        tone="go",
        detail=f"{result.sentence} {result.winner}, tap who goes first.",
        cards=cards,
        controls=(*first_choices(race.racers, result.winner, "race"), Control("again", "Race again")),
    )


def _card(snapshot: Snapshot, index: int) -> Card:
    race = snapshot.race
    name = race.racers[index]
    pressed = snapshot.pressed[index] if index < len(snapshot.pressed) else False
    checked = snapshot.checked[index] if index < len(snapshot.checked) else False
    if pressed:
        state = "Button: DOWN"
    elif race.phase is Phase.ARMED and not checked:
        state = "Button: not tested yet"
    else:
        state = "Button: up"
    result = race.result
    time_ms = result.time_ms(name) if result is not None else race.time_ms(name)
    if time_ms is not None:
        time_text = format_ms(time_ms)
    elif race.phase is Phase.GO:
        time_text = "drinking…"
    elif race.phase is Phase.DONE and result is not None and result.how != "false starts":
        time_text = "no press"
    else:
        time_text = ""
    if name in race.out:
        note = "Out: two false starts"
    elif race.false_starts_by(name):
        note = "1 false start (one more loses)"
    else:
        note = ""
    winner = result is not None and result.winner == name
    return Card(name, state, time_text, note, pressed, winner)
