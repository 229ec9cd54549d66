"""Tournaments: arenas, Swiss events, round robins and Leiff events, in the match core.

The pairing and the standings are pure functions (:mod:`.swiss`, :mod:`.round_robin`,
:mod:`.arena`, :mod:`.leiff_rounds`, :mod:`.standings`) over a tournament's state
(:mod:`.model`); :mod:`.progress` decides a tournament's next step from its state and the
results of its finished matches. Nothing here touches the database or a front end: the
service (``matchcore.service.tournaments``) commits each step in one transaction.

Points are counted in half points (a win 2, a draw 1, a loss 0), so every score is an int.
"""
