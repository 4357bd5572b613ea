"""Position analysis and adjudication arithmetic, free of Django, Celery and Channels.

- :mod:`analysis.engine`: the engine interface and its frozen, JSON-ready results.
- :mod:`analysis.gnubg_process`: that interface backed by one warm GNU Backgammon process.
- :mod:`analysis.splits`: how an unfinished game or match is settled in cents.
- :mod:`analysis.cli`: the adjudication report behind ``manage.py adjudicate``.
"""
