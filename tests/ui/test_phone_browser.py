"""The phone page in a real headless browser (issue 15): two phones, a short Quin game, nothing of the rival's.

Issue 15: each phone shows "that player's private view and nothing else"; "A
second browser opening a seat's page is refused while the first is
connected"; a new game makes fresh codes, "and the old ones stop working".
The real `PhoneServer` on 127.0.0.1, the real `Session` on a stand-in UI
thread, Debian's Chromium at 390×844 clicking the page's own buttons.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game import Options
from companion.games.quin.state import QuinState
from companion.session import Session
from companion.store import Store
from hardware.phones.server import GAME_OVER, NO_TOKEN, SEAT_TAKEN, PhoneServer
from tests.support.browser import WAIT, BrowserMissing, UiThread, frames_received, page_text, phone, printed, printed_in
from ui.phones import PhoneTable

ANN, BO = "Ann", "Bo"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


class Table:
    """The session, its phone server, the UI thread they share."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.ui = UiThread()
        self.link = PhoneTable()
        self.link.server = PhoneServer(
            host="127.0.0.1", port=0, render=self.link.render, act=self.link.act, call_soon=self.ui, ui_timeout=10.0
        ).start()
        self.session: Session = self.ui.run(self._new_session)

    def _new_session(self) -> Session:
        session = Session.start(self.store, "quin", Options.for_names(ANN, BO), clock=lambda: 0.0)
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

    def url(self, player: str) -> str:
        url = self.link.server.url_for(player)
        assert url is not None
        return str(url)

    def close(self) -> None:
        self.ui.run(self.link.close)
        self.ui.stop()


@pytest.fixture(scope="module")
def phones() -> Iterator[dict[str, Any]]:
    """Ann's and Bo's phones: two Chromium instances, each its own profile; quit whatever happens."""
    drivers: dict[str, Any] = {}
    try:
        for player in (ANN, BO):
            drivers[player] = phone()
        yield drivers
    except BrowserMissing as missing:
        pytest.fail(str(missing))
    finally:
        for driver in drivers.values():
            driver.quit()


def screenshot(driver: Any, name: str) -> None:
    """The page from its top, as the phone shows it on arrival."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(SCREENSHOTS / name))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Store.open(tmp_path / "phones.db") as store:
        table = Table(store)
        try:
            yield table
        finally:
            table.close()


def wait_for(driver: Any, condition: Any, message: str) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(lambda d: condition(d), message)


def hidden_pairs(state: QuinState, owner: str, rival: str) -> set[str]:
    """`owner`'s pieces the rival has not seen, as a page prints them ("label  identity", "Take back label
    (identity)"); pairs the rival holds too are left out: the rival's page shows them as its own."""
    if state.result is not None:
        return set()  # at the end every identity is public

    def forms(pieces: Any) -> set[str]:
        return {form for p in pieces for form in (f"{p.label}  {p.identity}", f"Take back {p.label} ({p.identity})")}

    mine = forms(p for p in state.pieces_of(owner) if p.identity and not p.revealed)
    return mine - forms(p for p in state.pieces_of(rival) if p.identity)


def shown_now(driver: Any, state: QuinState, player: str) -> list[str]:
    """The page's rows and buttons once it shows `player`'s own pieces as `state` has them."""
    own = {f"{p.label}  {p.identity}" for p in state.pieces_of(player) if p.identity}
    wait_for(driver, lambda d: own <= set(printed(d)), f"{player}'s page shows their pieces")
    return printed(driver)


def assert_private(drivers: dict[str, Any], table: Table, frames: dict[str, list[str]]) -> None:
    """Each page shows its player's own identities and none the rival still hides, on screen or on the wire."""
    state = table.state()
    for player, rival in ((ANN, BO), (BO, ANN)):
        shown = shown_now(drivers[player], state, player)
        assert page_text(drivers[player]).splitlines()[0] == f"{player} · Quin"
        forbidden = hidden_pairs(state, rival, player)
        assert not forbidden & set(shown), f"{player}'s page shows {rival}'s secret"
        frames[player] += frames_received(drivers[player])
        for frame in frames[player]:
            message = json.loads(frame)
            if message.get("type") == "page":
                sent = set(printed_in(message["page"]))
                assert not forbidden & sent, f"a frame to {player} carries {rival}'s secret"
                choices = (message["page"] or {}).get("choices") or []
                assert all(c["action"]["player"] == player for c in choices), "only the page's own choices"


