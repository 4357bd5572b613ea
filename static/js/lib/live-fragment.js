// A page fragment kept live: a socket (root's data-ws) says something changed, and the
// fragment (data-fragment) is fetched again; bursts of changes are folded into one fetch.
// The connection comes back by itself (lib/socket.js) and fetches what it missed; a socket
// closed with NOT_FOUND (nothing to follow) is not opened again. data-live says "on" or
// "off" and data-refreshed counts the fetches, for the page and its tests.
// Options: url() gives the address to fetch (data-fragment by default); apply(frame) may
// bring the page up to date from the frame itself and say so (true), and then nothing is
// fetched; refreshed() runs after each fetched fragment is in place.

import { NOT_FOUND, keepConnected } from "./socket.js";

export function followLive(root, changedType, options = {}) {
  const url = options.url ?? (() => root.dataset.fragment);
  const apply = options.apply ?? (() => false);
  let timer = null;

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

  keepConnected(root.dataset.ws, {
    open() {
      if (root.dataset.live === "off") soon();
      root.dataset.live = "on";
    },
    frame(frame) {
      if (frame.type === changedType && !apply(frame)) soon();
    },
    closed(code) {
      root.dataset.live = "off";
      return code !== NOT_FOUND;
    },
  });
}
