"""What the Quin screen shows, and what a tap on it does: plain Python, tested without a window.

The shared table: `present` turns the public view and the screen's
`Selection` (the pieces tapped so far) into a `QuinShown`: both sides with
their pieces' looks and texts, the big result line, the hint, the setup
buttons' words. `QuinShown.tap_piece` and `QuinShown.verb` answer a tap with
a `Tap`: the next selection and the typed action to send (the rules decide;
a refusal's sentence reaches the banner). A flash is two taps: the attacker,
then the defender.

One player's private setup: `present_setup` turns that player's private view
and the panel's `SetupPicks` (the identity and place the next tap gives, a
half-chosen Clone) into a `SetupShown`, whose taps answer with a `SetupTap`.

Nothing here reads a hidden identity from anywhere but the view it is given:
the table is built from the public view alone, the panel from its player's
own private view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from companion.game import Action
from companion.games.quin.examples import dealt_setup
from companion.games.quin.pieces import (
    ARTIFICIAL_LIGHT,
    CLONE_FROM,
    CLONE_TO,
    KINDS,
    SHADOW,
)
from companion.games.quin.rules import (
    Assign,
    BringIn,
    ClaimFirstSight,
    Clone,
    Flash,
    Gravity,
    Move,
    Pass,
    Reflect,
    Resurrect,
    Setup,
    SetupDone,
    Swap,
    Unassign,
    UseTime,
)
from companion.games.quin.settings import QuinSettings
from companion.games.quin.state import BOARD, ZERO_G
from companion.games.quin.views import (
    OwnPiece,
    PieceSeen,
    PowersUsed,
    QuinOwnView,
    QuinView,
    SideSeen,
    ZeroGSeen,
)

PieceKey = tuple[str, str]
"""A piece on the shared screen: its owner and label, e.g. ``("Ann", "7")``."""

Look = Literal["board", "waiting", "taken", "off"]
"""How a piece is drawn: on the board (or not placed yet), face down on its Zero-G card, or taken (crossed)."""

SHORT: Mapping[str, str] = {kind: kind for kind in KINDS}
"""An identity in words a new table reads: the rules' own name, never an abbreviation ("AL", "Periph.")."""

TINY: Mapping[str, str] = {**SHORT, ARTIFICIAL_LIGHT: "Artificial\nLight"}
"""An identity under a revealed piece's label: the whole name, on two lines where one would not fit."""

TAKE_BACK = "take back"
"""The setup's last identity chip: a tap on a label takes its identity back."""

HOW_TAKEN: Mapping[str, str] = {
    "captured": "captured",
    "destroyed": "destroyed",
    "annihilated": "annihilated",
    "used": "used its power",
}

VERBS = ("move", "bring_in", "pass", "swap", "time", "totem", "gravity", "reflect", "first_sight", "clear", "last_move")
"""The play buttons, each wired to `QuinShown.verb` with its word."""

NEEDS: Mapping[str, tuple[int, str]] = {
    "move": (1, "Select the piece that moved first, then tap Move."),
    "first_sight": (1, "Select the piece on First Sight first."),
    "totem": (1, "Select the taken piece the Totem brings back (it is crossed out on your side)."),
    "time": (1, "Select your Time first, then tap Time, then the rival's piece."),
    "bring_in": (1, "Select the pieces coming in from your Zero-G card first."),
    "swap": (2, "Select the Memory, then the piece it swaps with, then tap Swap."),
    "reflect": (2, "Select the Reflector, then the piece it sends, then tap Reflect."),
    "gravity": (2, "Select the Void casting Gravity, then the Voids it moves, then tap Gravity."),
}
"""How many pieces each play button needs selected, and what it says when they are not."""


# -- the shared table ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """What the table has tapped on the shared screen so far; the screen keeps one, taps make the next."""

    pieces: tuple[PieceKey, ...] = ()  # one player's pieces, in the order tapped
    aiming_time: bool = False  # Time was tapped: the next tap on a rival piece is its target
    showing_last_move: bool = False  # the result line tells the last move instead


@dataclass(frozen=True)
class Tap:
    """What a tap does: the selection afterwards, the action to send, and a sentence for the banner."""

    selection: Selection
    action: Action | None = None
    say: str | None = None  # None: the banner stays as it is
    error: bool = False


