"""What the Quantum Link screen shows, and what a tap on it does: plain Python, tested without a window.

`present` turns the public view, the legal actions of the player on turn and
the screen's own state between taps (a `Selection`: the empty hex chosen for
a die, the die being looked at, whether dead dice are crossed out) into a
`QuantumLinkShown`: every hex with its die and outline, the players' cards,
the line of news or help, the face picker's prompt, Pass, the result. The
screen (`ui.screens.quantum_link`) lays the hexes out in pixels and copies
the rest onto its widgets.

A tap goes back through the same `QuantumLinkShown`: `tap_hex` answers with
the next `Selection`, `place` with the typed placement a face sends, and
`pass_action` and `rematch` are the actions the buttons send. Where a die may
go comes from the legal actions, never from words; the rules decide, and a
refusal's sentence reaches the banner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from companion.game import Action, ChooseFirst
from companion.games.quantum_link.rules import Pass, Place
from companion.games.quantum_link.views import CellSeen, DieSeen, PlayerSeen, QuantumLinkView

Cell = tuple[int, int]
Mode = Literal["play", "pick", "over"]
"""Placing or passing; the face picker open for the chosen hex; the game over."""
Outline = Literal["", "selected", "just covered", "last"]
"""How a hex is outlined: chosen for a die, a die the table must cover now, the die placed last, or plainly."""

HINT = "Tap a hex, then the face of the die placed there. A white frame marks a die that scores now."
MANY_COVERS = 3
"""More dice covered at once than this: the news points at the board instead of naming each die."""


@dataclass(frozen=True)
class Selection:
    """The screen's own state between taps: nothing here has reached the rules yet."""

    cell: Cell | None = None  # the empty hex tapped for a die: the face picker is open
    looking_at: Cell | None = None  # a die tapped to hear what it is doing
    show_dead: bool = False  # cross out the dice that can no longer score


@dataclass(frozen=True)
class DieShown:
    """A die on a hex: its face in its player's colour, or a counter over it once covered."""

    face: int
    colour: str  # its player's colour, ``"#e53935"``
    covered: bool
    scoring: bool  # framed: it scores now
    crossed_out: bool  # it can no longer score, and the table asked to see such dice
    mark: str = ""  # its player's initial, on the die beside the colour (never colour alone)


@dataclass(frozen=True)
class HexShown:
    """One hex of the board."""

    cell: Cell
    name: str  # what players call it, e.g. "E5"
    die: DieShown | None
    outline: Outline = ""


@dataclass(frozen=True)
class PlayerShown:
    """A player's card: colour, name, live score, dice left; lit while it is their turn."""

    name: str
    colour: str
    score: str
    detail: str
    active: bool
    mark: str = ""  # the initial their dice wear, shown on their colour swatch too


@dataclass(frozen=True)
class QuantumLinkShown:
    """Everything the Quantum Link screen shows at one moment."""

    mode: Mode
    radius: int  # hexes from the centre to the edge
    hexes: tuple[HexShown, ...]
    players: tuple[PlayerShown, ...]
    turn: str | None
    turn_colour: str | None  # the colour of the die being placed: the face picker wears it
    info: str  # the news (which dice to cover), what a tapped die is doing, or how to play
    info_is_news: bool  # news for the table to act on (shown in the warning colour)
    prompt: str  # the face picker's question
    pass_text: str
    pass_action: Pass | None  # what Pass sends; None when nobody may pass
    pass_ends_game: bool  # the other player has just passed: this pass ends the game, so the screen asks first
    dead_count: int  # uncovered dice that can no longer score
    show_dead: bool
    result_text: str
    rematch_text: str
    rematch: ChooseFirst | None  # after a tie: how the new game starts (the other player opens)
    selection: Selection  # the selection as kept: a hex filled meanwhile (redo, a display) is let go
    open_cells: frozenset[Cell] = frozenset()  # where the player on turn may put a die

    def hex_at(self, cell: Cell) -> HexShown | None:
        """The hex at `cell`, or None off the board."""
        return next((h for h in self.hexes if h.cell == cell), None)


