// The notifications page's list: a notice told while the page is open goes on top, unread.

import { _ } from "../lib/i18n.js";
import { changed } from "../lib/store.js";

export function startList(store) {
  store.subscribe((state, previous) => {
    if (previous !== null && changed(state, previous, "told") && state.told) listed(state.told);
  });
}

function listed(notice) {
  const list = document.querySelector("[data-notice-list]");
  if (!list) return;
  list.querySelector(`[data-notice="${notice.id}"]`)?.remove();
  const row = document.createElement("li");
  row.className = "notice-row notice-unread";
  row.dataset.notice = String(notice.id);
  row.dataset.kind = notice.kind;
  const dot = document.createElement("span");
  dot.className = "notice-dot";
  const body = document.createElement("div");
  body.className = "notice-body";
  const text = document.createElement("p");
  text.className = "notice-text";
  text.textContent = notice.text;
  const when = document.createElement("p");
  when.className = "muted small";
  when.textContent = _("just now");
  body.append(text, when);
  row.append(dot, body);
  if (notice.url) {
    const link = document.createElement("a");
    link.className = "btn btn-small btn-primary";
    link.href = notice.url;
    link.textContent = _("Open");
    row.append(link);
  }
  list.prepend(row);
  list.hidden = false;
  document.querySelector("[data-notice-empty]")?.remove();
}
