// The result of a game, over the next game's board for a few seconds: who won what, how,
// the score, and a countdown to the next game (a button or Escape skips it).
//
// The server opens the next game the moment one ends, so the panel is shown over it. It
// waits for the game's "game_over" row of the move list, which says who won, the points
// the game scored and the level of the win (single, gammon, backgammon), as the server
// scored it; the row before it says how the game ended.

import { _, format, ngettext } from "../lib/i18n.js";
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
  const loser = nameOf(state, 1 - seat);
  panel.querySelector("[data-game]").textContent = format(_("Game %(number)s"), { number });
  const winner = isViewer(state, seat)
    ? ngettext("You win %(points)s point", "You win %(points)s points", points)
    : ngettext("%(name)s wins %(points)s point", "%(name)s wins %(points)s points", points);
  panel.querySelector("[data-winner]").textContent = format(winner, { name: nameOf(state, seat), points });
  panel.querySelector("[data-how]").textContent = format(howItEnded(ending, level), { loser });
  const parts = [`${nameOf(state, 0)} ${snapshot.score[0]} – ${snapshot.score[1]} ${nameOf(state, 1)}`];
  if (snapshot.kind === "match") parts.push(format(ngettext("match to %(length)s", "match to %(length)s", snapshot.length), { length: snapshot.length }));
  if (snapshot.crawford) parts.push(_("the Crawford game is next"));
  panel.querySelector("[data-score]").textContent = parts.join(" · ");
  panel.querySelector("[data-next]").textContent = format(_("Game %(number)s"), { number: snapshot.game.number });
}

/** How a game ended, as a sentence with the loser's name left blank (`%(loser)s`). */
function howItEnded(ending, level) {
  if (ending === "played") {
    const played = { single: _("A single game, played out"), gammon: _("A gammon, played out"), backgammon: _("A backgammon, played out") };
    return played[level] || _("Played out");
  }
  if (ending === "drop") return _("%(loser)s dropped the double");
  if (ending === "time") return _("%(loser)s ran out of time");
  const resigned = {
    single: _("%(loser)s resigned a single game"),
    gammon: _("%(loser)s resigned a gammon"),
    backgammon: _("%(loser)s resigned a backgammon"),
  };
  return resigned[level] || _("%(loser)s resigned the game");
}
