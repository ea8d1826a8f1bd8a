"""`companion.paths` and `companion.dispatch`: where the companion keeps its files, and the door between threads.

paths.py: "`COMPANION_HOME` puts everything under one folder instead (tests, a second table on one machine, a
read-only root on the appliance)." Without it, the user's own data and config folders, never the working folder.
"""

from __future__ import annotations

import threading
from pathlib import Path

from platformdirs import user_config_path, user_data_path

from companion import paths
from companion.dispatch import immediate

KEPT = {
    paths.database_path: ("data", "games.db"),
    paths.config_path: ("config", "companion.toml"),
    paths.kivy_home: ("config", "kivy"),
    paths.emulated_displays_dir: ("data", "emulated-displays"),
    paths.emulated_display_keys_dir: ("data", "emulated-display-keys"),
    paths.pairings_path: ("data", "displays.json"),
    paths.table_choices_path: ("data", "table-choices.json"),
    paths.phone_codes_path: ("data", "phone-codes.json"),
}


def test_a_second_table_on_one_machine_keeps_everything_under_its_own_home(monkeypatch, tmp_path):
    """Every file the companion keeps is under `COMPANION_HOME`: two tables never share a games file."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "table two"))
    for where, (folder, name) in KEPT.items():
        assert where() == tmp_path / "table two" / folder / name, where.__name__


def test_without_a_home_the_files_are_the_users_own(monkeypatch):
    """No `COMPANION_HOME` (an empty one counts as none): the platform's data and config folders of the app."""
    monkeypatch.setenv("COMPANION_HOME", "")
    data, config = user_data_path(paths.APP), user_config_path(paths.APP)
    for where, (folder, name) in KEPT.items():
        assert where() == (data if folder == "data" else config) / name, where.__name__
    assert all(Path(where()).is_absolute() for where in KEPT)  # never the folder the command was run from


def test_the_immediate_dispatcher_runs_the_work_at_once_on_the_calling_thread():
    """Tests and the headless driver: what a hardware thread hands over runs now, where it was handed over."""
    ran: list[str] = []
    immediate(lambda: ran.append(threading.current_thread().name))
    assert ran == [threading.current_thread().name]
