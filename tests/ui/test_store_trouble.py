"""The table always gets a screen: a second companion, a read-only card, a game that cannot be resumed.

Each case builds the table the way `companion run` does (`ui.table.open_store`)
and hands it to the real app under Xvfb.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from pathlib import Path

import pytest

from companion.config import Config
from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import Store
from tests.support import store_writer
from tests.support.tinygame import GAME
from ui.table import Table, open_store


def _table(path: Path) -> Table:
    store, notices = open_store(path)
    return Table(store=store, config=Config(), dice=RandomDice.seeded(1), notices=notices)


def test_a_second_companion_shows_the_history_and_says_why_it_saves_nothing(ui, tmp_path):
    path = tmp_path / "shared.db"
    with Store.open(path) as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"))
        session.act({"type": "pass", "player": "Ann"})
        session.act({"type": "pass", "player": "Bo"})  # two passes: a finished game, in the history
    holder = store_writer.spawn(path, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        table = _table(path)
        ui.app.reset(table)
        ui.frames(4)
        home = ui.app.home
        assert f"Another Tabletop Companion (process {holder.pid}) is using shared.db" in home.notice
        assert "Quantum Link" in home.history_text, "the history is there to look at"
        home.start("quantum-link")
        ui.frames(3)
        assert ui.screen is home and "nothing is saved here" in home.notice
        ui.screenshot("store-second-companion.png")
        table.store.close()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()


def test_a_game_that_cannot_be_resumed_leaves_the_table_at_home_with_a_sentence(ui, tmp_path):
    from companion.games import register, unregister

    path = tmp_path / "kept.db"
    register(GAME)
    try:
        with Store.open(path) as store:
            session = Session.start(store, "tiny", Options.for_names("Ann", "Bo"))
            session.act({"type": "roll", "player": "Ann"})
    finally:
        unregister("tiny")  # as if the game had gone from this version of the app
    table = _table(path)
    ui.app.reset(table)
    assert ui.app.start_where_left() is None
    ui.frames(3)
    assert ui.screen is ui.app.home
    assert ui.app.home.notice.startswith("The unfinished game could not be resumed (There is no game called 'tiny'")
    assert ui.app.home.notice.endswith("it is kept in the games file.")
    assert table.store.unfinished() is not None, "the game is still there"
    table.store.close()


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


def test_a_read_only_card_lets_the_table_play_and_says_so_until_it_can_save(ui, tmp_path):
    card = tmp_path / "card"
    card.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    try:
        _mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", str(card))
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"this machine cannot mount a tmpfs here ({error})")
    try:
        path = card / "games.db"
        with Store.open(path) as store:
            session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"))
            session.act({"type": "place", "player": "Ann", "cell": [0, 0], "face": 1})
        _mount("-o", "remount,ro", str(card))
        table = _table(path)
        assert "The SD card is read-only" in " ".join(table.notices)
        ui.app.reset(table)
        screen = ui.app.start_where_left()
        assert screen is not None
        ui.frames(4)
        read_only = "The SD card is read-only: you can play, but nothing is saved until it can be written again."
        assert screen.banner == read_only and screen.banner_is_error
        assert screen.send({"type": "place", "player": "Bo", "cell": [1, 0], "face": 1}), "the table plays on"
        ui.frames(3)
        assert screen.banner == read_only, "the banner stays while nothing is saved"
        ui.screenshot("store-read-only-card.png")
        _mount("-o", "remount,rw", str(card))
        assert screen.send({"type": "place", "player": "Ann", "cell": [2, -1], "face": 1})
        ui.frames(3)
        assert screen.banner == "The games file can be written again: everything played meanwhile is saved now."
        assert screen.send({"type": "place", "player": "Bo", "cell": [-1, 0], "face": 1})
        ui.frames(3)
        assert screen.banner == "", "saving again: the banner goes with the next move"
        ui.app.go_home()
        table.store.close()
        with Store.open(path) as again:
            record = again.unfinished()
            assert record is not None and len(again.moves(record.id)) == 4
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            _mount("-o", "remount,rw", str(card))
        subprocess.run(["umount", "-l", str(card)], check=False, capture_output=True)
