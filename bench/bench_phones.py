"""How fast a change reaches a phone, and what the phone server costs in memory.

Latency: the real `PhoneServer` on loopback, a page that changes, and a real
aiohttp WebSocket client holding the seat: from `changed()` to the new page's
message received by the client. The UI thread is a stand-in thread: once
running handed-over work at once, once only on 60 fps ticks as Kivy's Clock
does (the hop to the session costs up to a frame in the app). Beside it, the
baseline: a plain aiohttp WebSocket echo's round trip on loopback, the same
client, the same run. Goal (issue 15): p99 under 50 ms.

In a browser: Debian's headless Chromium on a seat's page of a real Quin
`Session`; an identity changes (an assign, then its take-back, played on the
UI stand-in as the touchscreen would), and a MutationObserver in the page
stamps the DOM's update (performance.timeOrigin + now, the clocks matched
first). Beside it, a plain WebSocket echo's round trip from the same page
(its CSP bypassed for the bench only), the same run.

Under siege (issue 24): the server in a process of its own at 1,024 open
files (`tests.support.phone_siege`); a player's page (the page, then its
live connection's first message) opened 20 times while nothing else
connects (the baseline), then while 1,200 idle connections from 20 other
loopback addresses try to hold the server. Goal: under 1 s.

Memory: the real app (`companion run`, under Xvfb) up to its first frame,
its resident memory read; then a `PhoneServer` started in it with two phones
connected (from this process), and its memory read again. Goal: within
+15 MiB.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aiohttp import web

# aiohttp and the server are imported where they are used: the memory child must not have them before it measures.

ROUNDS = 400
WARM_UP = 30
GOAL_MS = 50.0
GOAL_MIB = 15.0
FRAME = 1 / 60
HERE = Path(__file__).parent


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


class _UiThread:
    """The UI thread's stand-in: runs handed-over work at once, or only on frame ticks (`frame` seconds)."""

    def __init__(self, frame: float | None = None) -> None:
        self.frame = frame
        self._work: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def __call__(self, fn: Callable[[], None]) -> None:
        self._work.put(fn)

    def _run(self) -> None:
        next_tick = time.perf_counter()
        while True:
            if self.frame is not None:  # like Kivy's Clock: handed-over work waits for the next frame
                next_tick += self.frame
                time.sleep(max(0.0, next_tick - time.perf_counter()))
                todo = []
                while not self._work.empty():
                    todo.append(self._work.get())
            else:
                todo = [self._work.get()]
            for fn in todo:
                if fn is None:
                    return
                fn()

    def close(self) -> None:
        self._work.put(None)
        self._thread.join(5)


def _page(count: int) -> dict[str, Any]:
    rows = [{"text": f"{n}  Piece", "note": "on the board", "tone": "normal"} for n in range(1, 6)]
    return {
        "title": "Ann · Game",
        "status": f"move {count}",
        "notice": "",
        "sections": [{"heading": "Your pieces", "rows": rows}],
        "choices": [{"label": "Choose", "action": {"type": "pick", "player": "Ann"}, "tone": "accent"}],
    }


def _changed_to_page(frame: float | None) -> list[float]:
    import aiohttp

    from hardware.phones.server import PhoneServer

    count = [0]
    ui = _UiThread(frame)
    server = PhoneServer(
        host="127.0.0.1", port=0, render=lambda player: _page(count[0]), act=lambda player, action: None, call_soon=ui
    )
    server.new_game(["Ann", "Bo"])
    seat = server.start().url_for("Ann")
    assert seat is not None

    async def measure() -> list[float]:
        times = []
        async with aiohttp.ClientSession() as client, client.ws_connect(seat.replace("http", "ws", 1) + "/live") as ws:
            await ws.receive_str()
            for n in range(1, WARM_UP + ROUNDS + 1):
                count[0] = n
                t0 = time.perf_counter()
                server.changed()
                while json.loads(await ws.receive_str(timeout=5))["page"]["status"] != f"move {n}":
                    pass
                if n > WARM_UP:
                    times.append(time.perf_counter() - t0)
                await asyncio.sleep(random.uniform(0.001, 0.02))  # any phase against the UI's frame ticks
        return times

    try:
        return asyncio.run(measure())
    finally:
        server.close()
        ui.close()


