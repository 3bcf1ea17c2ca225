"""The embedded default without REFEREE_SECRET_KEY: a local key file next to the database."""
import stat

from referee.store import secrets


def test_a_sqlite_database_gets_a_key_file_of_mode_0600_once_and_keeps_it(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_SECRET_KEY", raising=False)
    monkeypatch.delenv("REFEREE_DEV", raising=False)
    url = f"sqlite:///{tmp_path / 'referee.db'}"
    passphrase, said = secrets.local_key(url)
    path = tmp_path / "referee.db.secret-key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and str(path) in said and "production" in said
    again, said_again = secrets.local_key(url)
    assert again == passphrase and said_again == ""  # said once, the same key every start
    monkeypatch.setenv("REFEREE_SECRET_KEY", passphrase)
    assert secrets.unseal(secrets.seal("whsec_x")) == "whsec_x"


def test_production_keeps_requiring_the_variable(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_SECRET_KEY", raising=False)
    assert secrets.local_key("postgresql://db.example/referee") is None
    monkeypatch.setenv("REFEREE_SECRET_KEY", "set")
    assert secrets.local_key(f"sqlite:///{tmp_path / 'x.db'}") is None
    assert not (tmp_path / "x.db.secret-key").exists()
