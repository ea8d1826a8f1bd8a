"""Issue 28: "A second cue wherever a colour marks a player: … on the displays and on the phone page. Never
colour alone." The private screens mark no player by colour at all: a player display is one colour (an OLED),
and the phone page is drawn from the seat's own words. These tests keep it so: no seat colour in the page's
files, and no colour in any page or display frame a game sends."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.game import SEAT_COLOURS
from companion.games import game
from companion.session import Session
from companion.store import Store
from tests.support import golden

STATIC = Path(__file__).resolve().parents[2] / "hardware" / "phones" / "static"
HEX = re.compile(r"#[0-9a-fA-F]{6}\b")


def test_the_phone_page_files_hold_no_seat_colour() -> None:
    for path in STATIC.iterdir():
        found = {colour.lower() for colour in HEX.findall(path.read_text(encoding="utf-8"))}
        assert not found & {c.lower() for c in SEAT_COLOURS}, f"{path.name} marks something in a seat colour"


def test_no_phone_page_of_any_golden_game_carries_a_colour(tmp_path: Path) -> None:
    """Every state of every golden game with a phone page: the page's JSON names no colour of any player."""
    with Store.open(tmp_path / "games.db") as store:
        for path in golden.scripts():
            entry = game(golden.game_of(path))
            if entry.display is None:
                continue
            session: Session = golden.play(store, path)
            while True:
                for player in session.options.names:
                    page = json.dumps(entry.phone_page(session.own_view(player)))
                    assert "colour" not in page and not HEX.search(page), (path.stem, player)
                if not session.undo():
                    break
