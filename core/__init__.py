"""The plumbing every app stands on: errors, the event bus, rows, live sends, sockets,
throttles, outages, metrics, the environment's settings, tasks asked for after a commit.

Nothing here imports an app or the wiring in ``config``: the apps import it, never the
other way round.
"""
