// A logged-in player's notices on every page, over /ws/me/: the bell's unread count, a card
// for each new notice (with the show-up countdown and one click to the page it names), the
// tab title, and a short sound when a match waits for them (unless turned off in the
// preferences). On connecting, the socket is told which page this tab shows: the notices
// pointing to it are read, and matches still waiting for the player come back as cards, as
// one may have arrived while the page was loading. Dismissing a card reads its notice.

const bell = document.querySelector("[data-notices]");

// Notices that mean "a match waits for you now": they ring, and a turn shows in the title.
const RINGING = new Set(["turn", "match_ready", "challenge_accepted", "seek_taken"]);
const ACTION = {
  challenge: "Answer",
  challenge_accepted: "Go to the board",
  seek_taken: "Go to the board",
  match_ready: "Go to the board",
  turn: "Go to the board",
  tournament_started: "See the bracket",
  eliminated: "See the bracket",
  prize: "See it",
  dispute_decided: "Read the decision",
};
const MAX_CARDS = 3;

// Minutes and seconds for a live match's few minutes; hours, or days, for a tournament's
// long show-up time or a correspondence match.
function countdownText(deadline) {
  const left = Math.round((Date.parse(deadline) - Date.now()) / 1000);
  if (Number.isNaN(left)) return "";
  if (left <= 0) return "The time to come to the board has passed.";
  let within;
  if (left < 3600) {
    within = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  } else if (left < 2 * 86400) {
    within = `${Math.floor(left / 3600)} h ${String(Math.floor((left % 3600) / 60)).padStart(2, "0")} min`;
  } else {
    within = `${Math.floor(left / 86400)} days`;
  }
  return `Be at the board within ${within}.`;
}

function tickCountdowns() {
  for (const element of document.querySelectorAll("[data-show-up-by]")) {
    element.textContent = countdownText(element.dataset.showUpBy);
  }
}

function start() {
  const count = bell.querySelector("[data-bell-count]");
  const plainTitle = document.title;
  const stack = document.createElement("div");
  stack.className = "notice-stack";
  stack.setAttribute("aria-live", "polite");
  stack.dataset.testid = "notice-stack";
  document.body.append(stack);
  let unread = Number(count.textContent) || 0;
  let turnWaiting = false;
  let pause = 1000;
  let audio = null;
  let socket = null;

  function showTitle() {
    const turn = turnWaiting ? "Your turn · " : "";
    document.title = `${turn}${unread ? `(${unread}) ` : ""}${plainTitle}`;
  }

  function showCount(value) {
    unread = value;
    count.textContent = String(value);
    count.hidden = value === 0;
    bell.setAttribute("aria-label", `Notifications: ${value} unread`);
    showTitle();
  }

  // Browsers let a page make sound only after a click or key on it: the context is made
  // then, and a notice before that rings silently.
  function unlockSound() {
    if (audio === null && window.AudioContext) audio = new AudioContext();
  }
  document.addEventListener("pointerdown", unlockSound, { once: true });
  document.addEventListener("keydown", unlockSound, { once: true });

  function ring() {
    if (bell.dataset.sound !== "on") return;
    bell.dataset.rings = String(Number(bell.dataset.rings || 0) + 1);
    if (audio === null) return;
    const now = audio.currentTime;
    for (const [offset, pitch] of [[0, 660], [0.18, 880]]) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = pitch;
      volume.gain.setValueAtTime(0.0001, now + offset);
      volume.gain.exponentialRampToValueAtTime(0.18, now + offset + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.3);
      tone.connect(volume).connect(audio.destination);
      tone.start(now + offset);
      tone.stop(now + offset + 0.32);
    }
  }

  function dismiss(card) {
    card.remove();
    if (socket !== null && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "read", ids: [Number(card.dataset.notice)] }));
    }
    if (card.dataset.kind === "turn") {
      turnWaiting = false;
      showTitle();
    }
  }

  function card(notice) {
    const element = document.createElement("div");
    element.className = `notice-card notice-${notice.kind}`;
    element.dataset.testid = "notice-card";
    element.dataset.kind = notice.kind;
    element.dataset.notice = String(notice.id);
    const text = document.createElement("p");
    text.className = "notice-text";
    text.textContent = notice.text;
    element.append(text);
    if (notice.data && notice.data.show_up_by) {
      const clock = document.createElement("p");
      clock.className = "notice-countdown";
      clock.dataset.showUpBy = notice.data.show_up_by;
      clock.textContent = countdownText(notice.data.show_up_by);
      element.append(clock);
    }
    const actions = document.createElement("div");
    actions.className = "notice-actions";
    if (notice.url) {
      const link = document.createElement("a");
      link.className = "btn btn-primary btn-small";
      link.href = notice.url;
      link.dataset.testid = "notice-open";
      link.textContent = ACTION[notice.kind] || "Open";
      actions.append(link);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "notice-close";
    close.setAttribute("aria-label", "Dismiss");
    close.textContent = "×";
    close.addEventListener("click", () => dismiss(element));
    actions.append(close);
    element.append(actions);
    return element;
  }

  function listed(notice) {
    const list = document.querySelector("[data-notice-list]");
    if (!list) return;
    list.querySelector(`[data-notice="${notice.id}"]`)?.remove();
    const row = document.createElement("li");
    row.className = "notice-row notice-unread";
    row.dataset.notice = String(notice.id);
    row.dataset.kind = notice.kind;
    const dot = document.createElement("span");
    dot.className = "notice-dot";
    const body = document.createElement("div");
    body.className = "notice-body";
    const text = document.createElement("p");
    text.className = "notice-text";
    text.textContent = notice.text;
    const when = document.createElement("p");
    when.className = "muted small";
    when.textContent = "just now";
    body.append(text, when);
    row.append(dot, body);
    if (notice.url) {
      const link = document.createElement("a");
      link.className = "btn btn-small btn-primary";
      link.href = notice.url;
      link.textContent = "Open";
      row.append(link);
    }
    list.prepend(row);
    list.hidden = false;
    document.querySelector("[data-notice-empty]")?.remove();
  }

  function shown(notice) {
    stack.querySelector(`[data-notice="${notice.id}"]`)?.remove();
    stack.prepend(card(notice));
    while (stack.children.length > MAX_CARDS) stack.lastElementChild.remove();
  }

  function told(notice) {
    shown(notice);
    listed(notice);
    if (RINGING.has(notice.kind)) ring();
    if (notice.kind === "turn") {
      turnWaiting = true;
      showTitle();
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const current = new WebSocket(`${scheme}${location.host}/ws/me/`);
    socket = current;
    current.addEventListener("open", () => {
      pause = 1000;
      current.send(JSON.stringify({ type: "page", url: location.pathname }));
    });
    current.addEventListener("message", (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "notice") {
        told(frame.notice);
        showCount(frame.unread);
      } else if (frame.type === "page") {
        frame.waiting.slice().reverse().forEach(shown);
        showCount(frame.unread);
        bell.dataset.live = "on";
      } else if (frame.type === "unread") {
        showCount(frame.unread);
      } else if (frame.type === "analysis") {
        // An analysis page (static/js/analysis.js) follows its progress from here.
        document.dispatchEvent(new CustomEvent("crawford:analysis", { detail: frame.analysis }));
      }
    });
    current.addEventListener("close", (closed) => {
      socket = null;
      bell.dataset.live = "off";
      if (closed.code === 4401) return;
      setTimeout(connect, pause);
      pause = Math.min(pause * 2, 30000);
    });
  }

  showTitle();
  connect();
}

if (bell) start();
tickCountdowns();
setInterval(tickCountdowns, 1000);
