"""The app's phone side without its window: a store, a Quin session, `PhoneTable` and a real `PhoneServer`.

`PhoneApp` runs in the test's own process. ``python -m tests.support.phone_app
STORE CODES [ALIVE]`` runs one in a process of its own, so that a test can kill it
as a pulled plug would (SIGKILL: no goodbye to any phone, the kernel closes
its sockets) and start the app again on the same files: it prints one JSON
line (``{"port": ..., "game": ...}``) once it serves, then serves until killed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from companion.game import Options
from companion.games.quin.state import QuinState
from companion.session import Session
from companion.store import Store
from hardware.phones.codes import SeatCodes
from hardware.phones.server import ALIVE, PhoneServer
from tests.support.ui_thread import UiThread
from ui.phones import PhoneTable

ANN, BO = "Ann", "Bo"


class PhoneApp:
    """The session, its phone server, the UI thread they share: what the app builds at start.

    `codes`: the seat codes file (None: this run only). `port` 0 takes a free one.
    `resume`: go back into the store's unfinished game, as the appliance does at
    boot, instead of starting a new one.
    """

    def __init__(
        self, store: Store, *, codes: Path | None = None, port: int = 0, resume: bool = False, alive: float = ALIVE
    ) -> None:
        self.store = store
        self.ui = UiThread()
        self.link = PhoneTable(codes=SeatCodes(codes) if codes is not None else None)
        self.link.server = PhoneServer(
            host="127.0.0.1",
            port=port,
            render=self.link.render,
            act=self.link.act,
            call_soon=self.ui,
            ui_timeout=10.0,
            alive=alive,
        ).start()
        self.session: Session = self.ui.run(self._resume if resume else self._new_session)

    def _new_session(self) -> Session:
        session = Session.start(self.store, "quin", Options.for_names(ANN, BO), clock=lambda: 0.0)
        self.link.attach(session)
        return session

    def _resume(self) -> Session:
        session = Session.resume(self.store, clock=lambda: 0.0)
        assert session is not None, "an unfinished game to resume"
        self.link.attach(session)
        return session

    def new_game(self) -> None:
        self.session = self.ui.run(self._new_session)

    def act(self, action: dict[str, Any]) -> None:
        """An action on the touchscreen: played on the UI thread, the phones follow by themselves."""
        self.ui.run(lambda: self.session.act(action))

    def state(self) -> QuinState:
        state: QuinState = self.ui.run(lambda: self.session.state)
        return state

    @property
    def port(self) -> int:
        return int(self.link.server.address[1])

    def url(self, player: str) -> str:
        url = self.link.server.url_for(player)
        assert url is not None
        return str(url)

    def close(self) -> None:
        """As the app stops (`systemctl restart`, the window closed): every phone is told, then the server goes."""
        self.ui.run(self.link.close)
        self.ui.stop()


def start_elsewhere(db: Path, codes: Path, alive: float = ALIVE) -> tuple[subprocess.Popen[str], int, int]:
    """The phone side of the app in a process of its own (stop it with `pull_the_plug`); its port and its game."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.support.phone_app", str(db), str(codes), str(alive)],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = child.stdout.readline() if child.stdout else ""
    if not line:
        child.kill()
        raise RuntimeError(f"the app did not start (exit code {child.wait()})")
    started = json.loads(line)
    return child, int(started["port"]), int(started["game"])


def pull_the_plug(child: subprocess.Popen[str]) -> None:
    """SIGKILL: no goodbye to any phone; the kernel closes the process's sockets. Safe twice."""
    child.kill()
    child.wait()
    if child.stdout is not None:
        child.stdout.close()


def main(store_path: str, codes_path: str, alive: str = str(ALIVE)) -> None:
    with Store.open(store_path) as store:
        app = PhoneApp(store, codes=Path(codes_path), resume=store.unfinished() is not None, alive=float(alive))
        print(json.dumps({"port": app.port, "game": app.session.game_id}), flush=True)
        threading.Event().wait()  # served by the server's thread and the UI stand-in, until killed


if __name__ == "__main__":
    main(*sys.argv[1:4])
