"""Divisions and side events: the tournaments an organizer runs beside a main event, and
who may enter each.

Terms (the model's are in ``tournaments.models``):

* *event*: a main tournament and the tournaments whose ``parent`` it is. Each is a
  tournament of its own, with its own draw, prizes, format and escrow; the event only
  groups them on the pages and in the API.
* *division*: a tournament of the event for part of the field, named by the organizer
  (Championship, Intermediate, Novice) and kept to it by entry limits.
* *jackpot*: a small knockout beside the main event at a higher buy-in whose pool goes all
  to the winner, or to the top two (``presets``).
* *blitz*: a knockout of short matches (3 points) on a fast clock (``presets``).
* *entry limits*: a lowest and a highest rating, and a most of rated matches played (a
  rated match is one that moved the player's rating and was not voided); checked when a
  seat is taken (``limits``), under the tournament's lock.

``presets`` holds what each kind starts from, ``limits`` the entry check and its words,
``services`` the creation beside a main event, ``reads`` the event as pages and the API
show it, ``form``, ``serializers``, ``api`` and ``views`` the organizer's and programs'
ways in.
"""
