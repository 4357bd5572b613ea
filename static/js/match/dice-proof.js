// The fair-dice card beside the board: the commitment to the match's dice (the SHA-256 of a
// secret seed), shown from the first roll, and the seed itself once the match is over, when
// the dice check can recompute every roll from it.

import { _ } from "../lib/i18n.js";
import { changed } from "../lib/store.js";

export function startDiceProof(store, page) {
  const card = page.querySelector("#fair-dice");
  store.subscribe((state, previous) => {
    if (!state.snapshot || !changed(state, previous, "snapshot")) return;
    const check = state.snapshot.dice_check || {};
    card.querySelector("#dice-commitment").textContent = check.commitment || _("made when the match starts");
    card.querySelector("#dice-seed").textContent = check.seed || _("revealed when the match ends");
    card.querySelector("#dice-seed").classList.toggle("muted", !check.seed);
  });
}
