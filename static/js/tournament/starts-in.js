// Counts down to a tournament's start (data-countdown, an ISO date-time, on the server's
// clock): "starts in 2 h 05 min", then "starting now". The server's text stays until the
// first tick, and for browsers without scripts.

import { _, format } from "../lib/i18n.js";
import { countDown, msUntil, spanText } from "../lib/countdown.js";

countDown("[data-countdown]", (element) => {
  const left = msUntil(element.dataset.countdown);
  element.textContent = left > 0 ? format(_("starts in %(span)s"), { span: spanText(left) }) : _("starting now");
});
