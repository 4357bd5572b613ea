// A page fragment kept live: a socket (root's data-ws) says something changed, and the
// fragment (data-fragment) is fetched again; bursts of changes are folded into one fetch.
// The connection comes back by itself with a growing pause and fetches what it missed;
// a socket closed with 4404 (nothing to follow) is not opened again. data-live says
// "on" or "off" and data-refreshed counts the fetches, for the page and its tests.
// Options: url() gives the address to fetch (data-fragment by default); apply(frame) may
// bring the page up to date from the frame itself and say so (true), and then nothing is
// fetched; refreshed() runs after each fetched fragment is in place.

export function followLive(root, changedType, options = {}) {
  const url = options.url ?? (() => root.dataset.fragment);
  const apply = options.apply ?? (() => false);
  let timer = null;
  let pause = 1000;

  function refresh() {
    timer = null;
    fetch(url(), { credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        root.innerHTML = html;
        root.dataset.refreshed = String(Number(root.dataset.refreshed || 0) + 1);
        options.refreshed?.();
      })
      .catch(() => {});
  }

  function soon() {
    if (timer === null) timer = setTimeout(refresh, 250);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + root.dataset.ws);
    socket.addEventListener("open", () => {
      if (root.dataset.live === "off") soon();
      pause = 1000;
      root.dataset.live = "on";
    });
    socket.addEventListener("message", (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type === changedType && !apply(frame)) soon();
    });
    socket.addEventListener("close", (event) => {
      root.dataset.live = "off";
      if (event.code === 4404) return;
      setTimeout(connect, pause);
      pause = Math.min(pause * 2, 30000);
    });
  }

  connect();
}
