"""gunicorn entry point: `gunicorn wsgi:app` from the repository's root (gunicorn.conf.py
there gives it referee.serving's settings: threaded workers, the request deadline,
problem+json errors), or `referee serve`, which serves the same app from the installed
package (`referee.app:served_app()`), wherever it is run."""
from referee.app import served_app

app = served_app()
