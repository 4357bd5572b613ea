// A swing's CPP countdown: the element naming the next level's time (data-level-at, an
// ISO date-time on the server's clock) says how long is left. Looked up on every tick, as
// the live fragment is fetched again whenever the swing changes.

import { _, format } from "../lib/i18n.js";
import { countDown, msUntil, spanText } from "../lib/countdown.js";

countDown("[data-level-at]", (element) => {
  const left = msUntil(element.dataset.levelAt);
  element.textContent = left > 0 ? format(_("in %(span)s"), { span: spanText(left) }) : _("any moment now");
});
