"""The finger chooser as a tool: the glass, the way of choosing under it, and the last choice in words.

Thin over `ui.presenters.finger_chooser` and the glass (`ui.widgets.finger_chooser`): when the fingers have been
still, the glass asks `decide`, which sends the tool's ``choose`` (or ``split_teams``) through the session; the
dice's answer is in the stored event, and the glass shows the view's last choice. Undo takes a choice back
(made again with the same fingers, it comes out the same: the session keeps the draw).
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.game import GameView
from companion.games.finger_chooser.rules import PutAway
from companion.games.finger_chooser.views import ChooserView
from ui.kv import beside, load_kv
from ui.presenters import finger_chooser as presenter
from ui.screens.base import GameScreen
from ui.widgets.finger_chooser import FingerChooser  # noqa: F401  (the board's kv rule places one)
from ui.widgets.fitting import fit_text

KV = beside(__file__)
WAY_FONTS = (19, 17, 15)
"""A way-of-choosing button's font sizes in sp, largest first."""


class ChooserBoard(BoxLayout):
    """The glass with its headline, the ways of choosing, and Put away."""

    screen = ObjectProperty(None)
    said = StringProperty("")
    teams = NumericProperty(1)
    open = BooleanProperty(True)


class FingerChooserScreen(GameScreen):
    """The tool: fingers on the glass, one chosen (or teams made) by the seeded dice, kept in the history."""

    def build_body(self) -> Widget:
        load_kv(KV)
        self.board = ChooserBoard(screen=self)
        self.chooser = self.board.ids.chooser
        self.chooser.decide = self.decide
        self.way_buttons: dict[int, Any] = {}
        for teams in presenter.TEAM_CHOICES:
            button = Factory.WayButton(text=presenter.teams_words(teams))
            fit_text(button, WAY_FONTS)
            button.bind(on_release=lambda _b, n=teams: self.choose_way(n))
            self.way_buttons[teams] = button
            self.board.ids.ways.add_widget(button, index=1)  # Put away stays last, at the right
        self.choose_way(1, refresh=False)  # the screen refreshes once it is built
        return self.board

    def choose_way(self, teams: int, *, refresh: bool = True) -> None:
        """One finger, or a number of teams: the glass's count starts over."""
        self.board.teams = teams
        for n, button in self.way_buttons.items():
            button.chosen = n == teams
        self.chooser.set_teams(teams)
        if refresh:
            self.refresh()

    def decide(self, fingers: tuple[int, ...]) -> presenter.Choice | None:
        """The fingers are still: the tool's action through the session; the stored event says what was chosen."""
        if not self.send(presenter.action_for(fingers, int(self.board.teams))):
            return None
        view: ChooserView = self.session.view()
        return presenter.choice_of(view.last)

    def put_away(self) -> None:
        if self.send(PutAway()):
            self.say("Put away: it is in the history. Undo takes it back.")

    def render(self, view: GameView) -> None:
        board = getattr(self, "board", None)
        if board is None:
            return
        typed: ChooserView = self.session.view()  # typed, as the Log's replay hands `view` over as JSON
        shown = presenter.present(typed, int(board.teams))
        board.said = shown.said
        board.open = shown.open
        self.chooser.disabled = not shown.open
        if not shown.open:
            self.chooser.clear()

    def on_leave(self, *args: Any) -> None:
        self.chooser.clear()  # fingers the screen did not see lifted would hold the next round
        super().on_leave(*args)


SCREEN = FingerChooserScreen
