// Time running out: each player's clock, and the reconnection grace of a player who left.
//
// The server decides whether a clock runs (not before both players showed up, not while a
// resignation waits for its answer, not while the match is suspended: matches.clock) and
// reads both at the snapshot's `server_now`: `running`, `move_left_ms` (the turn's free
// seconds left) and `reserve_left_ms`. This page only draws those readings, counting a
// running one down on the server's clock (lib/countdown.js), so a slow or skewed browser
// clock does not matter; they are redrawn four times a second, and whenever the store
// changes.

import { clockText, msUntil, serverNow } from "../lib/countdown.js";
import { _, format } from "../lib/i18n.js";
import { isPassAndPlay, isViewer, nameOf } from "./seats.js";

const TICK_MS = 250;

export function startClocks(store, page) {
  const draw = () => {
    const state = store.get();
    if (!state.snapshot) return;
    for (const seat of [0, 1]) renderClock(page.querySelector(`[data-testid="clock-${seat}"]`), state, seat);
    renderGraceBanner(page.querySelector('[data-testid="presence-banner"]'), state);
  };
  store.subscribe(draw);
  setInterval(draw, TICK_MS);
}

/** What a player's clock shows now: the move timer runs first, then the reserve. */
function clockReading(state, seat) {
  const { clock } = state.snapshot;
  if (!clock || clock.kind === "none") return null;
  const reserve = clock.reserve_left_ms[seat];
  if (!clock.running[seat]) return { running: false, reserve };
  const moveLeft = clock.move_left_ms[seat] - Math.max(0, serverNow() - Date.parse(clock.server_now));
  if (moveLeft > 0) return { running: true, move: moveLeft, reserve };
  return { running: true, inReserve: true, reserve: Math.max(0, reserve + moveLeft) };
}

function renderClock(element, state, seat) {
  if (!element) return;
  const reading = clockReading(state, seat);
  element.classList.toggle("is-running", Boolean(reading && reading.running && !reading.inReserve));
  element.classList.toggle("is-reserve", Boolean(reading && reading.inReserve));
  if (!reading) {
    element.textContent = "";
    element.setAttribute("aria-label", _("No clock"));
    return;
  }
  const { html, spoken } = clockFace(reading);
  if (element.innerHTML !== html) element.innerHTML = html;
  element.setAttribute("aria-label", spoken);
}

function clockFace(reading) {
  const reserve = clockText(reading.reserve);
  if (reading.inReserve) {
    return {
      html: `<span class="move-time">${reserve}</span><span class="reserve">${_("reserve")}</span>`,
      spoken: format(_("%(reserve)s left in reserve"), { reserve }),
    };
  }
  if (reading.running) {
    const move = clockText(reading.move);
    return {
      html: `<span class="move-time">${move}</span><span class="reserve">+ ${reserve}</span>`,
      spoken: format(_("%(move)s to move, then %(reserve)s in reserve"), { move, reserve }),
    };
  }
  return {
    html: `<span class="reserve">${format(_("reserve %(reserve)s"), { reserve })}</span>`,
    spoken: format(_("%(reserve)s in reserve"), { reserve }),
  };
}

/** Who the match waits for to come back, and for how long; or why it stopped. */
function graceText(state) {
  const { snapshot, presence } = state;
  if (snapshot.status === "suspended") {
    const away = [0, 1].filter((seat) => !presence.connected[seat]);
    const names = away.map((seat) => nameOf(state, seat));
    if (names.length === 2) {
      return format(_("%(first)s and %(second)s did not come back in time. The match is suspended until staff or the engine settle it."), {
        first: names[0],
        second: names[1],
      });
    }
    if (names.length === 1) {
      return format(_("%(name)s did not come back in time. The match is suspended until staff or the engine settle it."), { name: names[0] });
    }
    return _("A player did not come back in time. The match is suspended until staff or the engine settle it.");
  }
  if (snapshot.status !== "playing" || isPassAndPlay(state)) return "";
  const waits = [];
  for (const seat of [0, 1]) {
    const ends = presence.grace_ends && presence.grace_ends[seat];
    if (presence.connected[seat] || !ends || isViewer(state, seat)) continue;
    waits.push(format(_("Waiting for %(name)s to reconnect (%(left)s)"), { name: nameOf(state, seat), left: clockText(msUntil(ends)) }));
  }
  return waits.join(" · ");
}

function renderGraceBanner(banner, state) {
  const text = graceText(state);
  banner.hidden = !text;
  if (text && banner.textContent !== text) banner.textContent = text;
}