@dataclass(frozen=True)
class PieceShown:
    """One labelled piece on the shared screen."""

    key: PieceKey
    text: str  # markup: the label big, the identity small once revealed
    look: Look
    mark: Literal["", "attacker", "selected"] = ""  # the first piece selected is the attacker of a flash
    owner_mark: str = ""  # the owner's initial in the piece's corner: whose piece it is, without colour


@dataclass(frozen=True)
class SideShown:
    """One player's side: name, what they are doing, the powers used, their pieces and Zero-G card."""

    name: str
    colour: str | None  # their own colour (``"#e53935"``), or None: the theme's colour for their seat
    mark: str  # the owner's initial on each of their pieces (longer where two names start alike)
    status: str
    powers: str
    card: str
    active: bool
    pieces: tuple[PieceShown, ...]


@dataclass(frozen=True)
class QuinShown:
    """Everything the shared Quin screen shows at one moment."""

    phase: str  # "setup", "play" or "over"
    turn: str | None
    sides: tuple[SideShown, ...]
    result: str  # the big line: the last flash, the outcome, or the last move on request
    hint: str
    selection: Selection
    setup_lines: tuple[str, ...] = ()  # during the setup: each player's button to set up in private
    first_text: str = ""  # during the setup: who goes first, or the offer to race for it
    race_open: bool = False

    @property
    def over(self) -> bool:
        """The game has ended: every play button is off and a tap on a piece does nothing."""
        return self.phase == "over"

    def tap_piece(self, key: PieceKey) -> Tap:
        """Own pieces are selected in order (a tap again lets one go); a rival's piece is flashed or Time's target."""
        if self.over:
            return Tap(Selection())
        chosen = self.selection.pieces
        owner = chosen[0][0] if chosen else None
        if owner is not None and key[0] != owner:
            attacker = chosen[0][1]
            if self.selection.aiming_time:
                return Tap(Selection(), UseTime(owner, attacker, key[1]))
            return Tap(Selection(), Flash(owner, attacker, key[1]))
        pieces = tuple(k for k in chosen if k != key) if key in chosen else (*chosen, key)
        return Tap(Selection(pieces, aiming_time=self.selection.aiming_time and bool(pieces)))

    def verb(self, name: str) -> Tap:
        """A play button: the action the selection makes (the rules say whether it is allowed)."""
        selection = self.selection
        labels = [label for _owner, label in selection.pieces]
        player = selection.pieces[0][0] if selection.pieces else self.turn
        if self.over:
            return Tap(Selection())
        if name == "clear":
            return Tap(Selection())
        if name == "last_move":
            return Tap(replace(selection, showing_last_move=not selection.showing_last_move))
        needed, complaint = NEEDS.get(name, (0, ""))
        if len(labels) < needed:
            return Tap(selection, say=complaint, error=True)
        if name == "time":
            return Tap(Selection(selection.pieces[:1], aiming_time=True))
        if name == "pass":
            player = self.turn  # whoever is to play passes, whatever is selected
        if player is None:
            return Tap(Selection(), say="Nobody is to play now.", error=True)
        action = _verb_action(name, player, labels)
        return Tap(Selection(), action) if action is not None else Tap(selection)


def _verb_action(name: str, player: str, labels: Sequence[str]) -> Action | None:
    match name:
        case "move":
            return Move(player, labels[0])
        case "first_sight":
            return ClaimFirstSight(player, labels[0])
        case "totem":
            return Resurrect(player, labels[0])
        case "bring_in":
            return BringIn(player, labels=tuple(labels))
        case "swap":
            return Swap(player, labels[0], labels[1])
        case "reflect":
            return Reflect(player, labels[0], labels[1])
        case "gravity":
            return Gravity(player, labels[0], tuple(labels[1:]))
        case "pass":
            return Pass(player)
    return None


