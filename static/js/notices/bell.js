// The bell in the navigation bar: the unread count (hidden at none), whether the socket is
// live (data-live, for the page and its tests), and the tab's title: "(2) Lobby", with
// "Your turn · " in front while a turn waits.

import { _, format } from "../lib/i18n.js";
import { changed } from "../lib/store.js";

export function startBell(store, bell) {
  const count = bell.querySelector("[data-bell-count]");
  const plainTitle = document.title;
  store.subscribe((state, previous) => {
    if (changed(state, previous, "unread")) {
      count.textContent = String(state.unread);
      count.hidden = state.unread === 0;
      bell.setAttribute("aria-label", format(_("Notifications: %(unread)s unread"), state));
    }
    if (changed(state, previous, "unread", "turnWaiting")) {
      const turn = state.turnWaiting ? `${_("Your turn")} · ` : "";
      document.title = `${turn}${state.unread ? `(${state.unread}) ` : ""}${plainTitle}`;
    }
    if (changed(state, previous, "live")) bell.dataset.live = state.live ? "on" : "off";
  });
}
