"""Issue 25, Docs: "a README of at most about 500 lines for players and owners ... linking to
`docs/games/<game>.md`, `docs/displays.md` (the protocol), `docs/phones.md` (the security model),
`docs/architecture.md` ... and `bench/README.md`." The README stays short and every link in the
pages leads somewhere: a moved section must not leave a link (or a picture) pointing at nothing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^()\s]+)\)")


def pages() -> list[Path]:
    return [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def prose(text: str) -> list[str]:
    """The page's lines outside its fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def outside_code(text: str) -> str:
    """The page without its fenced and inline code, where `](` is not a link."""
    return re.sub(r"`[^`\n]*`", "", "\n".join(prose(text)))


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings."""
    found = set()
    for line in prose(page.read_text()):
        if line.startswith("#"):
            words = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", words).replace(" ", "-"))
    return found


def test_the_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= 550, f"README.md has {lines} lines; move a section into docs/ and link to it"


def test_the_readme_links_to_every_page() -> None:
    text = (ROOT / "README.md").read_text()
    for page in ["docs/displays.md", "docs/phones.md", "docs/architecture.md", "bench/README.md"]:
        assert f"]({page})" in text, page
    for game in sorted((ROOT / "docs" / "games").glob("*.md")):
        assert f"](docs/games/{game.name})" in text, game.name


def test_every_relative_link_leads_to_a_file_and_heading_that_exist() -> None:
    broken = []
    for page in pages():
        assert page.exists(), page
        for target in LINK.findall(outside_code(page.read_text())):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(ROOT)}: {target}"
            if not linked.exists():
                broken.append(f"{where} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{where} (no such heading)")
    assert broken == []


def test_the_adding_a_game_checklist_names_every_file_of_pig() -> None:
    """The checklist in docs/architecture.md is the one tests/sixth_game follows, file for file."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    checklist = text[text.index("## Adding a game") :]
    for file in sorted((ROOT / "tests" / "sixth_game").iterdir()):
        if file.suffix in {".py", ".kv"}:
            assert f"{file.name}`" in checklist, file.name