def _echo_server() -> tuple[int, Callable[[], None]]:
    """A plain aiohttp WebSocket echo on 127.0.0.1 in a thread of its own, like ours: its port, its stop."""
    from aiohttp import web

    ready: queue.Queue[tuple[int, asyncio.AbstractEventLoop, web.AppRunner]] = queue.Queue()

    async def echo(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for message in ws:
            await ws.send_str(message.data)
        return ws

    def serve() -> None:
        loop = asyncio.new_event_loop()
        app = web.Application()
        app.router.add_get("/echo", echo)
        runner = web.AppRunner(app, access_log=None)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        ready.put((runner.addresses[0][1], loop, runner))
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())
        loop.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    port, loop, _runner = ready.get(timeout=10)

    def stop() -> None:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)

    return port, stop


def _echo() -> list[float]:
    """A plain aiohttp WebSocket echo's round trip, the same client as `_changed_to_page`'s."""
    import aiohttp

    port, stop = _echo_server()

    async def measure() -> list[float]:
        times = []
        async with aiohttp.ClientSession() as client, client.ws_connect(f"ws://127.0.0.1:{port}/echo") as ws:
            for n in range(WARM_UP + ROUNDS):
                t0 = time.perf_counter()
                await ws.send_str(json.dumps({"type": "page", "page": _page(n)}))
                await ws.receive_str(timeout=5)
                if n >= WARM_UP:
                    times.append(time.perf_counter() - t0)
                await asyncio.sleep(0.002)
        return times

    try:
        return asyncio.run(measure())
    finally:
        stop()


def latency() -> list[str]:
    from bench.__main__ import line  # here: the memory child must not import more than the app

    echo = _echo()
    lines = []
    for label, frame in (("UI at once", None), ("UI on 60 fps", FRAME)):
        ours = _changed_to_page(frame)
        for what, ours_s, echo_s in (
            ("median", statistics.median(ours), statistics.median(echo)),
            ("p99", _p99(ours), _p99(echo)),
        ):
            lines.append(
                line(
                    f"page after changed(), {what}, {label}",
                    f"{ours_s * 1000:.2f} ms",
                    f"{echo_s * 1000:.2f} ms",
                    ours_s / echo_s,
                    f"< {GOAL_MS:.0f} ms" if what == "p99" else "",
                )
            )
    return lines


# -- in a browser ---------------------------------------------------------------------------


BROWSER_ROUNDS = 50

_OBSERVE = """
window.benchMarks = [];
new MutationObserver(() => window.benchMarks.push(performance.timeOrigin + performance.now()))
  .observe(document.getElementById("sections"), {childList: true, subtree: true, characterData: true});
"""

_PAGE_ECHO = """
const [port, rounds, done] = arguments;
const times = [];
const ws = new WebSocket("ws://127.0.0.1:" + port + "/echo");
const text = JSON.stringify({type: "page", page: {title: "Ann · Quin", sections: [], choices: []}});
let t0 = 0;
ws.onopen = () => { t0 = performance.now(); ws.send(text); };
ws.onmessage = () => {
  times.push(performance.now() - t0);
  if (times.length >= rounds) { ws.close(); done(times); return; }
  t0 = performance.now();
  ws.send(text);
};
ws.onerror = () => done(null);
"""


def _page_clock_offset(driver: Any) -> float:
    """The page's clock (timeOrigin + now, ms) minus ours, from the tightest of a few brackets."""
    best = (float("inf"), 0.0)
    for _ in range(20):
        before = time.time() * 1000
        page = float(driver.execute_script("return performance.timeOrigin + performance.now()"))
        after = time.time() * 1000
        best = min(best, (after - before, page - (before + after) / 2))
    return best[1]


