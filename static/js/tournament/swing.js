// A swing's CPP countdown: the element naming the next level's time (data-level-at, an
// ISO date-time on the server's clock) says how long is left. Looked up on every tick, as
// the live fragment is fetched again whenever the swing changes.

import { countDown, msUntil, spanText } from "../lib/countdown.js";

countDown("[data-level-at]", (element) => {
  const left = msUntil(element.dataset.levelAt);
  element.textContent = left > 0 ? `in ${spanText(left)}` : "any moment now";
});
