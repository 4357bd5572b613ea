// The WebSocket to /ws/matches/<id>/: frames in, actions and chat out.
//
// A dropped connection is opened again, waiting longer after each failure (up to 15 s,
// with a little jitter so a server restart is not met by every board at once). The server
// sends the whole match on every connection, so nothing is replayed after a reconnect.
// A socket closed because its log-in session ended (logged out elsewhere, the password
// changed, the account suspended) loads the page again, as whoever this browser now is.

const NOT_FOUND = 4404;
const SESSION_ENDED = 4401;
const LONGEST_WAIT_MS = 15000;

/** Connect and keep connected; `onFrame` gets every frame. Returns `send(message)` → sent? */
export function openSocket(store, onFrame) {
  const { wsPath } = store.get().config;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let socket = null;
  let failures = 0;

  function connect() {
    socket = new WebSocket(`${scheme}://${location.host}${wsPath}`);
    socket.addEventListener("open", () => {
      failures = 0;
      store.update({ connection: "open" });
    });
    socket.addEventListener("message", (event) => {
      const frame = parsed(event.data);
      if (frame) onFrame(frame);
    });
    socket.addEventListener("close", (event) => {
      socket = null;
      // An action in flight may never be answered: let the player try again.
      if (event.code === NOT_FOUND) {
        store.update({ connection: "refused", busy: false });
        return;
      }
      if (event.code === SESSION_ENDED) {
        store.update({ connection: "ended", busy: false });
        location.reload();
        return;
      }
      store.update({ connection: "retrying", busy: false });
      const wait = Math.min(LONGEST_WAIT_MS, 1000 * 2 ** failures) + Math.random() * 400;
      failures += 1;
      setTimeout(connect, wait);
    });
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  connect();
  return send;
}

function parsed(data) {
  try {
    return JSON.parse(data);
  } catch (error) {
    return null;
  }
}
