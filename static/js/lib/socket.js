// The one WebSocket of a page part, kept open: a dropped connection is opened again,
// waiting longer after each failure (1 s, 2 s, 4 s ... up to 15 s, with a little jitter so
// a server restart is not met by every page at once). Frames arrive parsed; one that is
// not JSON is dropped.
//
// `closed(code)` says whether to connect again; without it, every close but NOT_FOUND
// does. The site's sockets close with NOT_FOUND when there is nothing to follow (a private
// match, a tournament gone) and with SESSION_ENDED when the player's log-in session ended
// (logged out elsewhere, the password changed, the account suspended).

export const NOT_FOUND = 4404;
export const SESSION_ENDED = 4401;
const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 15000;
const JITTER_MS = 400;

/**
 * Connect to `path` (/ws/...) and keep connected. Handlers, all optional:
 * open(send) on each connection, frame(frame) for every frame, closed(code) -> connect again?
 * Returns `send(message)` -> whether it went (false while the socket is down).
 */
export function keepConnected(path, { open, frame, closed } = {}) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let socket = null;
  let failures = 0;

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  function connect() {
    const current = new WebSocket(`${scheme}://${location.host}${path}`);
    socket = current;
    current.addEventListener("open", () => {
      failures = 0;
      open?.(send);
    });
    current.addEventListener("message", (event) => {
      const parsed = parse(event.data);
      if (parsed) frame?.(parsed);
    });
    current.addEventListener("close", (event) => {
      if (socket === current) socket = null;
      const again = closed ? closed(event.code) : event.code !== NOT_FOUND;
      if (!again) return;
      const wait = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** failures) + Math.random() * JITTER_MS;
      failures += 1;
      setTimeout(connect, wait);
    });
  }

  connect();
  return send;
}

function parse(data) {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}
