"""The web UI (FastAPI + jinja2 templates + server-sent events); see :mod:`.app`."""
