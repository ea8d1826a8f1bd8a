"""What the table chose on the touchscreen and keeps across restarts: today, the phones (issue 15).

The config file is the owner's and the app never writes it. A choice made in
Settings on the home screen is kept in a small file of the app's own
(`paths.table_choices_path()`), and from then on it wins over the config
file's ``[phones] enabled`` and ``interface``; the port and the certificate
stay the config file's. `TableChoices.load` never fails: a file it cannot read
as its own is left alone, with one sentence, and the choices are the config
file's until one is made on the screen (which is then kept for this run only).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from companion import app_files
from companion.config import PhonesConfig

KIND, VERSION = "table-choices", 1


@dataclass(frozen=True)
class PhonesChoice:
    """Phones on or off, and where the server listens: a network's name ("wlan0") or an address."""

    on: bool
    listen: str = ""  # "" when off

    def applied_to(self, config: PhonesConfig, address: str | None) -> PhonesConfig:
        """The config file's `[phones]` with this choice made: on at `address` (the network's, found now), or off."""
        if not self.on or address is None:
            return dataclasses.replace(config, enabled=False)
        return dataclasses.replace(config, enabled=True, interface=address)


class TableChoices:
    """The choices file: `phones` is None until Settings changed it; `problem` is why the file is not used."""

    def __init__(self, path: Path, phones: PhonesChoice | None, problem: str | None, writable: bool) -> None:
        self.path, self.phones, self.problem, self._writable = path, phones, problem, writable

    @classmethod
    def load(cls, path: Path) -> TableChoices:
        try:
            data = app_files.read(path, KIND, VERSION)
        except app_files.NotOurs as not_ours:
            return cls(path, None, str(not_ours), writable=False)
        phones = (data or {}).get("phones")
        if isinstance(phones, dict) and isinstance(phones.get("on"), bool) and isinstance(phones.get("listen"), str):
            return cls(path, PhonesChoice(phones["on"], phones["listen"]), None, writable=True)
        return cls(path, None, None, writable=True)  # none made yet (or an entry we no longer read: made again)

    def choose_phones(self, choice: PhonesChoice) -> str | None:
        """Keep `choice` (at once, for this run; on the card when it can be): None, or why it lasts this run only."""
        self.phones = choice
        if not self._writable:
            return f"This choice lasts until the app stops: {self.problem}"
        try:
            app_files.write(self.path, KIND, VERSION, {"phones": dataclasses.asdict(choice)})
        except OSError as error:
            return f"This choice lasts until the app stops: it could not be saved ({error.strerror or error})."
        return None
