"""A screenshot as a colour-blind player sees it: each pixel through `companion.palette`'s simulation.

    simulate_png(Path("build/screenshots/quintet.png"), Path("build/screenshots/quintet-deuteranopia.png"))

The same Machado et al. (2009) full-severity simulation that measures the seat colours, so a picture and
the palette's ΔE figures agree. A screen has few distinct colours, so each is worked out once.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from companion.palette import DEUTERANOPIA, seen_as


def simulate_image(image: Image.Image, vision: str = DEUTERANOPIA) -> Image.Image:
    """`image` as an eye with `vision` sees it (alpha kept as it is)."""
    rgba = image.convert("RGBA")
    raw = rgba.tobytes()
    out = bytearray(raw)
    seen: dict[bytes, bytes] = {}
    for i in range(0, len(raw), 4):
        rgb = raw[i : i + 3]
        if rgb not in seen:
            seen[rgb] = bytes(seen_as((rgb[0], rgb[1], rgb[2]), vision))
        out[i : i + 3] = seen[rgb]
    simulated = Image.frombytes("RGBA", rgba.size, bytes(out))
    return simulated if image.mode == "RGBA" else simulated.convert(image.mode)


def simulate_png(source: Path, target: Path, vision: str = DEUTERANOPIA) -> Path:
    """Write `source` (a PNG) as an eye with `vision` sees it to `target`, and return `target`."""
    with Image.open(source) as image:
        image.load()
        simulate_image(image, vision).save(target)
    return target


def simulated_name(name: str, vision: str = DEUTERANOPIA) -> str:
    """``"quintet-five-players.png"`` -> ``"quintet-five-players-deuteranopia.png"``."""
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}-{vision}{dot}{suffix}"
