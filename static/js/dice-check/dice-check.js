// The dice check page: once the seed is revealed, the browser draws every roll of the log
// again from it (fair-dice.js) and says whether the log, and the commitment shown from the
// first roll, agree with the seed: a check that does not rest on the server's own.
//
// The table holds the log's rolls in order (data-game, data-kind "opening" | "roll",
// data-dice "52"); they are numbered per game as matches/verification.py numbers them:
// the opening throws of a game in turn, then its rolls from 1.

import { _, format, ngettext } from "../lib/i18n.js";
import { canCheck, commitmentOf, openingThrows, seedKey, turnDice } from "./fair-dice.js";

const page = document.getElementById("dice-check");
const verdict = document.getElementById("browser-verdict");

if (page.dataset.seed) check(page.dataset.seed);

async function check(seed) {
  if (!canCheck()) {
    say(_("Your browser draws dice only on a secure (HTTPS) page, so it cannot check them here."), "");
    return;
  }
  const sealed = (await commitmentOf(seed)) === page.dataset.commitment;
  const key = await seedKey(seed);
  const rows = [...page.querySelectorAll("tr[data-roll]")];
  const openings = new Map();
  const seen = new Map();
  let differ = 0;
  for (const row of rows) {
    const game = Number(row.dataset.game);
    const index = (seen.get(`${game}:${row.dataset.kind}`) || 0) + 1;
    seen.set(`${game}:${row.dataset.kind}`, index);
    let drawn;
    if (row.dataset.kind === "opening") {
      if (!openings.has(game)) openings.set(game, await openingThrows(key, game));
      drawn = openings.get(game)[index - 1] || null;
      row.querySelector("[data-roll-name]").textContent = format(_("Opening throw %(number)s"), { number: index });
    } else {
      drawn = await turnDice(key, game, index);
      row.querySelector("[data-roll-name]").textContent = format(_("Roll %(number)s"), { number: index });
    }
    const same = drawn !== null && `${drawn[0]}${drawn[1]}` === row.dataset.dice;
    if (!same) differ += 1;
    mark(row, drawn, same);
  }
  say(summary(sealed, rows.length, differ), sealed && !differ ? "ok" : "bad");
}

function mark(row, drawn, same) {
  row.querySelector("[data-computed]").textContent = drawn ? `${drawn[0]}-${drawn[1]}` : _("no such throw");
  const sign = row.querySelector("[data-mark]");
  sign.textContent = same ? "✓" : `✗ ${_("differs")}`;
  sign.className = same ? "amount-in" : "amount-out";
  row.classList.toggle("is-wrong", !same);
}

function summary(sealed, count, differ) {
  if (!sealed) return _("Your browser: the seed's SHA-256 is not the commitment shown at the start.");
  if (differ) {
    const words = ngettext(
      "Your browser: %(differ)s of %(count)s roll differ from what the seed gives.",
      "Your browser: %(differ)s of %(count)s rolls differ from what the seed gives.",
      count,
    );
    return format(words, { differ, count });
  }
  const words = ngettext(
    "Your browser: all %(count)s roll drawn again from the seed match the log, and the seed matches the commitment.",
    "Your browser: all %(count)s rolls drawn again from the seed match the log, and the seed matches the commitment.",
    count,
  );
  return format(words, { count });
}

function say(text, kind) {
  verdict.textContent = text;
  verdict.className = `dice-verdict ${kind}`;
  verdict.hidden = false;
}