def present(
    view: QuinView,
    selection: Selection,
    *,
    colours: Sequence[str] = (),
    can_race: bool = False,
    screens: Mapping[str, str] | None = None,
) -> QuinShown:
    """The shared screen for the public `view` and the table's `selection`.

    `colours` are the players' own colours in seat order (when they are alike
    the seats' theme colours are shown instead); `can_race` says whether who
    goes first may still be chosen; `screens` names each seat's own private
    screen in use (``{"Ann": "phone"}``: a paired display or a phone), where
    that player sets up without anyone looking away.
    """
    phase = view.phase
    over = phase == "over"
    if over:
        selection = Selection()  # nothing stays selected, and the big line tells the end
    distinct = len(colours) == len(view.players) and len(set(colours)) == len(colours)
    marks = owner_marks([p.name for p in view.players])
    sides = tuple(
        _side(view, side, colours[i] if distinct else None, marks[i], selection) for i, side in enumerate(view.players)
    )
    screens = screens or {}
    shown = QuinShown(
        phase=phase,
        turn=None if over else view.turn,
        sides=sides,
        result=_result(view, selection, screens),
        hint=_hint(view, selection),
        selection=selection,
    )
    if phase != "setup":
        return shown
    first = view.first
    return replace(
        shown,
        setup_lines=tuple(_setup_line(p, screens.get(p.name)) for p in view.players),
        first_text=f"{first} goes first" if first else "Who goes first? The water race",
        race_open=not first and can_race,
    )


def _setup_line(player: SideSeen, screen: str | None) -> str:
    name = player.name
    if player.ready:
        return f"{name}: setup done"
    return f"{name}: on their {screen}, or here" if screen else f"{name}: set up in private"


def owner_marks(names: Sequence[str]) -> tuple[str, ...]:
    """Each player's mark for their pieces: the initial, or as many first letters as tell the names apart."""
    letters = ["".join(ch for ch in name if ch.isalnum()) for name in names]  # "[b]Zed" is marked Z, not [
    for length in (1, 2, 3):
        marks = tuple(word[:length].upper() or str(i + 1) for i, word in enumerate(letters))
        if len(set(marks)) == len(marks):
            return marks
    return tuple(str(i + 1) for i in range(len(names)))


def _side(view: QuinView, side: SideSeen, colour: str | None, mark: str, selection: Selection) -> SideShown:
    name = side.name
    phase = view.phase
    if phase == "setup":
        status = "setup done" if side.ready else "setting up"
    elif phase == "over":
        status = "wins" if view.outcome is not None and name in view.outcome.winners else ""
    else:
        status = "to play" if view.turn == name else ""
    return SideShown(
        name=name,
        colour=colour,
        mark=mark,
        status=status,
        powers=_powers_text(side.powers_used),
        card=_card_text(side.zero_g, phase),
        active=phase != "over" and view.turn == name,
        pieces=tuple(_piece(name, mark, piece, selection) for piece in side.pieces),
    )


_LOOKS: Mapping[str, Look] = {ZERO_G: "waiting", "captured": "taken", "removed": "taken", "off": "off"}


def _piece(owner: str, owner_mark: str, piece: PieceSeen, selection: Selection) -> PieceShown:
    key = (owner, piece.label)
    look = _LOOKS.get(piece.where, "board")
    mark: Literal["", "attacker", "selected"] = ""
    if key in selection.pieces:
        mark = "attacker" if selection.pieces[0] == key else "selected"
    identity = piece.identity  # "" while hidden
    # The line break sits inside the small size: a line is as tall as its largest type, so "Artificial Light"
    # on two small lines under the label fits a 48 px piece.
    words = f"[size={_word_size(TINY[identity])}]\n{TINY[identity]}[/size]" if identity else ""
    return PieceShown(key, f"[b]{key[1]}[/b]{words}", look, mark, owner_mark)


def _word_size(words: str) -> str:
    # A whole word never breaks across lines: the long names ("Peripheral", "Reflector") are set smaller.
    return "12sp" if max(len(line) for line in words.split("\n")) <= 7 else "10sp"


def _result(view: QuinView, selection: Selection, screens: Mapping[str, str]) -> str:
    if selection.showing_last_move:
        return last_move_text(view)
    if view.outcome is not None:
        return view.outcome.detail + " Every identity is now shown."
    if view.last_flash is not None:
        return view.last_flash.sentence
    if view.phase == "setup":
        return _setup_result(view, screens)
    return "No flash yet."


def _setup_result(view: QuinView, screens: Mapping[str, str]) -> str:
    """Who sets up where: on their own screen, or here while the other looks away (only then)."""
    names = [p.name for p in view.players]
    here = [name for name in names if name not in screens]
    if not here:
        return "Private setup: " + " and ".join(f"{name} on their {screens[name]}" for name in names) + "."
    if len(here) == len(names):
        return "Private setup: each player in turn, while the other looks away."
    away = [name for name in names if name in screens]
    (player,) = here
    return (
        f"Private setup: {' and '.join(f'{n} on their {screens[n]}' for n in away)}; "
        f"{player} here, while {_rival(view, player)} looks away."
    )


