"""The Pig screen: thin over its presenter. A button per legal action; the presenter words it."""

from __future__ import annotations

from pathlib import Path

from kivy.factory import Factory
from kivy.uix.widget import Widget

from companion.game import View
from tests.sixth_game.presenter import present
from ui.screens.base import GameScreen

KV = Path(__file__).with_name("screen.kv")


class PigScreen(GameScreen):
    def build_body(self) -> Widget | None:
        self.board = Factory.PigBoard()
        return self.board

    def render(self, view: View) -> None:
        legal = [a for p in self.session.options.names for a in self.session.legal_actions(p)]
        shown = present(view, legal)
        self.board.ids.scores.text = shown.scores
        self.board.ids.running.text = shown.running
        row = self.board.ids.actions
        row.clear_widgets()
        for words, action in shown.buttons:
            row.add_widget(Factory.BigButton(text=words, on_release=lambda _b, a=action: self.send(a)))


SCREEN = PigScreen
