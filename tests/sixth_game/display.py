"""What a player's own display shows in Pig: the scores and their secret bet, and a menu to place it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.game import View
from companion.small_display import DOWN, OK, UP, Page, menu_page, paginate, text_pages
from tests.sixth_game.rules import Bet


def pages(view: View, cols: int, rows: int) -> list[Page]:
    lines = [f"{name} {score}" for name, score in view["scores"].items()]
    lines.append(f"bet: {view['my_bet']}" if view["my_bet"] else "bet: none yet")
    return paginate(view["player"], lines, cols, rows)


@dataclass(frozen=True)
class BetMenu:
    """Choosing whom to bet on, one name a line; ok places the bet."""

    cursor: int = 0
    refusal: str | None = None

    def press(self, view: View, key: str, cols: int, rows: int) -> tuple[BetMenu, Bet | None]:
        names = list(view["scores"])
        if self.refusal is not None:
            return replace(self, refusal=None), None
        if key in UP:
            return replace(self, cursor=max(self.cursor - 1, 0)), None
        if key in DOWN:
            return replace(self, cursor=min(self.cursor + 1, len(names) - 1)), None
        if key in OK:
            return self, Bet(view["player"], names[self.cursor])
        return self, None  # back, or a key the menu does not use

    def refused(self, sentence: str) -> BetMenu:
        return replace(self, refusal=sentence)

    def lines(self, view: View, cols: int, rows: int) -> Page:
        if self.refusal is not None:
            return text_pages(view["player"], "no", self.refusal, cols, rows)[0]
        return menu_page(view["player"], "bet on", list(view["scores"]), self.cursor, cols, rows)


def menu_for(view: View, menu: BetMenu | None) -> BetMenu | None:
    if menu is not None and menu.refusal is not None:
        return menu
    return (menu or BetMenu()) if view["my_bet"] is None else None