def _rival(view: QuinView, name: str) -> str:
    names = [p.name for p in view.players]
    return names[1] if name == names[0] else names[0]


def _hint(view: QuinView, selection: Selection) -> str:
    if view.phase == "setup":
        rule = CAPTURE_RULE_WORDS.get(view.capture_rule, "")
        # The buttons below already say "Ann: set up in private": the hint keeps its room for the capture rule,
        # so the big line, the buttons and a display strip with the Phones button all fit at 800x480.
        return rule
    if view.phase == "over":
        return "The game is over."
    chosen = selection.pieces
    if selection.aiming_time and chosen:
        return f"Time: tap the piece of {_rival(view, chosen[0][0])}'s that it moves back."
    if not chosen:
        ban = view.flash_back_ban
        extra = f" {ban.sentence}" if ban else ""
        return f"{view.turn} to play. Flash: tap the attacker, then the defender.{extra}"
    owner = chosen[0][0]
    labels = " ".join(label for _owner, label in chosen)
    return f"{owner}'s {labels} selected: tap a piece of {_rival(view, owner)}'s to flash it, or choose below."


CAPTURE_RULE_WORDS: Mapping[str, str] = {
    "key": "Capture rule: the Key (each piece captures what the Key's table says).",
    "arcade": "Capture rule: Arcade (every piece but Memory and Reflector captures).",
}
"""The capture rule this game plays, in plain words with the rules' own name."""


def _powers_text(used: PowersUsed) -> str:
    parts = [
        f"{word} ×{times}"
        for times, word in (
            (used.memory_swaps, "Memory swap"),
            (used.time, "Time"),
            (used.void_gravity, "Void Gravity"),
            (used.reflector, "Reflector"),
        )
        if times
    ]
    if used.totem:
        parts.append("Totem used")
    return "Powers used: " + ", ".join(parts) if parts else "No powers used yet"


def _card_text(card: ZeroGSeen, phase: str) -> str:
    if phase == "setup":
        return ""
    down = " ".join(card.face_down) or "none"
    up = ", ".join(f"{p.owner}'s {p.label} ({p.identity}, {HOW_TAKEN.get(p.how, p.how)})" for p in card.face_up)
    return f"Zero-G card: face down {down}" + (f"; face up {up}" if up else "")


def last_move_text(view: QuinView) -> str:
    """The last move, and what this turn has done so far: "Last move (Bo): Bo passed."."""
    last = view.last_move
    lines = [f"Last move ({last.player}): " + " ".join(last.steps)] if last else ["No move yet."]
    if view.this_turn:
        lines.append("This turn so far: " + " ".join(view.this_turn))
    return "\n".join(lines)


# -- the hand-off: words around a private setup ---------------------------------------------------------------


def look_away(player: str, rival: str) -> str:
    """The cover shown before `player`'s private setup is drawn."""
    return f"{rival}, please look away.\n\n{player}: tap below when only you can see the screen."


def setup_hidden(player: str, *, finished: bool) -> str:
    """The cover shown once `player`'s private setup is blanked."""
    words = "is done and hidden" if finished else "is hidden (not finished yet)"
    return f"{player}'s setup {words}.\n\nEveryone may look at the screen again."


# -- one player's private setup -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SetupPicks:
    """The private panel's choices not sent yet: what a tap on a label gives it, and a half-chosen Clone."""

    kind: str = SHADOW  # an identity, or `TAKE_BACK`
    place: str = BOARD  # "board" (a starting point) or "zero-g" (the Zero-G card)
    clone_from: str | None = None
    clone_to: str | None = None


@dataclass(frozen=True)
class SetupTap:
    """What a tap in the private panel does: the picks afterwards and the action to send."""

    picks: SetupPicks
    action: Action | None = None


@dataclass(frozen=True)
class Chip:
    """A toggle of the private panel: a Clone face, an identity (with its count), take back."""

    value: str
    text: str
    chosen: bool
    allowed: bool = True  # a Clone never turns a piece into its own kind: that chip is greyed in its place


