"""X's own synthetic input (the XTest extension, `libXtst`), through ctypes: a pointer pressed on a real window.

A touch made in Python (Kivy's `UnitTestTouch`) starts at the widgets; a click through X starts where a
player's does: X's pointer, SDL's events, Kivy's mouse provider, the loop that reads them. The tests that
check what reading input costs or wakes (`ui.resting`) and `make bench`'s touch waits use it.
"""

from __future__ import annotations

import ctypes
import os
from types import TracebackType


class XInputMissing(RuntimeError):
    """libX11 or libXtst cannot be loaded, or the display cannot be opened: the message says which."""


class XPointer:
    """X's pointer on the display `DISPLAY` names: `move_to` a spot, `press`, `release`. Close it (or use `with`)."""

    def __init__(self, display: str | None = None) -> None:
        try:
            self._x11, self._xtst = ctypes.CDLL("libX11.so.6"), ctypes.CDLL("libXtst.so.6")
        except OSError as missing:
            why = f"X's XTest library is missing ({missing}): `make test-deps` installs libxtst6"
            raise XInputMissing(why) from None
        self._x11.XOpenDisplay.restype = ctypes.c_void_p
        self._x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self._x11.XFlush.argtypes = [ctypes.c_void_p]
        self._x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        self._xtst.XTestFakeMotionEvent.argtypes = [
            ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong,
        ]  # fmt: skip
        self._xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        name = display or os.environ.get("DISPLAY", "")
        self._display = self._x11.XOpenDisplay(name.encode())
        if not self._display:
            raise XInputMissing(f"X's display {name!r} could not be opened")

    def move_to(self, x: int, y: int) -> None:
        """The pointer to (x, y) of the screen, from its top left."""
        self._xtst.XTestFakeMotionEvent(self._display, -1, x, y, 0)
        self._x11.XFlush(self._display)

    def press(self) -> None:
        """The first button down where the pointer is."""
        self._xtst.XTestFakeButtonEvent(self._display, 1, 1, 0)
        self._x11.XFlush(self._display)

    def release(self) -> None:
        self._xtst.XTestFakeButtonEvent(self._display, 1, 0, 0)
        self._x11.XFlush(self._display)

    def close(self) -> None:
        """Safe twice."""
        if self._display:
            self._x11.XCloseDisplay(self._display)
            self._display = None

    def __enter__(self) -> XPointer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
