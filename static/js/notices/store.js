// The state of the notices' store (lib/store.js), and how each frame of /ws/me/ changes it.

export const MAX_CARDS = 3;

/**
 * The state before the server's first word.
 *
 * unread       the bell's count of unread notices
 * turnWaiting  a "your turn" card is up and not dismissed: the tab's title says so
 * cards        the notices shown as cards, newest first (at most MAX_CARDS)
 * told         the last notice that arrived while the page was open (null: none yet), to
 *              ring for and to list on the notifications page
 * live         whether the socket is open and the server has answered this page's name
 */
export function emptyState(unread) {
  return { unread, turnWaiting: false, cards: [], told: null, live: false };
}

/** A new notice, with the unread count that came with it. */
export function withNotice(state, notice, unread) {
  return {
    unread,
    told: notice,
    cards: withCards(state.cards, [notice]),
    turnWaiting: state.turnWaiting || notice.kind === "turn",
  };
}

/** The server's answer to this page's name: matches still waiting for the player, as cards. */
export function withPage(state, waiting, unread) {
  return { unread, live: true, cards: withCards(state.cards, waiting) };
}

/** A card dismissed (its notice is read). */
export function withoutCard(state, id) {
  const card = state.cards.find((notice) => notice.id === id);
  if (!card) return null;
  return {
    cards: state.cards.filter((notice) => notice !== card),
    turnWaiting: card.kind === "turn" ? false : state.turnWaiting,
  };
}

/** `newest` first (a notice already shown moves up), then the others, at most MAX_CARDS. */
function withCards(cards, newest) {
  const ids = new Set(newest.map((notice) => notice.id));
  return [...newest, ...cards.filter((notice) => !ids.has(notice.id))].slice(0, MAX_CARDS);
}