def present(
    view: QuantumLinkView,
    legal: Sequence[Action],
    selection: Selection = Selection(),
    *,
    spare_colours: Sequence[str] = (),
) -> QuantumLinkShown:
    """The public `view` as the screen shows it, given the player on turn's `legal` actions and the `selection`.

    Two players of the same colour would be one colour on the board: the second
    then wears the first of `spare_colours` (the theme's seat colours) that differs.
    """
    open_cells = frozenset(a.cell for a in legal if isinstance(a, Place))
    pass_action = next((a for a in legal if isinstance(a, Pass)), None)
    if selection.cell not in open_cells:
        selection = replace(selection, cell=None)  # filled meanwhile, or the game is over
    colours = player_colours(view, spare_colours)
    marks = player_marks(view)
    entries = {entry.cell: entry for entry in view.cells}
    looked_at = entries.get(selection.looking_at) if selection.looking_at is not None else None
    if selection.looking_at is not None and (looked_at is None or looked_at.die is None):
        selection = replace(selection, looking_at=None)
    turn = view.turn
    just = set(view.just_covered)
    last = view.last_placed

    def outline(cell: Cell) -> Outline:
        if cell == selection.cell:
            return "selected"
        if cell in just:
            return "just covered"
        return "last" if cell == last else ""

    hexes = tuple(
        HexShown(cell, entry.name, _die(entry.die, colours, marks, selection.show_dead), outline(cell))
        for cell, entry in entries.items()
    )
    info, info_is_news = _info(view, entries, selection)
    result = view.result
    opener = view.rematch.opener if view.rematch else None
    return QuantumLinkShown(
        mode="over" if view.over else ("pick" if selection.cell else "play"),
        radius=view.radius,
        hexes=hexes,
        players=tuple(_player(p, colours[p.name], marks[p.name], turn) for p in view.players),
        turn=turn,
        turn_colour=colours[turn] if turn else None,
        info=info,
        info_is_news=info_is_news,
        prompt=(
            f"{turn}'s die at {entries[selection.cell].name}: which face is up?" if selection.cell and turn else ""
        ),
        pass_text=f"{turn} passes" if turn else "Pass",
        pass_action=pass_action,
        pass_ends_game=pass_action is not None and view.passes >= 1,
        dead_count=sum(1 for e in entries.values() if e.die and e.die.dead and not e.die.covered),
        show_dead=selection.show_dead,
        result_text=result.detail if result else "",
        rematch_text=f"New game, {opener} opens" if opener else "",
        rematch=ChooseFirst(opener, chosen_by=view.opener, how="table") if opener else None,
        selection=selection,
        open_cells=open_cells,
    )


# -- taps --------------------------------------------------------------------------------------


def tap_hex(shown: QuantumLinkShown, cell: Cell) -> Selection:
    """A tap on a hex: a die tells what it is doing; an open hex is chosen for a die (tapped again, let go)."""
    selection = shown.selection
    tapped = shown.hex_at(cell)
    if tapped is None:
        return selection
    if tapped.die is not None:
        return replace(selection, looking_at=cell)
    if cell not in shown.open_cells:
        return selection
    return replace(selection, cell=None if selection.cell == cell else cell, looking_at=None)


def place(shown: QuantumLinkShown, face: int) -> Place | None:
    """The placement a face in the picker sends: the player on turn's die, on the chosen hex."""
    cell = shown.selection.cell
    if cell is None or shown.turn is None:
        return None
    return Place(shown.turn, cell, face)


# -- the parts ---------------------------------------------------------------------------------


def player_colours(view: QuantumLinkView, spare_colours: Sequence[str] = ()) -> dict[str, str]:
    """Each player's colour on the board, by name: their own, unless both chose the same one."""
    first, second = view.players
    colours = [first.colour, second.colour]
    if colours[0].lower() == colours[1].lower():
        colours[1] = next((c for c in spare_colours if c.lower() != colours[0].lower()), colours[1])
    return {first.name: colours[0], second.name: colours[1]}


def player_marks(view: QuantumLinkView) -> dict[str, str]:
    """The mark each player's dice wear: their initial, or their seat number when both names start alike."""
    names = [p.name for p in view.players]
    firsts = [name[:1].upper() for name in names]
    if len(set(firsts)) == len(firsts):
        return dict(zip(names, firsts, strict=True))
    return {name: str(seat) for seat, name in enumerate(names, start=1)}


def pass_question(shown: QuantumLinkShown) -> str:
    """What the screen asks before the pass that ends the game."""
    other = next((p.name for p in shown.players if p.name != shown.turn), "The other player")
    return (
        f"{other} passed just now. If {shown.turn} passes too, both players have passed and the game ends: "
        "the dice that do not score are covered and the scores counted."
    )


def describe(entry: CellSeen) -> str:
    """What the die on a hex is doing, e.g. "E5: Ann's 4, 0 friendly neighbours, not scoring now."."""
    die = entry.die
    if die is None:
        return f"{entry.name}: empty."
    doing = "covered" if die.covered else ("scoring now" if die.scoring else "not scoring now")
    n = die.friends
    return f"{entry.name}: {die.player}'s {die.face}, {n} friendly neighbour{'s' if n != 1 else ''}, {doing}."


def _info(view: QuantumLinkView, entries: Mapping[Cell, CellSeen], selection: Selection) -> tuple[str, bool]:
    if selection.looking_at is not None:
        return describe(entries[selection.looking_at]), False
    covered_now = len(view.just_covered)
    if covered_now > MANY_COVERS:
        return f"Cover the {covered_now} dice ringed in orange on the table too.", True
    if view.news:
        return view.news, True
    return ("", False) if view.over else (HINT, False)


def _die(die: DieSeen | None, colours: Mapping[str, str], marks: Mapping[str, str], show_dead: bool) -> DieShown | None:
    if die is None:
        return None
    crossed_out = show_dead and die.dead and not die.covered
    return DieShown(die.face, colours[die.player], die.covered, die.scoring, crossed_out, marks[die.player])


def _player(player: PlayerSeen, colour: str, mark: str, turn: str | None) -> PlayerShown:
    covered = f", {player.covered} covered" if player.covered else ""
    return PlayerShown(
        name=player.name,
        colour=colour,
        score=str(player.score),
        detail=f"{player.dice_left} dice left{covered}",
        active=player.name == turn,
        mark=mark,
    )
