"""gunicorn entry point: `gunicorn wsgi:app`."""
from referee import gctune
from referee.app import create_app

app = create_app()
gctune.for_big_verdicts()  # each worker forks from here with the loaded app frozen
