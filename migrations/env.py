"""Alembic environment: the URL comes from the caller's Config or DATABASE_URL."""
from alembic import context


from referee.store.db import default_url, make_engine
from referee.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url") or default_url(),
                      target_metadata=target_metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = config.get_main_option("sqlalchemy.url") or default_url()
    engine = make_engine(url)
    try:  # a migration that fails leaves no connection open behind it
        with engine.connect() as connection:
            sqlite = connection.dialect.name == "sqlite"
            if sqlite:  # a batch migration copies a table and drops the old one: check keys after
                connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
            context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
                if sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first() is not None:
                    raise RuntimeError("the migration left rows whose foreign keys point nowhere")
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
