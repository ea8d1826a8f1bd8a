"""Quin's phone setup page in a real headless Chromium at 390×844: the next step is the first thing on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.store import Store
from tests.support.browser import HEIGHT, WAIT, BrowserMissing, page_text, phone
from tests.support.phone_app import ANN, PhoneApp

SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


@pytest.fixture
def driver() -> Iterator[Any]:
    try:
        browser = phone()
    except BrowserMissing as missing:
        pytest.fail(str(missing))
    try:
        yield browser
    finally:
        browser.quit()


def test_the_phone_setup_page_opens_on_its_next_step(driver: Any, tmp_path: Path) -> None:
    """Issue 21: "The phone's setup page (390×844) puts its first button 2.4 screens down, under 24 Clone
    buttons that include 'Artificial Light → Artificial Light' and 'Void → Void'." The next step's words and
    its first button are on the first screen, and no Clone turns a kind into itself."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with Store.open(tmp_path / "phones.db") as store:
        table = PhoneApp(store)
        try:
            driver.get(table.url(ANN))
            WebDriverWait(driver, WAIT, poll_frequency=0.05).until(
                lambda d: "Next: your Clone" in page_text(d), "Ann's page arrives"
            )
            buttons = driver.find_elements(By.CSS_SELECTOR, "#choices button")
            labels = [b.text for b in buttons]
            assert len(labels) == 20 and "Clone: Void → Void" not in labels
            assert not any(label.split(": ")[1].split(" → ")[0] == label.split(" → ")[1] for label in labels)
            notice = driver.find_element(By.ID, "notice")
            first = buttons[0].rect
            assert notice.rect["y"] < first["y"], "the next step's words, then its buttons"
            assert first["y"] + first["height"] <= HEIGHT, f"the first button is on the first screen: {first}"
            assert driver.find_element(By.ID, "sections").rect["y"] > first["y"]
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(SCREENSHOTS / "quin-phone-setup-first-screen.png"))
        finally:
            table.close()
