"""Emulated player displays on real pseudo-terminals, plugged into a folder of ports."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

from hardware.display.emulator import DisplayCore, PtyDisplay


class DisplayPorts:
    """A folder of serial ports (like /dev/serial/by-id) and the emulated displays plugged into them.

    A `DisplayHub` scanning `pattern` finds them. `close()` (or leaving the
    ``with`` block) unplugs them all; it is safe to call twice.
    """

    def __init__(self, root: Path) -> None:
        self.ports = root / "ports"
        self.ports.mkdir()
        self.displays: list[PtyDisplay] = []

    @property
    def pattern(self) -> str:
        """What a hub scans to find these ports."""
        return str(self.ports / "*")

    def plug(self, identity: str, port: str, cols: int = 40, rows: int = 12, *, key: bytes | None = None) -> PtyDisplay:
        """Plug a new emulated display called `identity` (holding pairing `key`, if any) into the port named `port`."""
        display = PtyDisplay(DisplayCore(identity, cols, rows, key=key), link=self.ports / port).plug()
        self.displays.append(display)
        return display

    def close(self) -> None:
        for display in self.displays:
            display.close()

    def __enter__(self) -> DisplayPorts:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
