"""Tournament formats as pure algorithms: no database, no queue, no clock.

``base`` holds the shared vocabulary (entrants, draws, pairings, results, placings, errors);
``knockout``, ``sit_and_go``, ``satellite``, ``double_elimination``, ``swiss`` and
``round_robin`` are formats (``standings``, ``stages`` and ``matching`` serve the last two);
``side_flights`` runs a consolation, a last chance or both beside a knockout or double
elimination (``last_chance`` lays out the last chance, ``one_loss`` their shared rounds);
``prizes`` turns placings into prizes in integer cents. The Django app stores the draw and
calls these functions.
"""
