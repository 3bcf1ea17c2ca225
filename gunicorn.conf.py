"""gunicorn reads this file when started from the repository's root (`gunicorn wsgi:app`):
the production settings, the same as `referee serve`'s, from their one source."""
from referee.serving import *  # noqa: F401,F403 - gunicorn reads the settings by name (referee.serving.__all__)
