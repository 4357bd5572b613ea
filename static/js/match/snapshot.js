// A new snapshot from the server, as a patch for the store.
//
// The server sends the whole match after every change; the page never guesses what it
// will decide. What the page keeps beside it is worked out here: the turn on the board
// (kept while the position stays), the points the other side's play changed, the game
// that just ended (with the snapshot from before, which still shows its cube and any
// resignation), and whether a waiting action was answered.

import { turnFor, turnKey } from "./turn.js";

export function withSnapshot(state, snapshot) {
  const before = state.snapshot;
  const patch = {
    snapshot,
    presence: snapshot.presence || state.presence,
    turn: turnFor(snapshot, state.turn),
    recent: changedPoints(before, snapshot, state.recent),
  };
  const previousGame = before && before.game ? before.game.number : null;
  if (previousGame !== null && snapshot.game && snapshot.game.number > previousGame) {
    patch.gameEnded = { number: previousGame };
  }
  if (turnKey(before) !== turnKey(snapshot)) {
    // The position moved on: a waiting action was answered and an old hint no longer fits.
    patch.hint = "";
    patch.refusal = null;
    patch.busy = false;
  }
  return patch;
}

/** Presence frames carry who is connected and how many watch; the grace ends stay the snapshot's. */
export function withPresence(state, presence) {
  return { presence: { ...state.presence, ...presence } };
}

/**
 * The points the other side's last play changed, so the player sees what happened while
 * they looked away; nothing for the viewer's own play, which they just made.
 */
function changedPoints(before, next, known) {
  const old = before && before.game;
  const now = next.game;
  if (!old || !now || old.number !== now.number) return new Set();
  if (old.position_id === now.position_id && old.view_seat === now.view_seat) return known;
  if (!next.pass_and_play && next.seat !== null && old.turn_seat === next.seat) return new Set();
  // In pass and play the board turns round with the turn: read the old board from the new side.
  const oldPoints =
    old.view_seat === now.view_seat ? old.board.points : old.board.points.slice().reverse().map((count) => -count);
  const points = new Set();
  now.board.points.forEach((count, index) => {
    if (count !== oldPoints[index]) points.add(index + 1);
  });
  return points;
}
