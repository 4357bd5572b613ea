// What the other side just did, read out to screen readers: every move-list row another
// player (or the server: the opening roll) adds is written into a polite live region
// under the board. The viewer's own rows are not: they just made them. Neither are the
// rows already in the list when the page opened, nor any in pass and play, where the one
// person at the screen made every move.

import { changed } from "../lib/store.js";
import { _, format } from "../lib/i18n.js";
import { rowText } from "./move-list.js";
import { isPassAndPlay, isViewer, rowName } from "./seats.js";

export function startAnnouncer(store, page) {
  const region = page.querySelector("#announcer");
  const first = store.get().snapshot;
  let heard = first ? first.last_seq : 0;
  store.subscribe((state, previous) => {
    if (!state.snapshot || !changed(state, previous, "moves")) return;
    const rows = state.moves.rows.filter((row) => row.seq > heard);
    if (!rows.length) return;
    heard = rows[rows.length - 1].seq;
    if (isPassAndPlay(state)) return;
    const news = rows.filter((row) => !isViewer(state, row.seat)).map((row) => spoken(state, row));
    if (news.length) region.textContent = news.join(". ");
  });
}

/** A row as a sentence: "Bruno played 13 to 8, 13 to 11 with 5 and 2". */
function spoken(state, row) {
  const who = rowName(state, row);
  // Play rows read "52: 13/8 13/11": say the dice as dice and the moves as moves.
  const play = row.kind === "play" && /^(\d)(\d): (.*)$/.exec(row.text);
  if (play) {
    return format(_("%(name)s played %(moves)s with %(first)s and %(second)s"), {
      name: who,
      moves: movesSpoken(play[3]),
      first: play[1],
      second: play[2],
    });
  }
  // "Doubles => 2" reads out as "Doubles to 2".
  const text = rowText(row).replace(" => ", ` ${_("to")} `);
  return who ? `${who}: ${text}` : text;
}

function movesSpoken(text) {
  return text
    .split(" ")
    .map((move) =>
      move
        .replace(/\((\d)\)$/, (whole, times) => ` ${format(_("%(times)s times"), { times })}`)
        .replace(/\*/g, ` ${_("hitting")}`)
        .replace(/\/off/g, ` ${_("off")}`)
        .replace(/\//g, ` ${_("to")} `),
    )
    .join(", ");
}