def _browser() -> tuple[list[float], list[float]]:
    """Identity change → the page's DOM updated (ms), and the page's own WebSocket echo round trips (ms)."""
    from selenium.webdriver.support.ui import WebDriverWait

    from companion.game import Options
    from companion.games.quin.rules import Assign, Clone, Unassign
    from companion.session import Session
    from companion.store import Store
    from hardware.phones.server import PhoneServer
    from tests.support.browser import phone
    from ui.phones import PhoneTable

    ui = _UiThread(None)

    def on_ui(fn: Callable[[], Any]) -> Any:
        done: queue.Queue[Any] = queue.Queue()
        ui(lambda: done.put(fn()))
        return done.get(timeout=10)

    link = PhoneTable()
    link.server = PhoneServer(host="127.0.0.1", port=0, render=link.render, act=link.act, call_soon=ui).start()
    port, stop_echo = _echo_server()
    driver = None
    try:
        session = on_ui(lambda: Session.start(Store.in_memory(), "quin", Options.for_names("Ann", "Bo")))
        on_ui(lambda: link.attach(session))
        on_ui(lambda: session.act(Clone("Ann", taken="Void", made="Memory")))
        driver = phone()
        driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})  # the echo is on another port
        driver.get(link.server.url_for("Ann"))
        wait = WebDriverWait(driver, 20, poll_frequency=0.01)
        wait.until(lambda d: "Take back" in d.page_source or "is a" in d.page_source)
        driver.execute_script(_OBSERVE)
        offset = _page_clock_offset(driver)
        changes = []
        for n in range(WARM_UP // 3 + BROWSER_ROUNDS):
            marks = len(driver.execute_script("return window.benchMarks"))
            action = Assign("Ann", label="1", identity="Light", where="board") if n % 2 == 0 else Unassign("Ann", "1")

            def play(action: Any = action) -> Any:
                return session.act(action)

            def updated(d: Any, marks: int = marks) -> bool:
                return len(d.execute_script("return window.benchMarks")) > marks

            t0 = time.time() * 1000
            on_ui(play)
            wait.until(updated)
            mark = float(driver.execute_script("return window.benchMarks")[marks])
            if n >= WARM_UP // 3:
                changes.append(mark - offset - t0)
            time.sleep(random.uniform(0.005, 0.03))
        driver.set_script_timeout(30)
        echo = driver.execute_async_script(_PAGE_ECHO, port, WARM_UP + BROWSER_ROUNDS)
        assert echo is not None, "the page's echo socket failed"
        return changes, [float(t) for t in echo[WARM_UP:]]
    finally:
        if driver is not None:
            driver.quit()
        stop_echo()
        link.close()
        ui.close()


def browser() -> list[str]:
    from bench.__main__ import line  # here: the memory child must not import more than the app

    changes, echo = _browser()
    return [
        line(
            f"in Chromium: identity change → DOM, {what}",
            f"{ours:.2f} ms",
            f"{base:.2f} ms",
            ours / base,
            f"< {GOAL_MS:.0f} ms" if what == "p99" else "",
        )
        for what, ours, base in (
            ("median", statistics.median(changes), statistics.median(echo)),
            ("p99", _p99(changes), _p99(echo)),
        )
    ]


# -- memory: in the real app ------------------------------------------------------------------


def _rss_kib() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def child() -> None:
    """In the app's process: RSS at the first frame, then with the server started and two phones on it."""
    from kivy.app import App
    from kivy.clock import Clock

    from ui.cli import _parser, run

    def call_soon(fn: Callable[[], None]) -> None:
        Clock.schedule_once(lambda _dt: fn(), 0)

    def measured(_dt: float) -> None:
        before = _rss_kib()
        from hardware.phones.server import PhoneServer  # its import is part of what it costs

        server = PhoneServer(
            host="127.0.0.1", port=0, render=lambda player: _page(1), act=lambda p, a: None, call_soon=call_soon
        )
        server.new_game(["Ann", "Bo"])
        server.start()
        print(json.dumps({"before": before, "urls": [server.url_for("Ann"), server.url_for("Bo")]}), flush=True)

        def phones_on(line: str) -> None:
            time.sleep(0.5)  # let the two phones' pages be sent
            print(json.dumps({"after": _rss_kib(), "status": server.status()}), flush=True)
            server.close()
            Clock.schedule_once(lambda _dt: App.get_running_app().stop(), 0)

        threading.Thread(target=lambda: phones_on(sys.stdin.readline()), daemon=True).start()

    def settled(_dt: float) -> None:
        app = App.get_running_app()
        if app.warming is not None or app.kept.busy:  # loading ahead, or home making its game screens ahead
            Clock.schedule_once(settled, 0.1)
            return
        Clock.schedule_once(measured, 0.5)

    def first_frame() -> None:
        Clock.schedule_once(settled, 1.0)  # the first frame's allocations settled, and what home makes ahead

    db = sys.argv[2]
    run(_parser().parse_args(["run", "--db", db]), on_first_frame=first_frame)


def memory() -> list[str]:
    import aiohttp

    from bench.__main__ import line  # here: the memory child must not import more than the app
    from tests.support import xvfb_display

    home = tempfile.mkdtemp(prefix="bench-phones-")
    try:
        (Path(home) / "config" / "kivy").mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "COMPANION_HOME": home,
            "KIVY_HOME": str(Path(home) / "config" / "kivy"),
            "KIVY_NO_CONSOLELOG": "1",
            "KIVY_NO_ARGS": "1",
        }
        with xvfb_display():
            app = subprocess.Popen(
                [sys.executable, "-m", "bench.bench_phones", "child", str(Path(home) / "games.db")],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env={**env, "DISPLAY": os.environ["DISPLAY"]},
                cwd=HERE.parent,
            )
            assert app.stdout is not None and app.stdin is not None
            first = _json_line(app)
            urls: list[str] = first["urls"]

            async def phones() -> dict[str, Any]:
                async with aiohttp.ClientSession() as client:
                    sockets = [await client.ws_connect(u.replace("http", "ws", 1) + "/live") for u in urls]
                    for ws in sockets:
                        await ws.receive_str(timeout=10)
                    app.stdin.write("measure\n")  # type: ignore[union-attr]
                    app.stdin.flush()  # type: ignore[union-attr]
                    return await asyncio.get_running_loop().run_in_executor(None, _json_line, app)

            second = asyncio.run(phones())
            app.wait(30)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    before, after = first["before"] / 1024, second["after"] / 1024
    assert second["status"] == {"Ann": "connected", "Bo": "connected"}
    return [
        line("the app's memory with the phone server", f"{after:.1f} MiB", f"{before:.1f} MiB", after / before),
        line("  the server and two phones cost", f"+{after - before:.1f} MiB", "", None, f"≤ +{GOAL_MIB:.0f} MiB"),
    ]


