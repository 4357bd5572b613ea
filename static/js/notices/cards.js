// The cards in the corner of every page, one per notice shown (newest on top), each with
// its show-up countdown, one click to the page it names, and × to dismiss it.

import { _ } from "../lib/i18n.js";
import { changed } from "../lib/store.js";
import { showUpText } from "./show-up.js";

// Read when a card is drawn, so the words are those of the page's catalog.
const ACTION = {
  challenge: () => _("Answer"),
  challenge_accepted: () => _("Go to the board"),
  seek_taken: () => _("Go to the board"),
  match_ready: () => _("Go to the board"),
  turn: () => _("Go to the board"),
  tournament_started: () => _("See the bracket"),
  eliminated: () => _("See the bracket"),
  prize: () => _("See it"),
  dispute_decided: () => _("Read the decision"),
};

/** Draw the store's cards; `dismiss(id)` is called when a card's × is pressed. */
export function startCards(store, dismiss) {
  const stack = document.createElement("div");
  stack.className = "notice-stack";
  stack.setAttribute("aria-live", "polite");
  stack.dataset.testid = "notice-stack";
  // A page may give the cards a place in its flow (the board's, so they never cover the
  // names and clocks); elsewhere they float in the corner.
  const slot = document.querySelector("[data-notice-slot]");
  if (slot) stack.classList.add("in-flow");
  (slot ?? document.body).append(stack);
  let shown = new Map();
  store.subscribe((state, previous) => {
    if (!changed(state, previous, "cards")) return;
    const next = new Map(state.cards.map((notice) => [notice, shown.get(notice) ?? card(notice, dismiss)]));
    stack.replaceChildren(...next.values());
    shown = next;
  });
}

function card(notice, dismiss) {
  const element = document.createElement("div");
  element.className = `notice-card notice-${notice.kind}`;
  element.dataset.testid = "notice-card";
  element.dataset.kind = notice.kind;
  element.dataset.notice = String(notice.id);
  const text = document.createElement("p");
  text.className = "notice-text";
  text.textContent = notice.text;
  element.append(text);
  if (notice.data && notice.data.show_up_by) {
    const clock = document.createElement("p");
    clock.className = "notice-countdown";
    clock.dataset.showUpBy = notice.data.show_up_by;
    clock.textContent = showUpText(notice.data.show_up_by);
    element.append(clock);
  }
  const actions = document.createElement("div");
  actions.className = "notice-actions";
  if (notice.url) {
    const link = document.createElement("a");
    link.className = "btn btn-primary btn-small";
    link.href = notice.url;
    link.dataset.testid = "notice-open";
    link.textContent = ACTION[notice.kind]?.() ?? _("Open");
    actions.append(link);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "notice-close";
  close.setAttribute("aria-label", _("Dismiss"));
  close.textContent = "×";
  close.addEventListener("click", () => dismiss(notice.id));
  actions.append(close);
  element.append(actions);
  return element;
}
