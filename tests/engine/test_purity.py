"""The engine imports no web or storage code."""
import ast
from pathlib import Path

import referee.engine

FORBIDDEN = {"flask", "marshmallow", "sqlalchemy", "alembic", "werkzeug", "referee.api", "referee.store"}


def test_engine_imports_nothing_from_web_or_storage():
    for path in Path(referee.engine.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert not any(name == f or name.startswith(f + ".") for f in FORBIDDEN), f"{path.name} imports {name}"
