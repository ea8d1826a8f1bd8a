"""Someone leaves, from the game's Menu: pick who, in their colour, then confirm.

Two small popups over the game screen. The picker shows one big button per
player still in (`GameScreen.leavers`, worded by `ui.presenters.leave`); a tap
asks "Ann leaves the game for good? Bo wins." with "Yes, Ann leaves" and
"No, back". Yes hands the leaver to `GameScreen.leave`, which sends the
engine's ``leave`` through `send` (a refusal shows in the banner); Undo takes
it back like any action.

Open it from a game screen with `open_leave(game_screen)`; a screen keeps its picker (`new_picker`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button

from ui import theme
from ui.kv import beside, load_kv
from ui.presenters import leave as presenter
from ui.widgets.fitted_popup import FittedPopup

if TYPE_CHECKING:
    from kivy.uix.modalview import ModalView

    from ui.presenters.leave import Leaver

KV = beside(__file__)


class LeaveHost(Protocol):
    """What these popups need of the game screen they are over (`ui.screens.base.GameScreen`).

    Named here rather than imported: the game screen opens these popups, so its module imports this one.
    """

    def leavers(self) -> tuple[Leaver, ...]: ...
    def leave(self, leaver: Leaver) -> bool: ...
    def hold(self, kind: str, view: ModalView) -> None: ...
    def say(self, text: str, *, error: bool = False) -> None: ...


class LeaverButton(Button):
    """A player's name on a big button in their own colour."""

    colour = ListProperty([1, 1, 1, 1])
    light = BooleanProperty(False)  # a light colour: the name is written in ink
    leaver: Leaver | None = None


class LeavePicker(FittedPopup):
    """Who leaves? One button per player still in; a tap asks before anything is sent."""

    screen = ObjectProperty(None)
    hint = StringProperty("")

    def __init__(self, screen: LeaveHost, leavers: tuple[Leaver, ...] = (), **kwargs: Any) -> None:
        super().__init__(screen=screen, title=presenter.TITLE, **kwargs)
        self._leavers: tuple[Leaver, ...] | None = None
        self.ready(leavers)

    def ready(self, leavers: tuple[Leaver, ...]) -> None:
        """Set for who may leave now, as a picker made now: the screen keeps one (made ahead), and its buttons
        are made again only when the players who may leave have changed."""
        self.hint = presenter.hint([leaver.name for leaver in leavers])
        if leavers == self._leavers:
            return
        self._leavers = leavers
        names = self.ids.names
        names.clear_widgets()
        names.cols = 1 if len(leavers) <= 3 else 2  # five names in one column would not fit 480 pixels
        for leaver in leavers:
            button = LeaverButton(text=leaver.name, colour=theme.rgba(leaver.colour), light=leaver.light)
            button.leaver = leaver
            button.bind(on_release=lambda b: self.pick(b.leaver))
            names.add_widget(button)

    def pick(self, leaver: Leaver) -> LeaveConfirm:
        """Ask the table before `leaver` leaves."""
        confirm = LeaveConfirm(screen=self.screen, leaver=leaver)
        self.screen.hold("leave", confirm)  # the question is the leave popup now: Menu's button opens no second
        self.dismiss()
        confirm.open()
        return confirm


class LeaveConfirm(FittedPopup):
    """Asks "Ann leaves the game for good? Bo wins."; Yes sends the leave, No goes back to the game."""

    screen = ObjectProperty(None)
    leaver = ObjectProperty(None)
    no_text = StringProperty(presenter.NO_TEXT)

    def confirm(self) -> None:
        self.dismiss()
        self.screen.leave(self.leaver)


def new_picker(screen: LeaveHost) -> LeavePicker:
    """A picker for `screen`, set for who may leave now (a game screen makes its own ahead)."""
    load_kv(KV)
    return LeavePicker(screen, screen.leavers())


def open_leave(screen: LeaveHost, picker: LeavePicker | None = None) -> LeavePicker | None:
    """Open `picker` (a new one if None) over `screen`, set for who may leave now; None (and a sentence in the
    banner) if nobody may."""
    load_kv(KV)
    leavers = screen.leavers()
    if not leavers:
        screen.say(presenter.NOBODY, error=True)  # the Menu's button was greyed out: a second finger got here
        return None
    picker = picker or LeavePicker(screen, leavers)
    picker.ready(leavers)
    picker.open()
    return picker
