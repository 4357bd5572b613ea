// The turn the viewer builds on the board before confirming it.
//
// The server says when the viewer may play (`may_play`) and sends the legal plays of the
// roll; `Turn` (moves.js) offers only the steps that lead to one of them. A checker put
// down anywhere else is a *drop* the rules refuse: the page asks the server which rule
// (`dropAttempt`), so the player reads the sentence the API gives. A new turn starts
// whenever the position, the dice or whose side is shown change; everything here returns
// a patch for the store.

import { _, format } from "../lib/i18n.js";
import { Turn } from "../lib/moves.js";

const NO_TURN = { key: "", plan: null, selected: null };

/** What a snapshot's turn is, so a repeat of the same snapshot keeps the moves made so far. */
export function turnKey(snapshot) {
  const game = snapshot && snapshot.game;
  if (!game) return "";
  return [game.number, game.phase, game.position_id, game.dice, game.turn_seat, game.view_seat].join("|");
}

/** The turn to show with `snapshot`: `current` when nothing changed, else a fresh one. */
export function turnFor(snapshot, current = NO_TURN) {
  const key = turnKey(snapshot);
  if (key === current.key) return current;
  const game = snapshot && snapshot.game;
  const playable = snapshot && snapshot.may_play && game.dice && (game.legal_plays || []).length;
  return { key, plan: playable ? new Turn(game.board, game.dice, game.legal_plays) : null, selected: null };
}

/** Whether the viewer is moving checkers now. */
export function isMoving(state) {
  return Boolean(state.snapshot && state.snapshot.may_play && state.turn.plan);
}

/** The patch for a click on `point` (25: the bar, 0: the tray), with a hint when it does nothing. */
export function pick(state, point) {
  if (!isMoving(state) || state.busy) return null;
  // Any click moves on from the last refusal.
  return { refusal: null, ...picked(state, point) };
}

function picked(state, point) {
  const { plan, selected } = state.turn;
  if (selected === null) return pickUp(state, point);
  if (point === selected) return { turn: { ...state.turn, selected: null }, hint: "" };
  const moved = plan.moved(selected, point);
  if (moved) return { turn: { ...state.turn, plan: moved, selected: null }, hint: "" };
  if (plan.movable().has(point)) return { turn: { ...state.turn, selected: point } };
  return { hint: cannotGo(point) };
}

/**
 * When a click puts the picked-up checker down where no legal play goes: the turn so far
 * and that move as move text (`play`), for the server to say which rule it breaks, and
 * words to show if the server cannot be asked (`fallback`). Null for any other click.
 */
export function dropAttempt(state, point) {
  if (!isMoving(state) || state.busy) return null;
  const { plan, selected } = state.turn;
  // The bar is no destination: move text cannot even say it.
  if (selected === null || point === selected || point === 25) return null;
  if (plan.moved(selected, point) || plan.movable().has(point)) return null;
  const moves = plan.steps.map((step) => [step.from, step.to]).concat([[selected, point]]);
  return {
    play: moves.map(([from, to]) => `${notation(from)}/${notation(to)}`).join(" "),
    fallback: cannotGo(point),
  };
}

/** Why the picked-up checker cannot be put down on `point`. */
function cannotGo(point) {
  if (point === 0) return _("That checker cannot bear off with these dice");
  if (point === 25) return _("That checker cannot move to the bar");
  return format(_("That checker cannot move to point %(point)s"), { point });
}

function notation(point) {
  if (point === 25) return "bar";
  return point === 0 ? "off" : String(point);
}

function pickUp(state, point) {
  const { plan } = state.turn;
  if (plan.movable().has(point)) return { turn: { ...state.turn, selected: point }, hint: "" };
  return { hint: whyNotMovable(plan, point) };
}

function whyNotMovable(plan, point) {
  if (plan.board.bar[0] > 0 && point !== 25) return _("Enter your checker from the bar first");
  if (point === 0 || point === 25 || plan.board.points[point - 1] <= 0) return _("Pick up one of your checkers");
  if (plan.left.length === 0) return _("All dice are played: confirm or undo");
  return format(_("The checker on point %(point)s cannot move"), { point });
}

/** The patch that takes back every move of the turn. */
export function undo(state) {
  if (!state.turn.plan) return null;
  return { turn: { ...state.turn, plan: state.turn.plan.undone(), selected: null }, hint: "" };
}

/** The patch that puts the picked-up checker down where it was. */
export function putBack(state) {
  return state.turn.selected === null ? null : { turn: { ...state.turn, selected: null } };
}

/** What to tell a player moving checkers, when nothing else is to be said. */
export function moveGuidance(state) {
  const { plan, selected } = state.turn;
  if (plan.complete()) {
    return plan.left.length ? _("This play is complete: confirm it, or play on") : _("Confirm your play, or undo it");
  }
  if (selected !== null) return state.config.highlight ? _("Pick a highlighted point") : _("Pick the point to move to");
  return _("Pick up a checker to move it");
}
