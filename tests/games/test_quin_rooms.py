"""Quin's rules in two rooms: "Quin's rules (setup apart from play)"."""

from __future__ import annotations

import ast
from pathlib import Path

from companion.games.quin import private_setup, rules

SETUP = Path(private_setup.__file__)


def test_the_private_setup_is_a_module_of_its_own_that_knows_nothing_of_play():
    tree = ast.parse(SETUP.read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "companion.games.quin.rules" not in imported
    assert not hasattr(private_setup, "Flash") and not hasattr(private_setup, "Move")


def test_the_setup_names_are_still_the_rules_own_for_importers():
    for name in ("Clone", "Assign", "Unassign", "SetupDone", "Setup", "CloneChosen", "PlayStarted", "setup_problems"):
        assert getattr(rules, name) is getattr(private_setup, name)
    assert {private_setup.Clone, private_setup.Setup} <= set(rules.ACTIONS)
    assert {private_setup.PieceAssigned, private_setup.SetupFinished} <= set(rules.EVENTS)