def tap(driver: Any, pick: str, which: int) -> None:
    """Click the page's `which`-th button whose label holds `pick`, and wait for the page to change."""
    from selenium.webdriver.common.by import By

    buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "#choices button") if pick in b.text]
    assert buttons, f"no choice with {pick!r} on the page"
    before = page_text(driver)
    buttons[which].click()
    wait_for(driver, lambda d: page_text(d) != before, "the page answers the tap")


def set_up_by_taps(driver: Any, which: int, shot: str = "") -> None:
    """The whole private setup by real clicks: a Clone, one identity for each label, then Finish; `shot`
    is a screenshot of the choices halfway."""
    from selenium.webdriver.common.by import By

    tap(driver, "Clone:", which)
    for step in range(40):
        if shot and step == 5:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            driver.execute_script("document.getElementById('choices').scrollIntoView({block: 'end'})")
            driver.save_screenshot(str(SCREENSHOTS / shot))
        labels = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#choices button")]
        if "Finish setup" in labels:
            break
        tap(driver, " is a", which)
    tap(driver, "Finish setup", 0)


def light_of(state: QuinState, player: str) -> str:
    return next(p.label for p in state.pieces_of(player) if p.identity == "Light")


def test_two_phones_play_a_short_game_and_neither_ever_shows_the_rivals_secrets(
    phones: dict[str, Any], table: Table
) -> None:
    """Issue 15: a phone shows "that player's private view and nothing else"; the setup is tapped on the
    phone, play goes on on the touchscreen, and neither page nor its WebSocket frames carry a hidden rival
    identity. RULINGS/Quin: "at the end every identity is public"."""
    frames: dict[str, list[str]] = {ANN: [], BO: []}
    for player, driver in phones.items():
        frames_received(driver)  # drain what an earlier page left
        driver.get(table.url(player))
        wait_for(driver, lambda d: "Private setup" in page_text(d), f"{player}'s page arrives")
    # Different taps, different layouts: Ann takes the first choice each time, Bo the last.
    set_up_by_taps(phones[ANN], 0, shot="phone-setup.png")
    assert_private(phones, table, frames)
    set_up_by_taps(phones[BO], -1)
    state = table.state()
    assert hidden_pairs(state, BO, ANN), "the layouts differ, so Bo hides pairs Ann's page never prints"
    assert_private(phones, table, frames)
    wait_for(phones[ANN], lambda d: "Your turn" in page_text(d) or f"{BO} to play" in page_text(d), "play begins")
    first = state.turn
    assert first is not None, "both set up: someone's turn"
    second = BO if first == ANN else ANN
    table.act({"type": "pass", "player": first})
    table.act({"type": "pass", "player": second})
    assert_private(phones, table, frames)
    screenshot(phones[ANN], "phone-midgame.png")
    state = table.state()
    table.act(
        {"type": "flash", "player": first, "attacker": light_of(state, first), "defender": light_of(state, second)}
    )
    for driver in phones.values():
        wait_for(driver, lambda d: "Game over" in page_text(d), "the end reaches every phone")
    text = page_text(phones[ANN])
    assert "LAST FLASH" in text.upper()
    assert_private(phones, table, frames)
    screenshot(phones[ANN], "phone-reveal.png")
    assert frames[ANN] and frames[BO], "the performance log did show the pages' frames"


def test_a_stale_code_shows_the_notice_and_a_second_browser_on_a_seat_is_refused(
    phones: dict[str, Any], table: Table
) -> None:
    """Issue 15: "A second browser opening a seat's page is refused while the first is connected"; a new
    game gives fresh codes "and the old ones stop working"."""
    ann, bo = phones[ANN], phones[BO]
    ann.get(table.url(ANN))
    wait_for(ann, lambda d: "Private setup" in page_text(d), "Ann's page arrives")
    bo.get(table.url(ANN))  # another browser (another profile): not Ann's own reconnect
    wait_for(bo, lambda d: SEAT_TAKEN in page_text(d), "the second browser is told the seat is taken")
    assert "Clone:" not in page_text(bo) and "YOUR PIECES" not in page_text(bo).upper()
    assert "Clone:" in page_text(ann), "the first phone keeps its page"
    old = table.url(ANN)
    table.new_game()
    wait_for(ann, lambda d: GAME_OVER in page_text(d), "the connected phone is told its game is over")
    assert "Clone:" not in page_text(ann), "and its page shows nothing private any more"
    bo.get(old)
    wait_for(bo, lambda d: NO_TOKEN in page_text(d), "the stale code shows the notice")
    assert "Quin" not in page_text(bo) and "Clone" not in page_text(bo)
