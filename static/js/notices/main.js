// A logged-in player's notices on every page, over /ws/me/: the bell's unread count
// (bell.js), a card for each new notice (cards.js, with the show-up countdown of
// show-up.js), the notifications page's list (list.js), the tab title, and a short sound
// when a match waits for them (sound.js). One store (store.js) holds what they draw.
//
// On connecting, the socket is told which page this tab shows: the notices pointing to it
// are read, and matches still waiting for the player come back as cards, as one may have
// arrived while the page was loading. Dismissing a card reads its notice.

import { SESSION_ENDED, keepConnected } from "../lib/socket.js";
import { createStore } from "../lib/store.js";
import { startBell } from "./bell.js";
import { startCards } from "./cards.js";
import { startList } from "./list.js";
import { startShowUpCountdowns } from "./show-up.js";
import { startSound } from "./sound.js";
import { emptyState, withNotice, withoutCard, withPage } from "./store.js";

const bell = document.querySelector("[data-notices]");
if (bell) start(bell);
startShowUpCountdowns();

function start(bell) {
  const count = bell.querySelector("[data-bell-count]");
  const store = createStore(emptyState(Number(count.textContent) || 0));
  const frames = {
    notice: (frame) => store.update((state) => withNotice(state, frame.notice, frame.unread)),
    page: (frame) => store.update((state) => withPage(state, frame.waiting, frame.unread)),
    unread: (frame) => store.update({ unread: frame.unread }),
    // An analysis page (static/js/analysis/) follows its progress from here.
    analysis: (frame) => document.dispatchEvent(new CustomEvent("crawford:analysis", { detail: frame.analysis })),
  };
  const send = keepConnected("/ws/me/", {
    open: (sendNow) => sendNow({ type: "page", url: location.pathname }),
    frame: (frame) => frames[frame.type]?.(frame),
    closed(code) {
      store.update({ live: false });
      return code !== SESSION_ENDED;
    },
  });
  startBell(store, bell);
  startCards(store, (id) => {
    store.update((state) => withoutCard(state, id));
    send({ type: "read", ids: [id] });
  });
  startList(store);
  startSound(store, bell);
}
