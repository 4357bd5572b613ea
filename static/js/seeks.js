// The play lobby's open seeks, live: /ws/lobby/ says a seek was posted, taken or cancelled,
// and the list is fetched again (each viewer may take different seeks, so the server draws
// it). Bursts of changes are folded into one fetch; the connection comes back by itself,
// with a growing pause, and fetches what it missed.

const root = document.querySelector("[data-seeks-live]");
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
    if (root.dataset.live === "off") soon();
    pause = 1000;
    root.dataset.live = "on";
  });
  socket.addEventListener("message", (event) => {
    if (JSON.parse(event.data).type === "seek") soon();
  });
  socket.addEventListener("close", () => {
    root.dataset.live = "off";
    setTimeout(connect, pause);
    pause = Math.min(pause * 2, 30000);
  });
}

if (root) connect();
