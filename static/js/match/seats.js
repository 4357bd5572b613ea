// Who is who at the board, read from the store's state.
//
// A *seat* is 0 or 1, the player's place in the match. The viewer is a player (their
// seat is `snapshot.seat`) or an onlooker (null). In pass and play one person holds both
// seats; the snapshot is then drawn for whoever must act, and the checkers' colours tell
// the two sides apart.

import { colourName, contrastingColour } from "../lib/board.js";

export const isPassAndPlay = ({ snapshot }) => Boolean(snapshot && snapshot.pass_and_play);

export const currentGame = ({ snapshot }) => (snapshot && snapshot.game) || null;

/** The viewer's own seat, or null for onlookers. */
export const viewerSeat = ({ snapshot }) => (snapshot && snapshot.seat !== undefined ? snapshot.seat : null);

/** The seat drawn at the bottom of the board. */
export function bottomSeat(state) {
  const game = currentGame(state);
  if (game && game.view_seat !== null && game.view_seat !== undefined) return game.view_seat;
  return viewerSeat(state) ?? 0;
}

/** The seat whose checkers take the viewer's colour: their own, or seat 0 for onlookers. */
export function colourOf(state, seat) {
  const home = viewerSeat(state) ?? 0;
  return seat === home ? state.config.colour : contrastingColour(state.config.colour);
}

export function nameOf(state, seat) {
  if (seat === null || seat === undefined || !state.snapshot) return "";
  if (isPassAndPlay(state)) return colourName(colourOf(state, seat));
  const { names, players } = state.snapshot;
  return (names && names[seat]) || players[seat];
}

/** Whether `seat` is the viewer's own (never in pass and play, where both are). */
export function isViewer(state, seat) {
  return !isPassAndPlay(state) && viewerSeat(state) !== null && viewerSeat(state) === seat;
}

/** Who a move-list row is by: the seat's name (its colour in pass and play), or "" for the server. */
export function rowName(state, row) {
  if (!state.snapshot || row.seat === null || row.seat === undefined) return "";
  return nameOf(state, row.seat);
}

/** Whether the server waits for the viewer now (any answer or move, not just a resignation). */
export function mustAct({ snapshot }) {
  if (!snapshot) return false;
  return ["roll", "play", "take", "drop", "beaver", "raccoon", "accept_resign", "reject_resign", "match_take", "match_drop"].some(
    (action) => snapshot[`may_${action}`],
  );
}
