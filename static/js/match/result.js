// The result panel once the match is over: who won, the score and how the ratings moved.
// The dice check and the .mat download are links beside it.

import { changed } from "../lib/store.js";
import { isViewer, nameOf } from "./seats.js";

const FINISH_REASONS = {
  played: "played out",
  resigned: "by resignation",
  timeout: "on time",
  forfeit: "by forfeit",
  adjudicated: "adjudicated by the engine",
  session_ended: "the session ended",
  match_dropped: "on a dropped match double",
};

/** The finished match in one line, for the strip over the board. */
export function finishedText(state) {
  const { snapshot } = state;
  const winner = snapshot.winner_seat;
  const reason = FINISH_REASONS[snapshot.finish_reason] || "";
  if (winner === null) {
    return `The session is over${reason && snapshot.finish_reason !== "session_ended" ? `, ${reason}` : ""}`;
  }
  const who = isViewer(state, winner) ? "You win" : `${nameOf(state, winner)} wins`;
  const score = `${snapshot.score[winner]}–${snapshot.score[1 - winner]}`;
  // A match that ended before its length was reached: the score is where it stopped.
  if (snapshot.score[winner] < snapshot.length && reason) return `${who} the match ${reason}, at ${score}`;
  return `${who} the match ${score}${reason ? `, ${reason}` : ""}`;
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
    winner === null ? "The session is over" : isViewer(state, winner) ? "You won the match" : `${nameOf(state, winner)} wins the match`;
  const reason = FINISH_REASONS[snapshot.finish_reason];
  const score = `${nameOf(state, 0)} ${snapshot.score[0]} – ${snapshot.score[1]} ${nameOf(state, 1)}`;
  const length = snapshot.kind === "match" ? ` in a ${snapshot.length}-point match` : "";
  document.getElementById("result-score").textContent = `${score}${length}${reason ? `, ${reason}` : ""}`;
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
      const who = isViewer(state, change.seat) ? "Your rating" : nameOf(state, change.seat);
      const delta = document.createElement("span");
      delta.className = `amount ${change.change >= 0 ? "amount-in" : "amount-out"}`;
      delta.textContent = `${change.change >= 0 ? "+" : "−"}${Math.abs(change.change).toFixed(2)}`;
      item.append(`${who}: ${change.before.toFixed(1)} → ${change.after.toFixed(1)} `, delta);
      return item;
    }),
  );
  list.hidden = !changes.length;
}
