// Notices: the toast under the board (an action the server refused) and the banner shown
// while the connection is down.

import { _ } from "../lib/i18n.js";
import { changed } from "../lib/store.js";

const SHOWN_MS = 9000;

/** The patch that shows an error; it stays until it times out or the player acts again. */
export function errorToast(text) {
  return { toast: { text } };
}

export function withoutError(state) {
  return state.toast ? { toast: null } : null;
}

export function startNotices(store, page) {
  const toast = page.querySelector('[data-testid="error"]');
  const banner = document.getElementById("connection-banner");
  const bannerText = document.getElementById("connection-text");
  let hideTimer = null;
  store.subscribe((state, previous) => {
    if (changed(state, previous, "toast")) {
      showToast(toast, state.toast);
      clearTimeout(hideTimer);
      const shown = state.toast;
      // Each toast object is shown once: a newer one replaces it, and only it times out.
      if (shown) hideTimer = setTimeout(() => store.update((now) => (now.toast === shown ? { toast: null } : null)), SHOWN_MS);
    }
    if (changed(state, previous, "connection")) {
      page.dataset.connection = state.connection;
      showConnection(banner, bannerText, state.connection);
    }
  });
}

function showToast(element, toast) {
  element.hidden = !toast;
  if (toast) element.textContent = toast.text;
}

function showConnection(banner, text, connection) {
  banner.hidden = !["retrying", "refused", "ended"].includes(connection);
  banner.querySelector(".spinner").hidden = connection === "refused";
  text.textContent = {
    refused: _("This match is private or does not exist."),
    ended: _("Your session ended: loading the page again…"),
  }[connection] ?? _("Reconnecting…");
}