@dataclass(frozen=True)
class SetupPieceShown:
    """One of the player's own labels with the identity and place given to it so far."""

    label: str
    text: str
    look: Literal["unassigned", "board", "waiting"]


@dataclass(frozen=True)
class SetupShown:
    """One player's private setup panel, drawn from their private view alone."""

    player: str
    title: str
    clone_from: tuple[Chip, ...]
    clone_to: tuple[Chip, ...]
    kinds: tuple[Chip, ...]  # every identity with "given of needed", then take back
    place: str
    pieces: tuple[SetupPieceShown, ...]
    message: str  # what is still to do, or that all is set
    picks: SetupPicks
    view_clone: tuple[str | None, str | None] = (None, None)  # the Clone the rules hold: (from, to)

    def pick_clone(self, part: Literal["from", "to"], kind: str) -> SetupTap:
        """One half of the Clone; once both halves are known the Clone is sent."""
        picks = replace(self.picks, clone_from=kind) if part == "from" else replace(self.picks, clone_to=kind)
        taken = picks.clone_from or self.view_clone[0]
        made = picks.clone_to or self.view_clone[1]
        if taken and made:
            return SetupTap(replace(picks, clone_from=None, clone_to=None), Clone(self.player, taken, made))
        return SetupTap(picks)

    def pick_kind(self, kind: str) -> SetupTap:
        return SetupTap(replace(self.picks, kind=kind))

    def pick_place(self, place: str) -> SetupTap:
        return SetupTap(replace(self.picks, place=place))

    def tap_label(self, label: str) -> SetupTap:
        """Give the label the chosen identity and place, or take its identity back."""
        if self.picks.kind == TAKE_BACK:
            return SetupTap(self.picks, Unassign(self.player, label))
        return SetupTap(self.picks, Assign(self.player, label, self.picks.kind, self.picks.place))

    def deal(self, settings: QuinSettings, rng: random.Random) -> Action:
        """A random legal layout to adjust or accept (the Clone kept if already chosen; not finished)."""
        taken, made = self.view_clone
        clone = (taken, made) if taken and made else None
        dealt = dealt_setup(self.player, dict(settings.adjustable), rng, clone=clone)
        return Setup(self.player, dealt["clone"], dealt["board"], dealt["zero_g"], done=False)

    def finish(self) -> Action:
        return SetupDone(self.player)


def present_setup(view: QuinOwnView, picks: SetupPicks) -> SetupShown:
    """`view`'s player's private setup (their private view) with the panel's `picks`."""
    player = view.player
    setup = view.setup
    view_clone = (setup.clone_from, setup.clone) if setup else (None, None)
    clone_from = picks.clone_from or view_clone[0] or ""
    clone_to = picks.clone_to or view_clone[1] or ""
    needed, assigned = (setup.needed, setup.assigned) if setup else ({}, {})
    kinds = tuple(
        Chip(kind, f"{TINY[kind]}\n{assigned.get(kind, 0)} of {needed.get(kind, 0)}", kind == picks.kind)
        for kind in KINDS
    )
    problems = setup.problems if setup else ()
    return SetupShown(
        player=player,
        title=f"{player}'s private setup",
        clone_from=tuple(Chip(kind, TINY[kind], kind == clone_from) for kind in CLONE_FROM),
        clone_to=tuple(Chip(kind, TINY[kind], kind == clone_to, kind != clone_from) for kind in CLONE_TO),
        kinds=(*kinds, Chip(TAKE_BACK, "Take\nback", picks.kind == TAKE_BACK)),
        place=picks.place,
        pieces=tuple(_setup_piece(piece) for piece in view.pieces),
        message=(
            ("Still to do: " + "; ".join(problems) + ".")
            if problems
            else "All set: tap Done to finish (it cannot be changed afterwards)."
        ),
        picks=picks,
        view_clone=view_clone,
    )


def _setup_piece(piece: OwnPiece) -> SetupPieceShown:
    label, identity = piece.label, piece.identity
    if identity is None:
        return SetupPieceShown(label, f"[b]{label}[/b][size=12sp]\n—[/size]", "unassigned")
    on_board = piece.where == BOARD
    place = "start" if on_board else "Zero-G"
    text = f"[b]{label}[/b][size=12sp]\n{SHORT[identity]}\n{place}[/size]"  # small lines: see `_piece`
    return SetupPieceShown(label, text, "board" if on_board else "waiting")
