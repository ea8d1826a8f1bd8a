"""Idle cost: the CPU an app sitting still takes, against a bare Kivy app sitting still (issue 14).

An appliance is left on all evening on a fanless Pi, mostly waiting. Each
figure is the process's CPU time (user + system, every thread) over
`SECONDS` seconds of idling under the same X screen, after `SETTLE` seconds
to let the first frames and any loading pass:

- the baseline: a bare Kivy app with one Label, Kivy's own defaults;
- the home screen, through the same path as `companion run`, with no games
  file yet, and again with three unfinished games listed;
- each game's screen with a game just started: the game clock running.

Each is a child process (``python -m bench.bench_idle child WHAT``), the
rounds interleaved so that drift on a shared machine hits all alike; the
median of the rounds is shown beside the baseline's, as a ratio. Goal: ≤ 1.0.
Beside it, Kivy's frames in the while (how often the main loop woke), and
the share of the CPU time spent in Mesa's software rasterizer threads
(``llvmpipe-*``): under Xvfb every redraw of the 800×480 window is drawn by
the CPU, which the Pi's GPU does instead, so the second ratio ("without
rasterizer") is nearer to what a redraw costs the appliance.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
SECONDS = float(os.environ.get("BENCH_IDLE_SECONDS", "8"))
SETTLE = 2.0
ROUNDS = int(os.environ.get("BENCH_IDLE_ROUNDS", "2"))
GAMES = ("quantum-link", "quark", "quin", "quinque", "quintet")
PLAYERS = ("Ann", "Bo")
GOAL = 1.0
UNFINISHED = "home-unfinished"


# -- the child: idle for a while, then print CPU seconds and frames ------------------------


def _rasterizer_seconds() -> float:
    """CPU seconds so far of this process's software GL rasterizer threads (Mesa's llvmpipe), 0 if none."""
    ticks = 0
    for task in Path("/proc/self/task").iterdir():
        try:
            if (task / "comm").read_text().startswith("llvmpipe"):
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                ticks += int(fields[11]) + int(fields[12])  # utime, stime
        except OSError:  # the thread ended meanwhile
            continue
    return ticks / os.sysconf("SC_CLK_TCK")


def _measure_then_stop() -> None:
    """From now: settle, then count CPU time and frames over `SECONDS`, print them, and stop the app."""
    from kivy.app import App
    from kivy.clock import Clock

    def start(_dt: float) -> None:
        cpu, raster, frames = time.process_time(), _rasterizer_seconds(), Clock.frames
        Clock.schedule_once(lambda _dt: stop(cpu, raster, frames), SECONDS)

    def stop(cpu: float, raster: float, frames: int) -> None:
        cpu, raster = time.process_time() - cpu, _rasterizer_seconds() - raster
        print(f"IDLE {cpu:.4f} {raster:.4f} {Clock.frames - frames}", flush=True)
        App.get_running_app().stop()

    Clock.schedule_once(start, SETTLE)


def hello() -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.app import App
    from kivy.uix.label import Label

    class Hello(App):
        def build(self) -> Label:
            return Label(text="hello")

        def on_start(self) -> None:
            _measure_then_stop()

    Hello().run()


def companion(db: str, game: str | None) -> None:
    from ui.cli import _parser, run

    def first_frame() -> None:
        if game is not None:
            from kivy.app import App

            from companion.game import Options

            App.get_running_app().start_game(game, Options.for_names(*PLAYERS))
        _measure_then_stop()

    run(_parser().parse_args(["run", "--db", db]), on_first_frame=first_frame)


# -- the parent ----------------------------------------------------------------------------------


def _unfinished_games(db: Path, games: tuple[str, ...] = ("quinque", "quark", "quintet")) -> None:
    """A games file with one unfinished game of each of `games`, for the home screen to list."""
    from companion.game import Options
    from companion.session import Session
    from companion.store import Store

    with Store.open(db) as store:
        for game in games:
            Session.start(store, game, Options.for_names(*PLAYERS))


def _idle(what: str, home: Path) -> tuple[float, float, int]:
    """CPU seconds (all, the rasterizer's) and frames of a child idling as `what` ("hello", "home", a game...).

    Each child starts from a games file of its own, so that no round sees the games an earlier one left.
    """
    kivy_home = home / "config" / "kivy"
    kivy_home.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp(prefix=f"{what}-", dir=home)) / "games.db"
    if what == UNFINISHED:
        _unfinished_games(db)
    env = {
        **os.environ,
        "COMPANION_HOME": str(home),
        "KIVY_HOME": str(kivy_home),
        "KIVY_NO_CONSOLELOG": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bench.bench_idle", "child", what, str(db)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=HERE.parent,
    )
    found = [row.split() for row in done.stdout.splitlines() if row.startswith("IDLE ")]
    if done.returncode != 0 or not found:
        raise RuntimeError(f"idle {what} failed:\n{done.stdout[-1500:]}{done.stderr[-2000:]}")
    _, cpu, raster, frames = found[-1]
    return float(cpu), float(raster), int(frames)


def measure(rounds: int = ROUNDS) -> dict[str, tuple[float, float, int]]:
    """Median CPU seconds (all, and the rasterizer's) and frames per target, over interleaved rounds."""
    from tests.support import xvfb_display

    targets = ("hello", "home", UNFINISHED, *GAMES)
    taken: dict[str, list[tuple[float, float, int]]] = {what: [] for what in targets}
    home = Path(tempfile.mkdtemp(prefix="bench-idle-"))
    try:
        with xvfb_display():
            for _ in range(rounds):
                for what in targets:
                    taken[what].append(_idle(what, home))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return {
        what: (
            statistics.median(c for c, _, _ in runs),
            statistics.median(r for _, r, _ in runs),
            int(statistics.median(f for _, _, f in runs)),
        )
        for what, runs in taken.items()
    }


def run() -> list[str]:
    from bench.__main__ import line

    figures = measure()
    base_cpu, base_raster, base_frames = figures.pop("hello")
    base_own = max(base_cpu - base_raster, 1e-3)
    lines = []
    for what, (cpu, raster, frames) in figures.items():
        label = {"home": "home screen", UNFINISHED: "home screen, 3 unfinished"}.get(what, f"{what}, clock running")
        lines.append(
            line(
                f"idle CPU over {SECONDS:g} s: {label}",
                f"{cpu * 1000:.0f} ms",
                f"{base_cpu * 1000:.0f} ms",
                cpu / base_cpu,
                f"≤ {GOAL:.1f}",
            )
            + f"   frames {frames} vs {base_frames}"
            + f"   without rasterizer {(cpu - raster) * 1000:.0f} vs {base_own * 1000:.0f} ms,"
            + f" ratio {(cpu - raster) / base_own:.2f}"
        )
    return lines


if __name__ == "__main__":
    if sys.argv[1:2] == ["child"]:
        what, db = sys.argv[2], sys.argv[3]
        if what == "hello":
            hello()
        else:
            companion(db, None if what in ("home", UNFINISHED) else what)
    else:
        for text in run():
            print(text, flush=True)
