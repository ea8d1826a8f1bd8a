"""Where the companion keeps its files: the user data and config directories.

`COMPANION_HOME` puts everything under one folder instead (tests, a second
table on one machine, a read-only root on the appliance).
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_path, user_data_path

APP = "tabletop-companion"


def _home() -> Path | None:
    home = os.environ.get("COMPANION_HOME")
    return Path(home) if home else None


def data_dir() -> Path:
    home = _home()
    return home / "data" if home else user_data_path(APP)


def config_dir() -> Path:
    home = _home()
    return home / "config" if home else user_config_path(APP)


def database_path() -> Path:
    return data_dir() / "games.db"


def config_path() -> Path:
    return config_dir() / "companion.toml"


def kivy_home() -> Path:
    """Kivy's own config and logs: ours, never ``~/.kivy`` by accident."""
    return config_dir() / "kivy"


def emulated_displays_dir() -> Path:
    """Where `companion display-emulator` puts its port's name, and where simulated hardware looks for it."""
    return data_dir() / "emulated-displays"


def emulated_display_keys_dir() -> Path:
    """Where emulated displays keep the pairing keys they were given (a real display keeps its own in flash)."""
    return data_dir() / "emulated-display-keys"


def pairings_path() -> Path:
    """Which player display (by its device identity) belongs to which player."""
    return data_dir() / "displays.json"


def table_choices_path() -> Path:
    """What the table chose on the touchscreen (Settings on the home screen), kept across restarts."""
    return data_dir() / "table-choices.json"


def phone_codes_path() -> Path:
    """Each unfinished game's seat codes for the phones, so that a restart does not make everyone scan again."""
    return data_dir() / "phone-codes.json"
