"""Tournament formats as pure algorithms: no database, no queue, no clock.

``base`` holds the shared vocabulary (entrants, draws, pairings, results, placings, errors);
``knockout``, ``sit_and_go``, ``satellite`` and ``double_elimination`` are formats; ``prizes``
turns placings into prizes in integer cents. The Django app stores the draw and calls these
functions (double elimination is not offered to organizers yet).
"""
