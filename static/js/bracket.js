// Live bracket: the server says "changed" over /ws/tournaments/<id>/ and the bracket
// fragment is fetched again. Bursts of changes are folded into one fetch; the connection
// comes back by itself with a growing pause.
(function () {
  "use strict";
  const root = document.querySelector("[data-bracket-live]");
  if (!root) return;
  let timer = null;
  let pause = 1000;

  function refresh() {
    timer = null;
    fetch(root.dataset.fragment, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        root.innerHTML = html;
        root.dataset.refreshed = String(Number(root.dataset.refreshed || 0) + 1);
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
      pause = 1000;
      root.dataset.live = "on";
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "changed") soon();
    });
    socket.addEventListener("close", (event) => {
      root.dataset.live = "off";
      if (event.code === 4404) return;
      setTimeout(connect, pause);
      pause = Math.min(pause * 2, 30000);
      soon();
    });
  }

  connect();
})();
