// Tell a player, live, that one of their disputes was decided (WebSocket /ws/disputes/).

const banner = document.querySelector("[data-dispute-live]");

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/disputes/`);
  socket.addEventListener("message", (message) => {
    const event = JSON.parse(message.data);
    if (event.type !== "decided") return;
    banner.innerHTML = "";
    const text = document.createElement("span");
    text.textContent = `Dispute #${event.dispute} about match #${event.match} is decided: ${event.decision}.`;
    const link = document.createElement("a");
    link.href = `/disputes/${event.dispute}/`;
    link.className = "btn btn-felt btn-small";
    link.textContent = "Read the decision";
    banner.append(text, link);
    banner.hidden = false;
  });
  socket.addEventListener("close", (closed) => {
    if (closed.code !== 4401) setTimeout(connect, 3000);
  });
}

if (banner && document.querySelector("[data-testid=nav-user]")) connect();
