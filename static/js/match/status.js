// The strip over the board: whose turn it is and what they are asked, in words (a match
// double waiting for its answer first), with the Crawford and post-Crawford badges and a
// "You are watching" badge for onlookers. Whose
// turn it is also leads the window's title, so a player in another tab sees it is theirs,
// and the board's own label.

import { _, format, ngettext } from "../lib/i18n.js";
import { changed } from "../lib/store.js";
import { colourOf, currentGame, isPassAndPlay, isViewer, mustAct, nameOf, viewerSeat } from "./seats.js";
import { finishedText } from "./result.js";

const ANSWERS = ["take", "drop", "beaver", "raccoon"];
const ANSWER_WORDS = { take: _("take"), drop: _("drop"), beaver: _("beaver"), raccoon: _("raccoon") };
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
    board.setAttribute("aria-label", format(_("Backgammon board. %(status)s"), { status: words }));
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
    if (snapshot.winner_seat === null) return _("Session over");
    return isViewer(state, snapshot.winner_seat) ? _("You won") : format(_("%(name)s won"), { name: nameOf(state, snapshot.winner_seat) });
  }
  const game = currentGame(state);
  if (snapshot.status !== "playing" || !game || game.turn_seat === null) return "";
  if (mustAct(state) && !isPassAndPlay(state)) return _("Your turn");
  return format(_("%(name)s's turn"), { name: nameOf(state, game.turn_seat) });
}

function statusText(state) {
  const { snapshot } = state;
  switch (snapshot.status) {
    case "invited":
      if (viewerSeat(state) === 1) return format(_("%(name)s challenges you: accept or decline"), { name: nameOf(state, 0) });
      return format(_("Waiting for %(name)s to accept the challenge"), { name: nameOf(state, 1) });
    case "declined":
      return format(_("%(name)s declined the challenge"), { name: nameOf(state, 1) });
    case "cancelled":
      // A match voided after play began (by staff, or a computer that could not move) has games.
      return currentGame(state) ? _("The match was voided: nothing is recorded") : _("The challenge was withdrawn");
    case "suspended":
      return _("The match is suspended");
    case "finished":
      return finishedText(state);
    default:
      break;
  }
  const game = currentGame(state);
  if (!game) return _("The match is starting");
  const cube = snapshot.match_cube;
  if (cube && cube.offered_by !== null) return matchDoubleText(state, cube);
  const phase = PHASES[game.phase];
  return phase ? phase(state, game) : "";
}

/** A match double waiting for its answer, as the answerer, the doubler or an onlooker reads it. */
function matchDoubleText(state, cube) {
  const values = { name: nameOf(state, cube.offered_by), value: cube.value * 2, other: nameOf(state, 1 - cube.offered_by) };
  if (state.snapshot.may_match_take) return format(_("%(name)s doubles the match stake to %(value)s: take or drop?"), values);
  if (viewerSeat(state) === null) return format(_("%(name)s doubles the match stake to %(value)s"), values);
  if (isPassAndPlay(state)) return format(_("%(name)s doubled the match stake to %(value)s; %(other)s is deciding"), values);
  return format(_("You doubled the match stake to %(value)s; %(other)s is deciding"), values);
}

const PHASES = {
  roll(state, game) {
    const { snapshot } = state;
    if (!snapshot.may_roll) return format(_("%(name)s to roll"), { name: nameOf(state, game.turn_seat) });
    const doubles = [snapshot.may_double && _("double"), snapshot.may_match_double && _("double the match stake")];
    return `${lead(state, game)}: ${either([_("roll the dice"), ...doubles.filter(Boolean)])}`;
  },
  move(state, game) {
    const dice = game.dice ? game.dice.join("-") : "";
    if (!state.snapshot.may_play) return format(_("%(name)s is playing %(dice)s"), { name: nameOf(state, game.turn_seat), dice });
    return `${lead(state, game)}: ${format(_("play %(dice)s"), { dice })}`;
  },
  doubled(state, game) {
    const { cube } = game;
    const beaver = cube.offer === "beaver";
    const values = { name: nameOf(state, cube.offered_by_seat), value: cube.offered_value, other: nameOf(state, game.turn_seat) };
    if (mustAct(state)) {
      const offer = beaver ? _("%(name)s beavers to %(value)s: %(choices)s?") : _("%(name)s doubles to %(value)s: %(choices)s?");
      return format(offer, { ...values, choices: choices(state) });
    }
    if (viewerSeat(state) === null) return format(beaver ? _("%(name)s beavers to %(value)s") : _("%(name)s doubles to %(value)s"), values);
    if (isPassAndPlay(state)) {
      return format(beaver ? _("%(name)s beavered to %(value)s; %(other)s is deciding") : _("%(name)s doubled to %(value)s; %(other)s is deciding"), values);
    }
    return format(beaver ? _("You beavered to %(value)s; %(other)s is deciding") : _("You doubled to %(value)s; %(other)s is deciding"), values);
  },
  resignation(state, game) {
    const offer = game.resignation;
    if (!offer) return "";
    const values = { name: nameOf(state, offer.by_seat), other: nameOf(state, game.turn_seat), points: offer.points };
    if (viewerSeat(state) === null) return format(resignOffered(offer.level), values);
    if (!mustAct(state)) {
      const made = isPassAndPlay(state) ? resignMade(offer.level) : resignMadeByYou(offer.level);
      return format(made, values);
    }
    return format(resignAsked(offer.level, offer.points), values);
  },
  over: () => _("Game over"),
};

/** "%(name)s offers to resign a gammon", by the offer's level. */
function resignOffered(level) {
  if (level === "gammon") return _("%(name)s offers to resign a gammon");
  if (level === "backgammon") return _("%(name)s offers to resign a backgammon");
  return _("%(name)s offers to resign a single game");
}

function resignMade(level) {
  if (level === "gammon") return _("%(name)s offered to resign a gammon; %(other)s is deciding");
  if (level === "backgammon") return _("%(name)s offered to resign a backgammon; %(other)s is deciding");
  return _("%(name)s offered to resign a single game; %(other)s is deciding");
}

function resignMadeByYou(level) {
  if (level === "gammon") return _("You offered to resign a gammon; %(other)s is deciding");
  if (level === "backgammon") return _("You offered to resign a backgammon; %(other)s is deciding");
  return _("You offered to resign a single game; %(other)s is deciding");
}

function resignAsked(level, points) {
  if (level === "gammon") return ngettext("%(name)s offers to resign a gammon (%(points)s point)", "%(name)s offers to resign a gammon (%(points)s points)", points);
  if (level === "backgammon") {
    return ngettext("%(name)s offers to resign a backgammon (%(points)s point)", "%(name)s offers to resign a backgammon (%(points)s points)", points);
  }
  return ngettext("%(name)s offers to resign a single game (%(points)s point)", "%(name)s offers to resign a single game (%(points)s points)", points);
}

function lead(state, game) {
  return isPassAndPlay(state) ? format(_("%(name)s's turn"), { name: nameOf(state, game.turn_seat) }) : _("Your turn");
}

/** Choices as one says them: "a", "a or b", "a, b or c". */
function either(words) {
  if (words.length < 2) return words.join("");
  return format(_("%(some)s or %(last)s"), { some: words.slice(0, -1).join(", "), last: words[words.length - 1] });
}

/** The answers the viewer may give to the cube on offer, as "take, drop or beaver". */
function choices({ snapshot }) {
  return either(ANSWERS.filter((answer) => snapshot[`may_${answer}`]).map((answer) => ANSWER_WORDS[answer]));
}
