// The board: a board.js model made from the store, and clicks and keys on it turned into
// the turn being built; a checker put down where the rules refuse is explained by the
// server, on the board. Also the side the home board is drawn on (kept in this browser)
// and the GNUBG ID of the position under it.

import { renderBoard, startingPosition } from "../lib/board.js";
import { _, format } from "../lib/i18n.js";
import { diceToPlay, pipCounts } from "../lib/moves.js";
import { changed } from "../lib/store.js";
import { bottomSeat, colourOf, currentGame, nameOf, viewerSeat } from "./seats.js";
import { dropAttempt, isMoving, pick, putBack } from "./turn.js";

const HOME_LEFT_KEY = "crawford.board.homeLeft";
const REFUSAL_SHOWN_MS = 7000;
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** Whether this browser draws boards with the home board on the left. */
export function homeBoardLeft() {
  try {
    return localStorage.getItem(HOME_LEFT_KEY) === "1";
  } catch (error) {
    return false;
  }
}

/** `askWhy(attempt)` sends a refused drop to the server (actions.js). */
export function startBoard(store, page, askWhy) {
  const svg = page.querySelector("#board");
  store.subscribe((state, previous) => {
    if (!state.snapshot) return;
    if (changed(state, previous, "snapshot", "turn", "busy", "recent", "flipped")) renderBoard(svg, boardModel(state));
    if (changed(state, previous, "snapshot")) showPosition(state);
  });
  const choose = (point) => {
    const attempt = dropAttempt(store.get(), point);
    if (attempt) askWhy(attempt);
    else store.update((state) => pick(state, point));
  };
  svg.addEventListener("click", (event) => {
    const spot = event.target.closest("[data-point]");
    if (spot) choose(Number(spot.dataset.point));
  });
  svg.addEventListener("keydown", (event) => {
    const spot = event.target.closest("[data-point]");
    if (!spot) return;
    if (STEPS[event.key]) {
      event.preventDefault();
      const next = neighbour(svg, spot, STEPS[event.key]);
      if (next) next.focus();
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    const point = Number(spot.dataset.point);
    choose(point);
    // The board was drawn anew: keep the keyboard where it was.
    const again = svg.querySelector(`[data-point="${point}"]`);
    if (again && again.getAttribute("tabindex") === "0") again.focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") store.update(putBack);
  });
  startRefusal(store, page);
  startFlip(store, page);
  wireCopy();
}

/**
 * The point the arrow key `[dx, dy]` leads to from `spot`: of those the keyboard can reach,
 * the nearest that way, keeping to the same row (or column) where there is one. Read from
 * where the points are drawn, so it holds with the home board on either side.
 */
function neighbour(svg, spot, [dx, dy]) {
  const centre = (element) => {
    const box = element.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  };
  const here = centre(spot);
  let best = null;
  let bestScore = Infinity;
  for (const other of svg.querySelectorAll('[data-point][tabindex="0"]')) {
    if (other === spot) continue;
    const there = centre(other);
    const ahead = (there.x - here.x) * dx + (there.y - here.y) * dy;
    if (ahead < 1) continue;
    const aside = Math.abs((there.x - here.x) * dy) + Math.abs((there.y - here.y) * dx);
    const score = ahead + 3 * aside;
    if (score < bestScore) {
      best = other;
      bestScore = score;
    }
  }
  return best;
}

/** The server's sentence for a refused drop, over the board until the next click or a while. */
function startRefusal(store, page) {
  const banner = page.querySelector("#refusal");
  let timer = null;
  store.subscribe((state, previous) => {
    if (!changed(state, previous, "refusal")) return;
    banner.hidden = !state.refusal;
    banner.textContent = state.refusal || "";
    clearTimeout(timer);
    const shown = state.refusal;
    if (shown) timer = setTimeout(() => store.update((now) => (now.refusal === shown ? { refusal: null } : null)), REFUSAL_SHOWN_MS);
  });
}

/** The button that puts the home board on the other side; this browser remembers it. */
function startFlip(store, page) {
  const button = page.querySelector("#flip");
  store.subscribe((state, previous) => {
    if (changed(state, previous, "flipped")) button.setAttribute("aria-pressed", String(state.flipped));
  });
  button.addEventListener("click", () => {
    const flipped = !store.get().flipped;
    try {
      localStorage.setItem(HOME_LEFT_KEY, flipped ? "1" : "0");
    } catch (error) {
      // Private windows may refuse storage: the board still turns, for this visit.
    }
    store.update({ flipped });
  });
}

/** Pips [bottom, top] as the board stands, with the moves made so far this turn. */
export function shownPips(state) {
  const game = currentGame(state);
  if (!game) return null;
  return isMoving(state) ? pipCounts(state.turn.plan.board) : game.pips;
}

function boardModel(state) {
  const game = currentGame(state);
  const bottom = bottomSeat(state);
  const moving = isMoving(state);
  const { plan, selected } = state.turn;
  const model = {
    ...(game ? (moving ? plan.board : game.board) : startingPosition()),
    colours: { bottom: colourOf(state, bottom), top: colourOf(state, 1 - bottom) },
    names: { bottom: nameOf(state, bottom) || _("the player below"), top: nameOf(state, 1 - bottom) || _("the player above") },
    pips: shownPips(state),
    interactive: moving && !state.busy,
    showHints: state.config.highlight,
    selected: moving ? selected : null,
    movable: moving && state.config.highlight ? plan.movable() : new Set(),
    destinations: moving && selected !== null ? new Set(plan.destinations(selected).keys()) : new Set(),
    notice: boardNotice(state),
    flipped: state.flipped,
    // Once the viewer starts moving, their own checkers are the news.
    recent: moving && plan.steps.length ? new Set() : state.recent,
  };
  if (!game) return model;
  const side = (seat) => (seat === bottom ? "bottom" : "top");
  // The dice of a finished game's last turn would only hide the result across the board.
  if (game.dice && game.phase !== "over") {
    model.dice = {
      values: moving ? plan.dice : diceToPlay(game.dice),
      used: moving ? plan.usedDice() : [],
      side: side(game.on_roll_seat),
    };
  }
  model.cube = cubeModel(state, game, side);
  model.matchCube = matchCubeModel(state, side);
  if (game.phase === "resignation" && game.resignation) {
    model.resignation = { side: side(game.resignation.by_seat), level: game.resignation.level };
  }
  return model;
}

function cubeModel(state, game, side) {
  const cube = game.cube;
  // An offered cube waits on the side of the player who must answer it.
  if (game.phase === "doubled") return { value: cube.offered_value, place: side(game.turn_seat), offered: true };
  if (state.snapshot.crawford || state.snapshot.status === "finished") return null;
  return { value: cube.value, place: cube.owner_seat === null ? "centre" : side(cube.owner_seat), offered: false };
}

function matchCubeModel(state, side) {
  const cube = state.snapshot.match_cube;
  if (!cube || state.snapshot.status === "finished") return null;
  // An offered match cube waits on the side of the player who must answer it.
  if (cube.offered_by !== null) return { value: cube.value * 2, place: side(1 - cube.offered_by), offered: true };
  return { value: cube.value, place: cube.owner === null ? "centre" : side(cube.owner), offered: false };
}

function boardNotice(state) {
  const { snapshot } = state;
  switch (snapshot.status) {
    case "invited":
      // The one challenged is asked, not told to wait for themselves.
      if (viewerSeat(state) === 1) return format(_("%(name)s challenges you"), { name: nameOf(state, 0) });
      return format(_("Waiting for %(name)s to accept"), { name: nameOf(state, 1) });
    case "declined":
      return _("The challenge was declined");
    case "cancelled":
      return currentGame(state) ? _("Match voided") : _("The challenge was withdrawn");
    case "suspended":
      return _("Match suspended");
    case "finished":
      return snapshot.winner_seat === null ? _("Session over") : format(_("%(name)s wins the match"), { name: nameOf(state, snapshot.winner_seat) });
    default:
      return null;
  }
}

function showPosition(state) {
  const game = currentGame(state);
  const id = game && game.gnubg_id ? game.gnubg_id : "";
  document.getElementById("gnubg-id").textContent = id;
  document.getElementById("position-line").hidden = !id;
}

function wireCopy() {
  const button = document.getElementById("copy-id");
  const code = document.getElementById("gnubg-id");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(code.textContent);
      button.textContent = _("Copied");
    } catch (error) {
      // Without clipboard access, select the ID so the player can copy it themselves.
      const range = document.createRange();
      range.selectNodeContents(code);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = _("Selected");
    }
    setTimeout(() => {
      button.textContent = _("Copy");
    }, 1600);
  });
}
