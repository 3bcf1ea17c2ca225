"""The schema comes only from the migrations, and they match the models."""
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from referee.store.db import alembic_config, downgrade, make_engine, upgrade
from referee.store.models import Base


def test_one_head():
    heads = ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads()
    assert len(heads) == 1


def test_models_and_migrations_do_not_drift(db_url):
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        engine.dispose()
    assert diff == []


def table_names(url: str) -> set[str]:
    engine = make_engine(url)
    try:  # closed whatever happens: a PostgreSQL connection left open fails a later test
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_downgrade_round_trip(db_url):
    downgrade(db_url, "base")
    assert table_names(db_url) <= {"alembic_version"}
    upgrade(db_url)
    assert {"tournaments", "matches", "revisions", "feed_events", "webhooks", "deliveries"} <= table_names(db_url)


def referee_imports(path) -> set[str]:
    import ast

    tree = ast.parse(path.read_text())
    found = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    found |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    return {name for name in found if name.split(".")[0] == "referee"}


def test_a_migration_moves_data_with_code_of_its_own_and_the_engine_alone():
    """A migration runs against databases made long before, by whatever the store's code has
    become: of referee it may call the engine (the rules) only."""
    from pathlib import Path

    versions = Path(__file__).resolve().parents[2] / "migrations" / "versions"
    live = {path.name: sorted(name for name in referee_imports(path) if not name.startswith("referee.engine"))
            for path in sorted(versions.glob("0*.py"))}
    assert referee_imports(versions / "0006_matches_stored_by_deal.py")  # the engine: this test reads imports
    assert {name: names for name, names in live.items() if names} == {}
