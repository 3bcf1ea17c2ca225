"""The rules ask the strategies, never the options' names (issue 40, item 4): no module of
referee/engine or referee/solver compares the collection with a string, but the strategy
modules themselves and the options' parsing; and each strategy's module names the rules it
is the home of, so that a reader finds it from the rule's id."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from referee.engine import catalogue, resolve
from referee.engine.collection import COLLECTIONS, Immediate
from referee.engine.options import CHOICES
from referee.engine.pile import Pile

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "referee" / "engine"
SCANNED = [ENGINE, ROOT / "referee" / "solver"]
# The options' parsing and the strategies' own modules may spell the values.
ALLOWED = {"options.py", "collection.py", "pile.py"}
SUBJECTS = {"collection"}  # an attribute or a name holding the option's value


def _subject(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr in SUBJECTS
            or isinstance(node, ast.Name) and node.id in SUBJECTS)


def _spelled(node: ast.AST) -> bool:
    """A string, or a tuple, list or set of strings."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and bool(node.elts) and all(map(_spelled, node.elts))


def string_tests(source: str) -> list[int]:
    """The lines that compare a collection with its name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(map(_subject, operands)) and any(map(_spelled, operands)):
                found.append(node.lineno)
    return found


@pytest.mark.parametrize("source", [
    'if options.collection == "pile": pass',
    'x = self.o.collection != "pile"',
    'x = collection in ("immediate", "pile")',
])
def test_the_scan_finds_a_string_test(source):
    assert string_tests(source) == [1]


def test_no_rule_module_compares_the_collection_with_a_string():
    found = [f"{path.relative_to(ROOT)}:{line}" for folder in SCANNED for path in sorted(folder.glob("*.py"))
             if path.name not in ALLOWED for line in string_tests(path.read_text(encoding="utf-8"))]
    assert found == []


def test_each_collection_value_has_its_strategy():
    assert tuple(COLLECTIONS) == CHOICES["collection"]
    assert resolve("double-sir").collects is Pile and resolve("court-piece").collects is Immediate
    assert [c.piles for c in COLLECTIONS.values()] == [False, True]


HOMES = {"collection.immediate": "collection.py", "pile.collect": "pile.py", "pile.delayed": "pile.py",
         "pile.each-win": "pile.py", "R-30": "pile.py"}


@pytest.mark.parametrize("rule, module", sorted(HOMES.items()))
def test_a_rule_id_leads_to_its_strategy_module(rule, module):
    doc = ast.get_docstring(ast.parse((ENGINE / module).read_text(encoding="utf-8")))
    named = set(re.findall(r"\b(?:R-\d+|[a-z]+(?:\.[a-z-]+)+)\b", doc))
    assert rule in named
    families = {rule_id.split(".")[0] for rule_id in catalogue()}
    assert {n for n in named if n.split(".")[0] in families and not n.endswith(".py")} <= set(catalogue())
