// How long a player has left to come to the board, on a notice's card and on the
// notifications page (data-show-up-by, an ISO date-time on the server's clock).

import { clockText, countDown, msUntil, spanText } from "../lib/countdown.js";
import { _, format } from "../lib/i18n.js";

const HOUR_MS = 3600 * 1000;

/** Minutes and seconds for a live match's few minutes; hours, or days, for a tournament's
 * long show-up time or a correspondence match. */
export function showUpText(deadline) {
  const left = msUntil(deadline);
  if (Number.isNaN(left)) return "";
  if (left <= 0) return _("The time to come to the board has passed.");
  const within = left < HOUR_MS ? clockText(left) : spanText(left);
  return format(_("Be at the board within %(within)s."), { within });
}

export function startShowUpCountdowns() {
  countDown("[data-show-up-by]", (element) => {
    element.textContent = showUpText(element.dataset.showUpBy);
  });
}
