// The score panel: a row per player (colour, whether they are connected, name, points,
// rating, pips, clock), what is played for, the game number and how many watch.
//
// The rows follow the board: the player drawn at the top first. Their clocks are filled
// in by clocks.js.

import { _, format, language, ngettext } from "../lib/i18n.js";
import { changed } from "../lib/store.js";
import { bottomSeat, colourOf, currentGame, isPassAndPlay, isViewer, nameOf } from "./seats.js";
import { shownPips } from "./board-view.js";
import { amount, money } from "../lib/money.js";

const ROW = `<span class="swatch" aria-hidden="true"></span>
  <div>
    <div class="line"><span class="dot" role="img"></span><span class="who"></span><span class="you-tag"></span><span class="points"></span></div>
    <div class="line"><span class="details"></span><span class="clock" role="timer"></span></div>
  </div>`;

export function startScoreboard(store, page) {
  const rows = page.querySelector("#player-rows");
  rows.replaceChildren(...[0, 1].map(playerRow));
  store.subscribe((state, previous) => {
    if (!state.snapshot) return;
    if (changed(state, previous, "snapshot", "turn", "presence")) {
      const bottom = bottomSeat(state);
      [1 - bottom, bottom].forEach((seat, index) => renderRow(rows.children[index], state, seat));
    }
    if (changed(state, previous, "snapshot")) renderMeta(page, state);
    if (changed(state, previous, "presence")) renderSpectators(page, state.presence.spectators || 0);
  });
}

function playerRow() {
  const row = document.createElement("div");
  row.className = "player-row";
  row.innerHTML = ROW;
  return row;
}

function renderRow(row, state, seat) {
  const { snapshot, presence } = state;
  const game = currentGame(state);
  row.dataset.seat = String(seat);
  row.classList.toggle("is-turn", Boolean(snapshot.status === "playing" && game && game.turn_seat === seat));
  row.querySelector(".swatch").className = `swatch swatch-${colourOf(state, seat)}`;
  renderDot(row.querySelector(".dot"), state, presence, seat);
  row.querySelector(".who").textContent = nameOf(state, seat);
  row.querySelector(".you-tag").textContent = isViewer(state, seat) ? _("you") : "";
  const points = row.querySelector(".points");
  points.textContent = String(snapshot.score[seat]);
  points.setAttribute("aria-label", format(ngettext("%(points)s point", "%(points)s points", snapshot.score[seat]), { points: snapshot.score[seat] }));
  row.querySelector(".details").textContent = details(state, seat).join(" · ");
  row.querySelector(".clock").dataset.testid = `clock-${seat}`;
}

function renderDot(dot, state, presence, seat) {
  const connected = Boolean(presence.connected && presence.connected[seat]);
  const away = !connected && presence.grace_ends && presence.grace_ends[seat];
  // One screen holds both seats in pass and play: there is no second connection to show.
  dot.hidden = isPassAndPlay(state);
  dot.className = `dot${connected ? " is-on" : away ? " is-away" : ""}`;
  dot.title = connected ? _("Connected") : away ? _("Disconnected") : _("Not here");
  dot.setAttribute("aria-label", dot.title);
}

function details(state, seat) {
  const parts = [];
  if (!isPassAndPlay(state) && state.snapshot.ratings) parts.push(Number(state.snapshot.ratings[seat]).toFixed(1));
  const pips = shownPips(state);
  if (pips) parts.push(format(_("%(pips)s pips"), { pips: pips[seat === bottomSeat(state) ? 0 : 1] }));
  return parts;
}

function renderMeta(page, state) {
  const game = currentGame(state);
  page.querySelector("#match-kind").textContent = stakesText(state);
  page.querySelector("#game-number").textContent = game ? format(_("Game %(number)s"), { number: game.number }) : "";
}

function renderSpectators(page, watching) {
  const element = page.querySelector('[data-testid="spectators"]');
  element.textContent = format(_("%(watching)s watching"), { watching });
  element.title = format(ngettext("%(watching)s spectator", "%(watching)s spectators", watching), { watching });
}

function stakesText(state) {
  const { snapshot } = state;
  const parts = [];
  if (snapshot.swing) {
    // A swing tournament's game: played for chips, not money.
    const { cpp, stake, all_in: allIn } = snapshot.swing;
    const chips = (count) => count.toLocaleString(language() === "en" ? "en-US" : language());
    parts.push(format(_("swing: %(chips)s chips a point"), { chips: chips(cpp) }));
    parts.push(format(allIn ? _("all-in for %(chips)s") : _("up to %(chips)s chips"), { chips: chips(stake) }));
    if (snapshot.kind === "match") parts.push(lengthText(snapshot), matchStakeText(snapshot));
  } else if (snapshot.kind === "money") {
    parts.push(format(_("%(amount)s per point"), { amount: money(snapshot.stake_cents || 0) }), snapshot.currency);
  } else {
    parts.push(lengthText(snapshot));
    if (snapshot.stake_cents) parts.push(format(_("stake %(amount)s"), { amount: amount(snapshot.stake_cents, snapshot.currency) }));
    if (snapshot.match_cube) parts.push(matchStakeText(snapshot));
  }
  parts.push(isPassAndPlay(state) ? _("pass and play") : snapshot.rated ? _("rated") : _("unrated"));
  return parts.join(" · ");
}

const lengthText = (snapshot) => format(ngettext("to %(length)s", "to %(length)s", snapshot.length), { length: snapshot.length });

const matchStakeText = (snapshot) => format(_("match stake ×%(value)s"), { value: snapshot.match_cube.value });
