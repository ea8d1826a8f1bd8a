"""What the tests share, in one place: ``from tests.support import wait_until, ManualClock, ...``.

Here, small and free of test frameworks (the benchmarks import from here too):

- `wait_until`: look at a condition until it holds, with a deadline;
- `ManualClock`, `TickingClock`: time the test decides;
- `QueuedDispatcher`: the UI thread's stand-in, run by the test;
- `xvfb_display`: one virtual X screen for the UI tests and the benchmarks.

Modules, imported by name:

- `tests.support.displays`: emulated player displays plugged into a folder of ports;
- `tests.support.golden`: the golden scripts in tests/games/golden/ and their reader;
- `tests.support.quin`, `tests.support.quinque`: helpers for those games' rule tests;
- `tests.support.tinygame`: a tiny dice game for testing the session machinery alone;
- `tests.support.fault_corpus`: the damaged games files of the fault-injection campaign;
- `tests.support.store_writer`: a companion in a child process holding a games file open.
"""

from tests.support.clocks import ManualClock, TickingClock
from tests.support.dispatch import QueuedDispatcher
from tests.support.waiting import wait_until
from tests.support.xvfb import XvfbMissing, xvfb_display

__all__ = ["ManualClock", "QueuedDispatcher", "TickingClock", "XvfbMissing", "wait_until", "xvfb_display"]
