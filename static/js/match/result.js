// The result panel once the match is over: who won, the score and how the ratings moved.
// The dice check and the .mat download are links beside it.

import { _, format, ngettext } from "../lib/i18n.js";
import { changed } from "../lib/store.js";
import { isViewer, nameOf } from "./seats.js";

const FINISH_REASONS = {
  played: _("played out"),
  resigned: _("by resignation"),
  timeout: _("on time"),
  forfeit: _("by forfeit"),
  adjudicated: _("adjudicated by the engine"),
  session_ended: _("the session ended"),
  match_dropped: _("on a dropped match double"),
};

/** The finished match in one line, for the strip over the board. */
export function finishedText(state) {
  const { snapshot } = state;
  const winner = snapshot.winner_seat;
  const reason = FINISH_REASONS[snapshot.finish_reason] || "";
  if (winner === null) {
    if (!reason || snapshot.finish_reason === "session_ended") return _("The session is over");
    return format(_("The session is over, %(reason)s"), { reason });
  }
  const you = isViewer(state, winner);
  const values = { name: nameOf(state, winner), reason, score: `${snapshot.score[winner]}–${snapshot.score[1 - winner]}` };
  // A match that ended before its length was reached: the score is where it stopped.
  if (snapshot.score[winner] < snapshot.length && reason) {
    return format(you ? _("You win the match %(reason)s, at %(score)s") : _("%(name)s wins the match %(reason)s, at %(score)s"), values);
  }
  if (reason) return format(you ? _("You win the match %(score)s, %(reason)s") : _("%(name)s wins the match %(score)s, %(reason)s"), values);
  return format(you ? _("You win the match %(score)s") : _("%(name)s wins the match %(score)s"), values);
}

export function startResult(store, page) {
  const panel = page.querySelector('[data-testid="result"]');
  store.subscribe((state, previous) => {
    if (!state.snapshot || !changed(state, previous, "snapshot")) return;
    panel.hidden = state.snapshot.status !== "finished";
    if (!panel.hidden) render(state);
  });
}

function render(state) {
  const { snapshot } = state;
  const winner = snapshot.winner_seat;
  document.getElementById("result-title").textContent =
    winner === null
      ? _("The session is over")
      : isViewer(state, winner)
        ? _("You won the match")
        : format(_("%(name)s wins the match"), { name: nameOf(state, winner) });
  const reason = FINISH_REASONS[snapshot.finish_reason];
  const score = `${nameOf(state, 0)} ${snapshot.score[0]} – ${snapshot.score[1]} ${nameOf(state, 1)}`;
  const played = snapshot.kind === "match" ? format(ngettext("%(score)s in a %(length)s-point match", "%(score)s in a %(length)s-point match", snapshot.length), {
          score,
          length: snapshot.length,
        }) : score;
  document.getElementById("result-score").textContent = `${played}${reason ? `, ${reason}` : ""}`;
  renderRatings(document.getElementById("rating-changes"), state);
}

/** Each player's rating before and after this match, the viewer's first. */
function renderRatings(list, state) {
  const { snapshot } = state;
  const changes = (snapshot.rating_changes || []).map((change) => ({ ...change, seat: snapshot.players.indexOf(change.player) }));
  changes.sort((a, b) => Number(isViewer(state, b.seat)) - Number(isViewer(state, a.seat)));
  list.replaceChildren(
    ...changes.map((change) => {
      const item = document.createElement("li");
      const who = isViewer(state, change.seat) ? _("Your rating") : nameOf(state, change.seat);
      const delta = document.createElement("span");
      delta.className = `amount ${change.change >= 0 ? "amount-in" : "amount-out"}`;
      delta.textContent = `${change.change >= 0 ? "+" : "−"}${Math.abs(change.change).toFixed(2)}`;
      item.append(`${who}: ${change.before.toFixed(1)} → ${change.after.toFixed(1)} `, delta);
      return item;
    }),
  );
  list.hidden = !changes.length;
}