def _json_line(app: subprocess.Popen[str]) -> dict[str, Any]:
    assert app.stdout is not None
    while True:
        line = app.stdout.readline()
        if not line:
            raise RuntimeError(f"the app stopped early:\n{app.stderr.read()[-2000:] if app.stderr else ''}")
        if line.startswith("{"):
            return dict(json.loads(line))


def siege() -> list[str]:
    import aiohttp

    from bench.__main__ import line

    child = subprocess.Popen(
        [sys.executable, "-m", "tests.support.phone_siege", "5"],
        cwd=HERE.parent,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdin is not None
    url = json.loads(child.stdout.readline())["url"]
    host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)

    async def open_page(client: aiohttp.ClientSession) -> float:
        started = time.perf_counter()
        async with client.get(url) as response:
            await response.read()
        async with client.ws_connect(url.replace("http", "ws", 1) + "/live?browser=bench") as ws:
            while json.loads((await ws.receive(timeout=10)).data)["type"] != "page":
                pass
        return time.perf_counter() - started

    async def measure() -> tuple[list[float], list[float]]:
        async with aiohttp.ClientSession() as client:
            quiet = [await open_page(client) for _ in range(20)]
            held = []
            for n in range(1200):
                with contextlib.suppress(OSError):
                    held.append(
                        await asyncio.open_connection(host, int(port), local_addr=(f"127.0.0.{10 + n % 20}", 0))
                    )
            busy = [await open_page(client) for _ in range(20)]
            for _reader, writer in held:
                writer.transport.abort()
            return quiet, busy

    try:
        quiet, busy = asyncio.run(measure())
    finally:
        child.stdin.write("quit\n")
        child.stdin.flush()
        child.wait(10)
    ours, base = statistics.median(busy), statistics.median(quiet)
    return [
        line(
            "page opens, 1,200 idle connections, median",
            f"{ours * 1000:.2f} ms",
            f"{base * 1000:.2f} ms",
            ours / base,
            "< 1000 ms",
        )
    ]


def run() -> list[str]:
    return latency() + browser() + siege() + memory()


if __name__ == "__main__":
    if sys.argv[1:2] == ["child"]:
        child()
    else:
        print("\n".join(run()))
