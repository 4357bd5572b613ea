// Time on the server's clock, and countdowns to the moments the server names.
//
// Every deadline the server sends (a show-up time, a tournament's start, a swing level, a
// reconnection grace, a running match clock) is a moment on its own clock, and a browser's
// clock may be minutes wrong. So a page learns the server's time from what the server
// sends: the moment the page was made (<html data-server-now>, written by base.html), then
// any later word that carries one (`heardServerTime`: a match snapshot's
// clock.server_now). `serverNow()` is this browser's clock moved by the difference, and
// every countdown on every page counts on it.

import { _, format } from "./i18n.js";

let offsetMs = 0;

/** The server said it is `moment` (an ISO date-time) now. */
export function heardServerTime(moment) {
  const at = Date.parse(moment);
  if (!Number.isNaN(at)) offsetMs = at - Date.now();
}

/** Now on the server's clock, in ms since the epoch. */
export function serverNow() {
  return Date.now() + offsetMs;
}

/** How long until `moment` (an ISO date-time) on the server's clock, in ms (NaN if unreadable). */
export function msUntil(moment) {
  return Date.parse(moment) - serverNow();
}

/**
 * Draw every element matching `selector` now and every `everyMs`: `draw(element)` sets its
 * text. The elements are looked up on each tick, so those of a fragment fetched later
 * count down too.
 */
export function countDown(selector, draw, everyMs = 1000) {
  const tick = () => document.querySelectorAll(selector).forEach(draw);
  tick();
  return setInterval(tick, everyMs);
}

/** A clock's face: "4:05", "1:02:03" (whole seconds, rounded up; never below 0:00). */
export function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

// Each unit as a count of it is written, in the page's language ("2 d", "2 g").
const UNITS = [
  [() => _("%(count)s d"), 86400],
  [() => _("%(count)s h"), 3600],
  [() => _("%(count)s min"), 60],
  [() => _("%(count)s s"), 1],
];

/** A longer wait in words, its two largest units: "2 d 3 h", "1 h 05 min", "3 min 05 s", "45 s". */
export function spanText(ms) {
  let rest = Math.max(0, Math.ceil(ms / 1000));
  const parts = [];
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (parts.length) parts.push(format(unit(), { count: String(count).padStart(size < 3600 ? 2 : 1, "0") }));
    else if (count || size === 1) parts.push(format(unit(), { count }));
    if (parts.length === 2) break;
  }
  return parts.join(" ");
}

heardServerTime(document.documentElement.dataset.serverNow);
