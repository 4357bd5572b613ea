// The result of a game, over the next game's board for a few seconds: who won what, how,
// the score, and a countdown to the next game (a button or Escape skips it).
//
// The server opens the next game the moment one ends, so the panel is shown over it. It
// waits for the game's "game_over" row of the move list, which says who won, the points
// the game scored and the level of the win (single, gammon, backgammon), as the server
// scored it; the row before it says how the game ended.

import { changed } from "../lib/store.js";
import { isViewer, nameOf } from "./seats.js";

const SHOWN_MS = 6000;
const TICK_MS = 250;
// The row before "game_over" says how the game ended, when it did not end by the last checker.
const ENDINGS = { drop: "drop", accept_resign: "resignation", timeout: "time" };

/** The patch that turns a game just over into the panel, once its result row is in the list. */
export function withGameResult(state) {
  const ended = state.gameEnded;
  if (!ended || state.moves.loading || state.moves.stale) return null;
  const rows = state.moves.rows.filter((row) => row.game === ended.number);
  const overAt = rows.findIndex((row) => row.kind === "game_over");
  if (overAt === -1 || !rows[overAt].result || state.snapshot.status !== "playing") {
    return { gameEnded: null };
  }
  const { seat, result } = rows[overAt];
  const ending = overAt > 0 ? ENDINGS[rows[overAt - 1].kind] || "played" : "played";
  return {
    gameEnded: null,
    between: { number: ended.number, seat, points: result.points, ending, level: result.level, until: Date.now() + SHOWN_MS },
  };
}

export function startBetweenGames(store, page) {
  const panel = page.querySelector("#between-games");
  const countdown = panel.querySelector("[data-countdown]");
  let ticker = null;
  const close = () => store.update((state) => (state.between ? { between: null } : null));
  panel.querySelector("#next-game").addEventListener("click", close);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  store.subscribe((state, previous) => {
    if (!changed(state, previous, "between")) return;
    clearInterval(ticker);
    panel.hidden = !state.between;
    if (!state.between) return;
    render(panel, state);
    const tick = () => {
      const left = Math.ceil((state.between.until - Date.now()) / 1000);
      if (left <= 0) close();
      else countdown.textContent = String(left);
    };
    tick();
    ticker = setInterval(tick, TICK_MS);
  });
}

function render(panel, state) {
  const { number, seat, points, ending, level } = state.between;
  const { snapshot } = state;
  const winner = isViewer(state, seat) ? "You win" : `${nameOf(state, seat)} wins`;
  const loser = nameOf(state, 1 - seat);
  panel.querySelector("[data-game]").textContent = `Game ${number}`;
  panel.querySelector("[data-winner]").textContent = `${winner} ${points} point${points === 1 ? "" : "s"}`;
  const won = { single: "a single game", gammon: "a gammon", backgammon: "a backgammon" }[level];
  const how = {
    played: won ? `${won.charAt(0).toUpperCase()}${won.slice(1)}, played out` : "Played out",
    drop: `${loser} dropped the double`,
    resignation: `${loser} resigned ${won || "the game"}`,
    time: `${loser} ran out of time`,
  }[ending];
  panel.querySelector("[data-how]").textContent = how;
  const length = snapshot.kind === "match" ? ` · match to ${snapshot.length}` : "";
  const crawford = snapshot.crawford ? " · the Crawford game is next" : "";
  panel.querySelector("[data-score]").textContent =
    `${nameOf(state, 0)} ${snapshot.score[0]} – ${snapshot.score[1]} ${nameOf(state, 1)}${length}${crawford}`;
  panel.querySelector("[data-next]").textContent = `Game ${snapshot.game.number}`;
}
