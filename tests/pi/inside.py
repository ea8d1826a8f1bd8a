"""`make pi-check`'s helpers, run inside the arm64 root (and on the host for the golden games).

``python inside.py ready [--cwd DIR] [--env K=V ...] -- COMMAND...``
    Starts COMMAND on a fresh Xvfb with a NOTIFY_SOCKET, as systemd would, and
    prints the seconds to its READY=1 (its first frame); stops it then.
``python inside.py golden OUTDIR``  (from a checkout, with its environment's Python)
    Plays every golden script (tests/games/golden) through `companion play`
    and writes each one's output to OUTDIR/<script>.out, to compare across machines.
``python inside.py startup ROUNDS``  (from a checkout, with its environment's Python)
    Seconds to the first frame of a bare Kivy app and of ours (bench/first_frame.py),
    ROUNDS times each, alternating, on a fresh Xvfb; prints both medians and their ratio.

Only the standard library here, so that the first use works before anything else is installed.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
SCREEN = "800x480x24"
READY_TIMEOUT = 900.0
"""Seconds: under emulation (qemu-user) Kivy's first frame takes a minute or more."""


@contextlib.contextmanager
def xvfb() -> Iterator[str]:
    """A fresh virtual X screen for the block; yields its name (``:N``)."""
    if not shutil.which("Xvfb"):
        raise SystemExit("Xvfb is not installed (Debian package xvfb)")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", SCREEN, "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=60)


def ready(command: list[str], cwd: str | None, extra: dict[str, str]) -> int:
    with tempfile.TemporaryDirectory() as folder, xvfb() as display:
        address = os.path.join(folder, "notify.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(address)
        os.chmod(folder, 0o755)
        os.chmod(address, 0o777)  # the app may run as another user (the service's)
        listener.settimeout(5)
        env = {**os.environ, "DISPLAY": display, "NOTIFY_SOCKET": address, **extra}
        started = time.monotonic()
        app = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        said = b""
        try:
            while time.monotonic() - started < READY_TIMEOUT:
                with contextlib.suppress(TimeoutError):
                    said = listener.recv(256)
                    if said == b"READY=1":
                        break
                if app.poll() is not None:
                    break
            seconds = time.monotonic() - started
        finally:
            app.terminate()
            try:
                output, _ = app.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                app.kill()
                output, _ = app.communicate()
            listener.close()
        if said != b"READY=1":
            sys.stdout.write(output.decode(errors="replace")[-4000:])
            print(f"no READY=1 from {' '.join(command)} (exit status {app.returncode}, {seconds:.0f} s)")
            return 1
        print(f"READY=1 (first frame) after {seconds:.1f} s")
        return 0


def golden(outdir: Path) -> int:
    """Each golden script as `companion play` prints it, with the script's players, settings and seed."""
    sys.path.insert(0, str(CHECKOUT))
    from companion.games import names as game_names
    from ui import cli

    outdir.mkdir(parents=True, exist_ok=True)
    scripts = sorted((CHECKOUT / "tests" / "games" / "golden").glob("*.jsonl"))
    names = sorted(game_names(), key=len, reverse=True)
    for path in scripts:
        header: dict[str, object] = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            key, sep, value = line[1:].strip().partition(":") if line.startswith("#") else ("", "", "")
            if sep and key in ("players", "settings", "seed"):
                header[key] = value.strip() if key == "players" else json.loads(value)
        game = next(name for name in names if path.stem.startswith(name + "-"))
        with tempfile.TemporaryDirectory() as folder:
            argv = ["play", game, "--players", str(header["players"]), "--actions", str(path)]
            argv += ["--db", os.path.join(folder, "play.db"), "--private"]
            settings = header.get("settings") or {}
            assert isinstance(settings, dict)
            argv += [f"--setting={key}={json.dumps(value)}" for key, value in settings.items()]
            if header.get("seed") is not None:
                argv += ["--seed", str(header["seed"])]
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                status = cli.main(argv)
        (outdir / f"{path.stem}.out").write_text(f"exit status {status}\n{printed.getvalue()}", encoding="utf-8")
    print(f"{len(scripts)} golden scripts played")
    return 0


def startup(rounds: int) -> int:
    """Bare Kivy against ours, as `make bench` measures them, alternating so that both see the same machine."""
    times: dict[str, list[float]] = {"hello": [], "companion": []}
    with tempfile.TemporaryDirectory() as home, xvfb() as display:
        for turn in range(rounds):
            for which in ("hello", "companion"):
                kivy_home = Path(home) / f"{which}-{turn}" / "config" / "kivy"
                kivy_home.mkdir(parents=True)
                env = {
                    **os.environ,
                    "DISPLAY": display,
                    "COMPANION_HOME": str(kivy_home.parents[1]),
                    "KIVY_HOME": str(kivy_home),
                    "KIVY_NO_CONSOLELOG": "1",
                    "BENCH_T0": repr(time.time()),
                }
                args = ["hello"] if which == "hello" else ["companion", "--db", str(kivy_home.parents[1] / "g.db")]
                done = subprocess.run(
                    [sys.executable, "-m", "bench.first_frame", *args],
                    cwd=CHECKOUT,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=READY_TIMEOUT,
                    check=False,
                )
                if done.returncode != 0:
                    print(done.stdout, done.stderr[-4000:])
                    print(f"bench.first_frame {which} failed (exit status {done.returncode})")
                    return 1
                times[which].append(float(done.stdout.split()[0]))
    bare, ours = statistics.median(times["hello"]), statistics.median(times["companion"])
    print(
        f"start-up to the first frame: companion {ours:.1f} s, bare Kivy {bare:.1f} s, ratio {ours / bare:.2f} "
        f"(median of {rounds} each: {times})"
    )
    return 0


def main(argv: list[str]) -> int:
    if argv[0] == "ready":
        split = argv.index("--")
        options, command = argv[1:split], argv[split + 1 :]
        cwd, extra = None, {}
        while options:
            name, value = options.pop(0), options.pop(0)
            if name == "--cwd":
                cwd = value
            else:
                key, _, setting = value.partition("=")
                extra[key] = setting
        return ready(command, cwd, extra)
    if argv[0] == "golden":
        return golden(Path(argv[1]))
    if argv[0] == "startup":
        return startup(int(argv[1]))
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
