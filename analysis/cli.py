"""The adjudication report: one position evaluated, and what each player would receive.

``adjudicate_report`` is the pure core of ``manage.py adjudicate``: it takes a GNUBG ID and an
engine and returns a JSON-ready dict. *Kind* is ``money`` when the Match ID has no match
length, else ``match``. For each player (by the Match ID's index):

- ``win``: chance to win the game;
- ``mwc``: cubeful match winning chances (match play, else null);
- ``equity``: cubeful money equity per unit cube from that player's view (money, else null);
- ``settlement_cents``: for money with a stake per point, the settlement (the two add to
  zero); for a match with a pot, that player's share of the pot (the two add to the pot);
  null when neither is given. Commission is left to the ledger.
"""

from __future__ import annotations

from typing import Any

from analysis.engine import Engine, EvalSettings
from analysis.splits import money_settlement_cents, pot_shares


def adjudicate_report(
    gnubg_id: str,
    *,
    stake_cents: int | None = None,
    pot_cents: int | None = None,
    plies: int = 2,
    jacoby: bool = False,
    beavers: bool = False,
    engine: Engine,
) -> dict[str, Any]:
    settings = EvalSettings(plies=plies, jacoby=jacoby, beavers=beavers)
    evaluation = engine.evaluate(gnubg_id, settings)
    players = evaluation.players
    settlements: tuple[int | None, int | None] = (None, None)
    if evaluation.is_match:
        if stake_cents is not None:
            raise ValueError("a stake per point applies to money play; this is a match")
        if pot_cents is not None:
            mwc = players[0].mwc
            assert mwc is not None
            settlements = pot_shares(mwc, pot_cents)
    else:
        if pot_cents is not None:
            raise ValueError("a pot applies to a match; this is money play")
        if stake_cents is not None:
            settlements = money_settlement_cents(
                players[0].cubeful_equity,
                cube_value=evaluation.cube_value,
                stake_cents=stake_cents,
            )
    return {
        "kind": "match" if evaluation.is_match else "money",
        "plies": plies,
        "players": [
            {
                "index": player.index,
                "win": player.win,
                "mwc": player.mwc if evaluation.is_match else None,
                "equity": None if evaluation.is_match else player.cubeful_equity,
                "settlement_cents": settlement,
            }
            for player, settlement in zip(players, settlements, strict=True)
        ],
        "engine": {**evaluation.engine.to_dict(), "settings": settings.to_dict()},
    }
