"""Debian's headless Chromium as a phone (390×844), driven by selenium.

No browser is ever downloaded: selenium is given Debian's own chromedriver and
chromium. Each `phone()` is a Chrome instance of its own (its own profile), its
page's WebSocket frames readable from the performance log.
"""

from __future__ import annotations

import json
import shutil
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WIDTH, HEIGHT = 390, 844
WAIT = 20.0  # seconds: generous, a loaded machine still passes


class BrowserMissing(RuntimeError):
    """Chromium or its driver is not installed."""


def phone() -> Any:
    """A fresh headless Chromium the size of a phone; the caller quits it."""
    if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):
        raise BrowserMissing("Chromium is not installed: `make test` installs it (Debian chromium, chromium-driver).")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={WIDTH},{HEIGHT}")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_window_size(WIDTH, HEIGHT)
    # --window-size is the outer window: make the page itself 390×844, as on the phone.
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * WIDTH - inner[0], 2 * HEIGHT - inner[1])
    return driver


def frames_received(driver: Any) -> list[str]:
    """The WebSocket frames the page received since the last call (the performance log drains as it is read)."""
    frames = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.webSocketFrameReceived":
            frames.append(str(message["params"]["response"]["payloadData"]))
    return frames


def page_text(driver: Any) -> str:
    """What the page shows, as rendered."""
    return str(driver.execute_script("return document.body ? document.body.innerText : ''"))


def connection_line(driver: Any) -> str:
    """The page's own line about its connection ("Connected", "Connection lost: trying again…")."""
    return str(
        driver.execute_script("const line = document.getElementById('connection'); return line ? line.textContent : ''")
    )


def printed(driver: Any) -> list[str]:
    """Each row and button of the page, exactly as printed (rendering folds the two spaces between a
    label and its identity)."""
    script = "return Array.from(document.querySelectorAll('.row .text, button'), (node) => node.textContent)"
    return [str(text) for text in driver.execute_script(script)]


def printed_in(page: dict[str, Any] | None) -> list[str]:
    """The same for a page structure as the server sends it."""
    if not page:
        return []
    rows = [str(row.get("text")) for section in page.get("sections") or [] for row in section.get("rows") or []]
    return rows + [str(choice.get("label")) for choice in page.get("choices") or []]
