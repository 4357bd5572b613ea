// The strip over the board: whose turn it is and what they are asked, in words (a match
// double waiting for its answer first), with the Crawford and post-Crawford badges and a
// "You are watching" badge for onlookers. Whose
// turn it is also leads the window's title, so a player in another tab sees it is theirs,
// and the board's own label.

import { changed } from "../lib/store.js";
import { colourOf, currentGame, isPassAndPlay, isViewer, mustAct, nameOf, viewerSeat } from "./seats.js";
import { finishedText } from "./result.js";

const LEVEL_TEXT = { single: "a single game", gammon: "a gammon", backgammon: "a backgammon" };
const ANSWERS = ["take", "drop", "beaver", "raccoon"];
const PAGE_TITLE = document.title;

export function startStatus(store, page) {
  const text = page.querySelector("#turn-text");
  const swatch = page.querySelector("#turn-swatch");
  const board = page.querySelector("#board");
  store.subscribe((state, previous) => {
    if (!state.snapshot || !changed(state, previous, "snapshot")) return;
    const { snapshot } = state;
    const words = statusText(state);
    text.textContent = words;
    document.title = [titleText(state), PAGE_TITLE].filter(Boolean).join(" · ");
    board.setAttribute("aria-label", `Backgammon board. ${words}`);
    const game = currentGame(state);
    const toAct = game ? game.turn_seat : null;
    swatch.hidden = !(snapshot.status === "playing" && toAct !== null);
    if (!swatch.hidden) swatch.className = `turn-swatch swatch-${colourOf(state, toAct)}`;
    // Once the match is over, which game it ended in is no longer news.
    const playing = snapshot.status === "playing";
    page.querySelector('[data-testid="crawford"]').hidden = !(playing && snapshot.crawford);
    page.querySelector('[data-testid="post-crawford"]').hidden = !(playing && snapshot.post_crawford);
    page.querySelector('[data-testid="watching"]').hidden = viewerSeat(state) !== null;
  });
}

/** Whose turn it is in a few words, or how the match ended. */
function titleText(state) {
  const { snapshot } = state;
  if (snapshot.status === "finished") {
    if (snapshot.winner_seat === null) return "Session over";
    return isViewer(state, snapshot.winner_seat) ? "You won" : `${nameOf(state, snapshot.winner_seat)} won`;
  }
  const game = currentGame(state);
  if (snapshot.status !== "playing" || !game || game.turn_seat === null) return "";
  if (mustAct(state) && !isPassAndPlay(state)) return "Your turn";
  return `${nameOf(state, game.turn_seat)}'s turn`;
}

function statusText(state) {
  const { snapshot } = state;
  switch (snapshot.status) {
    case "invited":
      if (viewerSeat(state) === 1) return `${nameOf(state, 0)} challenges you: accept or decline`;
      return `Waiting for ${nameOf(state, 1)} to accept the challenge`;
    case "declined":
      return `${nameOf(state, 1)} declined the challenge`;
    case "cancelled":
      // A match voided after play began (by staff, or a computer that could not move) has games.
      return currentGame(state) ? "The match was voided: nothing is recorded" : "The challenge was withdrawn";
    case "suspended":
      return "The match is suspended";
    case "finished":
      return finishedText(state);
    default:
      break;
  }
  const game = currentGame(state);
  if (!game) return "The match is starting";
  const cube = snapshot.match_cube;
  if (cube && cube.offered_by !== null) return matchDoubleText(state, cube);
  const phase = PHASES[game.phase];
  return phase ? phase(state, game) : "";
}

/** A match double waiting for its answer, as the answerer, the doubler or an onlooker reads it. */
function matchDoubleText(state, cube) {
  const by = nameOf(state, cube.offered_by);
  const offer = `doubles the match stake to ${cube.value * 2}`;
  if (state.snapshot.may_match_take) return `${by} ${offer}: take or drop?`;
  if (viewerSeat(state) === null) return `${by} ${offer}`;
  const who = isPassAndPlay(state) ? by : "You";
  return `${who} doubled the match stake to ${cube.value * 2}; ${nameOf(state, 1 - cube.offered_by)} is deciding`;
}

const PHASES = {
  roll(state, game) {
    const { snapshot } = state;
    if (!snapshot.may_roll) return `${nameOf(state, game.turn_seat)} to roll`;
    const doubles = [snapshot.may_double && "double", snapshot.may_match_double && "double the match stake"];
    const choices = ["roll the dice", ...doubles.filter(Boolean)];
    const last = choices.pop();
    return `${lead(state, game)}: ${choices.length ? `${choices.join(", ")} or ${last}` : last}`;
  },
  move(state, game) {
    const dice = game.dice ? game.dice.join("-") : "";
    if (!state.snapshot.may_play) return `${nameOf(state, game.turn_seat)} is playing ${dice}`;
    return `${lead(state, game)}: play ${dice}`;
  },
  doubled(state, game) {
    const { cube } = game;
    const beaver = cube.offer === "beaver";
    const offer = `${beaver ? "beavers" : "doubles"} to ${cube.offered_value}`;
    const by = nameOf(state, cube.offered_by_seat);
    if (mustAct(state)) return `${by} ${offer}: ${choices(state)}?`;
    if (viewerSeat(state) === null) return `${by} ${offer}`;
    const made = `${beaver ? "beavered" : "doubled"} to ${cube.offered_value}`;
    return `${isPassAndPlay(state) ? by : "You"} ${made}; ${nameOf(state, game.turn_seat)} is deciding`;
  },
  resignation(state, game) {
    const offer = game.resignation;
    if (!offer) return "";
    const level = LEVEL_TEXT[offer.level] || offer.level;
    const by = nameOf(state, offer.by_seat);
    if (viewerSeat(state) === null) return `${by} offers to resign ${level}`;
    if (!mustAct(state)) {
      return `${isPassAndPlay(state) ? by : "You"} offered to resign ${level}; ${nameOf(state, game.turn_seat)} is deciding`;
    }
    const points = offer.points;
    return `${by} offers to resign ${level} (${points} point${points === 1 ? "" : "s"})`;
  },
  over: () => "Game over",
};

function lead(state, game) {
  return isPassAndPlay(state) ? `${nameOf(state, game.turn_seat)}'s turn` : "Your turn";
}

/** The answers the viewer may give to the cube on offer, as "take, drop or beaver". */
function choices({ snapshot }) {
  const words = ANSWERS.filter((answer) => snapshot[`may_${answer}`]);
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words.join("");
}
