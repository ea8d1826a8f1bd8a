"""Child process for the start-up benchmark: print seconds to the first frame and peak memory, then quit.

``python -m bench.first_frame hello``   a bare Kivy "hello" app (the baseline)
``python -m bench.first_frame companion --db PATH``   our app, through the same path as `companion run`
"""

from __future__ import annotations

import os
import resource
import sys
import time


def _report_and_stop() -> None:
    from kivy.app import App

    started = float(os.environ["BENCH_T0"])
    print(f"{time.time() - started:.4f} ", end="", flush=True)

    def stop(_dt: float) -> None:
        App.get_running_app().stop()

    from kivy.clock import Clock

    Clock.schedule_once(stop, 0)


def hello() -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.label import Label

    class Hello(App):
        def build(self) -> Label:
            return Label(text="hello")

        def on_start(self) -> None:
            Clock.schedule_once(lambda _dt: _report_and_stop(), 0)

    Hello().run()


def companion(db: str) -> None:
    from ui.cli import _parser, run

    args = _parser().parse_args(["run", "--db", db])
    run(args, on_first_frame=_report_and_stop)


if __name__ == "__main__":
    if sys.argv[1] == "hello":
        hello()
    else:
        companion(sys.argv[3])
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)  # KiB
