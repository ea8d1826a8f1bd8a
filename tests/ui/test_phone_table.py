"""`PhoneTable` with seat codes kept in a file: a resumed game gets its own codes back; an ended one's go.

Issue 15: "Each seat gets an unguessable token per game", and the tests
cover "a reconnect after the server restarts". Our promise: nothing lost
when someone kicks the power cable, so a phone's code must not change with a
restart of the app. A real `Store` and `Session`; the real `PhoneServer`,
not started (its seats and tokens are all these tests look at).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game import Options
from companion.session import Session
from companion.store import Store
from hardware.phones.codes import SeatCodes, new_token
from hardware.phones.server import PhoneServer
from ui.phones import PhoneTable

ANN, BO = "Ann", "Bo"


def table_for(codes: Path | None) -> PhoneTable:
    """The app's phones as ui/cli.py builds them at start."""
    link = PhoneTable(codes=SeatCodes(codes) if codes is not None else None)
    link.server = PhoneServer(host="127.0.0.1", port=0, render=link.render, act=link.act, call_soon=lambda fn: fn())
    return link


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "games.db") as opened:
        yield opened


def start(store: Store, *names: str) -> Session:
    return Session.start(store, "quin", Options.for_names(*(names or (ANN, BO))), clock=lambda: 0.0)


def in_file(path: Path) -> dict[str, dict[str, str]]:
    games: dict[str, dict[str, str]] = json.loads(path.read_text())["games"]
    return games


def test_a_resumed_game_gets_the_codes_it_had_before_the_restart(tmp_path: Path, store: Store) -> None:
    """After a restart (a new PhoneTable, a new server, the game resumed from the store), every seat's URL
    is the one its phone already has open."""
    path = tmp_path / "phone-codes.json"
    before = table_for(path)
    session = start(store)
    before.attach(session)
    urls = {p: before.server.url_for(p) for p in (ANN, BO)}
    assert in_file(path) == {str(session.game_id): before.server.tokens()}
    before.close()

    after = table_for(path)
    resumed = Session.resume(store)
    assert resumed is not None and resumed.game_id == session.game_id
    after.attach(resumed)
    assert {p: after.server.url_for(p) for p in (ANN, BO)} == urls
    assert table_for(None).server.url_for(ANN) is None, "a server is given no seat until a game is attached"


def test_each_unfinished_game_keeps_its_own_codes_and_a_new_one_gets_fresh_ones(tmp_path: Path, store: Store) -> None:
    """Issue 14 lets several games wait unfinished: coming back to one gives its seats their own codes."""
    path = tmp_path / "phone-codes.json"
    link = table_for(path)
    first, second = start(store), start(store)
    link.attach(first)
    first_tokens = link.server.tokens()
    link.attach(second)
    assert set(link.server.tokens().values()).isdisjoint(first_tokens.values()), "a new game: fresh codes"
    told: list[bool] = []
    new_game = link.server.new_game

    def spied(*args: Any, old_codes_kept: bool = False, **kwargs: Any) -> None:
        told.append(old_codes_kept)
        new_game(*args, old_codes_kept=old_codes_kept, **kwargs)

    link.server.new_game = spied
    link.attach(first)
    assert link.server.tokens() == first_tokens
    assert set(in_file(path)) == {str(first.game_id), str(second.game_id)}
    assert told == [True], "the second game's phones are told their codes will work again when it is back"
    first.act({"type": "leave", "player": ANN})
    link.attach(second)
    assert told == [True, False], "a game that is over: its phones are told to scan a new code"


def test_a_game_that_ends_drops_its_codes_and_an_undo_keeps_them_again(tmp_path: Path, store: Store) -> None:
    """A finished game's codes must not linger in the file; undone back into play, it is unfinished again."""
    path = tmp_path / "phone-codes.json"
    link = table_for(path)
    session = start(store)
    link.attach(session)
    key, tokens = str(session.game_id), link.server.tokens()
    session.act({"type": "leave", "player": ANN})
    assert session.outcome is not None and in_file(path) == {}
    session.undo()
    assert in_file(path) == {key: tokens}


def test_a_discarded_game_loses_its_codes_when_the_phones_next_show_a_game(tmp_path: Path, store: Store) -> None:
    """Discarded on the home screen (no longer unfinished in the store): its codes go at the next attach."""
    path = tmp_path / "phone-codes.json"
    link = table_for(path)
    discarded, kept = start(store), start(store)
    link.attach(discarded)
    link.attach(kept)
    link.detach()
    store.abandon(discarded.game_id, 1.0)
    restarted = table_for(path)
    restarted.attach(Session.load(store, kept.game_id))
    assert set(in_file(path)) == {str(kept.game_id)}


def test_codes_kept_for_other_players_are_not_used(
    tmp_path: Path, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """A file that names other seats for this game (hand-edited, or another table's): fresh codes, one warning
    without any token in it."""
    path = tmp_path / "phone-codes.json"
    session = start(store)
    other = {ANN: new_token(), "Cy": new_token()}
    SeatCodes(path).keep(str(session.game_id), other)
    link = table_for(path)
    with caplog.at_level(logging.INFO):
        link.attach(session)
    fresh = link.server.tokens()
    assert set(fresh) == {ANN, BO} and fresh[ANN] != other[ANN]
    assert in_file(path) == {str(session.game_id): fresh}
    assert "were not used" in caplog.text
    assert not [t for t in (*other.values(), *fresh.values()) if t in caplog.text]


def test_without_a_codes_file_the_phones_work_as_before(store: Store) -> None:
    link = table_for(None)
    session = start(store)
    link.attach(session)
    assert link.server.url_for(ANN) is not None and link.codes is None
    session.act({"type": "leave", "player": ANN})  # nothing to drop, nothing raised
