"""gunicorn entry point: `gunicorn wsgi:app` from the repository's root (gunicorn.conf.py
there gives it referee.serving's settings: threaded workers, the request deadline,
problem+json errors), or `referee serve`."""
from referee import gctune
from referee.app import create_app

app = create_app()
gctune.for_big_verdicts()  # each worker forks from here with the loaded app frozen
