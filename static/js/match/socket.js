// The WebSocket to /ws/matches/<id>/ (lib/socket.js keeps it open): frames in, actions and
// chat out. The server sends the whole match on every connection, so nothing is replayed
// after a reconnect. A socket closed because its log-in session ended loads the page
// again, as whoever this browser now is.

import { NOT_FOUND, SESSION_ENDED, keepConnected } from "../lib/socket.js";

/** Connect and keep connected; `onFrame` gets every frame. Returns `send(message)` → sent? */
export function openSocket(store, onFrame) {
  return keepConnected(store.get().config.wsPath, {
    open: () => store.update({ connection: "open" }),
    frame: onFrame,
    closed(code) {
      // An action in flight may never be answered: let the player try again.
      if (code === NOT_FOUND) {
        store.update({ connection: "refused", busy: false });
        return false;
      }
      if (code === SESSION_ENDED) {
        store.update({ connection: "ended", busy: false });
        location.reload();
        return false;
      }
      store.update({ connection: "retrying", busy: false });
      return true;
    },
  });
}
