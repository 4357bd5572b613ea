"""Swing tournaments: players sit with chips and play single games (or short matches) whose
stakes are set by a rising CPP level, until one holds every chip.

``services`` seats the players, pairs and starts the games and records each result (the
writes); ``reads`` is what the page and the API show (level, leaderboard, chips over time,
knockouts); ``form`` and ``serializers`` are the organizer's fields and the API's shapes.
The settings and their limits are declared in ``tournaments.settings.fields`` and checked in
``tournaments.settings.swing``; the pure schedule is ``tournaments.formats.swing``.
"""
