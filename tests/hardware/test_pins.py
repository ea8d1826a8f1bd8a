"""Which pin factory drives the table: lgpio on a Raspberry Pi, gpiozero's mock elsewhere.

Issue 23: "The pin factory's choice is tested: on a Pi (a stand-in `/proc/device-tree/model` and an importable
`lgpio`), the lgpio factory; elsewhere, the mock factory with the sentence "No GPIO chip found…"."
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from hardware import pins

STAND_IN_LGPIO = '''
"""A stand-in for Raspberry Pi OS's lgpio: what LGPIOFactory touches when it opens the chip."""
SET_BIAS_DISABLE, SET_BIAS_PULL_UP, SET_BIAS_PULL_DOWN = 0, 1, 2
SET_PULL_NONE, SET_PULL_UP, SET_PULL_DOWN = 0, 1, 2
RISING_EDGE, FALLING_EDGE, BOTH_EDGES = 1, 2, 3
opened, closed = [], []


class error(Exception):
    pass


def gpiochip_open(chip):
    opened.append(chip)
    return 100 + chip


def gpiochip_close(handle):
    closed.append(handle)
'''

PI_4_REVISION = 0xC03111
"""What a Raspberry Pi 4 Model B's /proc/device-tree/system/linux,revision holds (gpiozero reads it)."""


@pytest.fixture
def model(tmp_path: Path) -> Path:
    """A stand-in /proc/device-tree/model, as a Pi 4 writes it (NUL-terminated)."""
    path = tmp_path / "model"
    path.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    return path


@pytest.fixture
def forget_lgpio() -> Iterator[None]:
    """lgpio and gpiozero's lgpio module are imported afresh in the test and forgotten after it."""
    names = ("lgpio", "gpiozero.pins.lgpio")
    kept = {name: sys.modules.pop(name) for name in names if name in sys.modules}
    try:
        yield
    finally:
        for name in names:
            sys.modules.pop(name, None)
        sys.modules.update(kept)


@pytest.fixture
def lgpio_importable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forget_lgpio: None) -> Path:
    """Raspberry Pi OS's python3-lgpio, as a stand-in module on sys.path; gpiozero sees a Pi 4's revision."""
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "lgpio.py").write_text(STAND_IN_LGPIO, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    import gpiozero.pins.local

    monkeypatch.setattr(gpiozero.pins.local, "get_pi_revision", lambda: PI_4_REVISION)
    return folder


def test_on_a_pi_with_lgpio_the_lgpio_factory_drives_the_pins(model: Path, lgpio_importable: Path) -> None:
    """Issue 23: "on a Pi (a stand-in /proc/device-tree/model and an importable lgpio), the lgpio factory"."""
    choice = pins.choose("auto", model=model)
    import lgpio  # type: ignore[import-not-found]  # the stand-in
    from gpiozero.pins.lgpio import LGPIOFactory

    try:
        assert isinstance(choice.factory, LGPIOFactory)
        assert not choice.simulated
        assert choice.reason == "Using the Raspberry Pi's GPIO pins."
        assert lgpio.opened == [0], "a Pi 4's pins are on gpiochip0"
    finally:
        choice.factory.close()
    assert lgpio.closed == [100]


def test_elsewhere_the_mock_factory_says_no_gpio_chip_was_found(tmp_path: Path, lgpio_importable: Path) -> None:
    """Issue 23: "elsewhere, the mock factory with the sentence "No GPIO chip found…"": even where an lgpio
    could be imported, a machine whose device tree names no Raspberry Pi (or has none, like a laptop) plays
    on simulated pins."""
    other = tmp_path / "other-model"
    other.write_bytes(b"Pine64 RockPro64 v2.1\x00")
    for model in (tmp_path / "no-device-tree" / "model", other):
        choice = pins.choose("auto", model=model)
        assert isinstance(choice.factory, MockFactory)
        assert choice.simulated
        assert choice.reason.startswith("No GPIO chip found: running on simulated hardware")
    assert "lgpio" not in sys.modules, "lgpio is not even tried off a Pi"


def test_on_a_pi_without_lgpio_the_table_plays_on_simulated_pins_and_says_why(
    model: Path, forget_lgpio: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Pi whose venv cannot see python3-lgpio (installed without --system-site-packages): a sentence, not a
    crash."""
    monkeypatch.setitem(sys.modules, "lgpio", None)  # `import lgpio` fails, as with the package missing
    choice = pins.choose("auto", model=model)
    assert isinstance(choice.factory, MockFactory) and choice.simulated
    assert choice.reason.startswith("The GPIO pins could not be opened (")
    assert choice.reason.endswith("running on simulated hardware.")


def test_simulated_in_the_config_file_wins_even_on_a_pi(model: Path, lgpio_importable: Path) -> None:
    choice = pins.choose("simulated", model=model)
    assert isinstance(choice.factory, MockFactory) and choice.simulated
    assert choice.reason == "Running on simulated hardware, as the config file asks."


def test_the_pi_is_the_one_makes_on_pi_finds() -> None:
    """The app and `make` (its ON_PI, which adds python3-lgpio and --system-site-packages) read the same file."""
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text(encoding="utf-8")
    assert f"grep -qi 'raspberry pi' {pins.MODEL}" in makefile
