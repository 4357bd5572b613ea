// The action panel under the board: what the viewer may do now, and sending it.
//
// Each button shows exactly when the server says the viewer may do it (`may_roll`,
// `may_double`, ... in the snapshot), so the cube and turn rules live on the server only.
// Confirm and Undo belong to the turn being built on the board. While an action is on its
// way (`busy`) the buttons wait for the answer, or for ten seconds if none comes.

import { _ } from "../lib/i18n.js";
import { changed } from "../lib/store.js";
import { errorToast, withoutError } from "./notices.js";
import { lastPlayText } from "./move-list.js";
import { isMoving, moveGuidance, undo } from "./turn.js";

const ANSWER_WAIT_MS = 10000;

/** Start the panel; returns `askWhy(attempt)` for the board (see `askWhy` below). */
export function startActionPanel(store, page, send) {
  const act = (type, extra = {}) => sendAction(store, send, type, extra);
  wireButtons(store, page, act);
  wireResignMenu(store, page, act);
  let busyTimer = null;
  store.subscribe((state, previous) => {
    if (!state.snapshot) return;
    render(page, state);
    // A menu left open while resigning was not possible must not pop up when it is again.
    if (state.resignOpen && !state.snapshot.may_resign) store.update({ resignOpen: false });
    if (changed(state, previous, "busy")) {
      clearTimeout(busyTimer);
      if (state.busy) busyTimer = setTimeout(() => store.update({ busy: false, asking: null }), ANSWER_WAIT_MS);
    }
  });
  return (attempt) => askWhy(store, send, attempt);
}

/**
 * Send a play the board already knows is illegal, only to hear which rule it breaks: sent
 * with `check: true`, the server checks it as it checks any play and answers with an error
 * frame naming the rule (the sentence the REST API gives), or an ack that it is legal;
 * nothing is ever applied. Without a connection the board says what it can by itself.
 */
function askWhy(store, send, { play, fallback }) {
  const state = store.get();
  if (state.busy) return;
  const seq = nextSeq(state);
  if (!send({ type: "play", seq, play, check: true })) {
    store.update({ refusal: fallback });
    return;
  }
  store.update({ busy: true, asking: seq, sentSeq: seq, refusal: null, hint: "" });
}

/** How an error frame changes the store: a refusal asked for goes on the board, others in the toast. */
export function withError(state, frame) {
  const message = frame.message || _("That did not work");
  if (state.asking !== null && frame.seq === state.asking) return { busy: false, asking: null, refusal: message };
  return { busy: false, asking: null, ...errorToast(message) };
}

/** Send an action and wait for the answer; one at a time. */
function sendAction(store, send, type, extra) {
  const state = store.get();
  if (state.busy) return;
  const seq = nextSeq(state);
  if (!send({ type, seq, ...extra })) {
    store.update(errorToast(_("Not connected: reconnecting…")));
    return;
  }
  const cleared = type === "play" ? { hint: "" } : {};
  store.update({ ...withoutError(state), busy: true, sentSeq: seq, ...cleared });
}

/**
 * The next client sequence number: one past the last this player used in this match, as
 * the server's snapshot says (``your_last_seq``), or past the last this tab sent if its
 * answer has not come back yet. Another tab's or device's actions raise the server's.
 */
function nextSeq(state) {
  return Math.max(state.snapshot.your_last_seq || 0, state.sentSeq) + 1;
}

function wireButtons(store, page, act) {
  for (const button of page.querySelectorAll("[data-action]")) {
    button.addEventListener("click", () => act(button.dataset.action));
  }
  page.querySelector("#confirm").addEventListener("click", () => {
    const { turn } = store.get();
    const play = turn.plan && turn.plan.complete();
    if (play) act("play", { play: play.text });
  });
  page.querySelector("#undo").addEventListener("click", () => store.update(undo));
}

function wireResignMenu(store, page, act) {
  const menu = page.querySelector("#resign-menu");
  page.querySelector("#resign").addEventListener("click", (event) => {
    event.stopPropagation();
    store.update((state) => ({ resignOpen: !state.resignOpen }));
    if (store.get().resignOpen) menu.querySelector("[data-resign]").focus();
  });
  for (const button of menu.querySelectorAll("[data-resign]")) {
    button.addEventListener("click", () => {
      store.update({ resignOpen: false });
      act("resign", { resign: button.dataset.resign });
    });
  }
  const close = () => store.update((state) => (state.resignOpen ? { resignOpen: false } : null));
  document.addEventListener("click", (event) => {
    if (!menu.contains(event.target)) close();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
}

function render(page, state) {
  const { snapshot, busy } = state;
  // Nothing can be sent until the socket is open: a click then would only be lost.
  const waiting = busy || state.connection !== "open";
  page.classList.toggle("is-busy", busy);
  // Each button names its action in data-action; the snapshot's may_<action> says whether it shows.
  for (const button of page.querySelectorAll("[data-action]")) {
    button.hidden = !snapshot[`may_${button.dataset.action}`];
    button.disabled = waiting;
  }
  renderTurnButtons(page, state, waiting);
  const menu = page.querySelector("#resign-menu");
  menu.hidden = !snapshot.may_resign;
  const open = state.resignOpen && snapshot.may_resign;
  const options = page.querySelector("#resign-options");
  options.hidden = !open;
  if (open) keepInsideTheWindow(options);
  page.querySelector("#resign").setAttribute("aria-expanded", String(open));
  page.querySelector("#resign").disabled = waiting;
  page.querySelector("#hint").textContent = state.hint || guidance(state);
}

/** The menu opens leftwards from its button; where that would pass the window's left edge
 * (the button wrapped to the left of a phone's screen) it opens rightwards instead. */
function keepInsideTheWindow(options) {
  options.classList.remove("opens-right");
  if (options.getBoundingClientRect().left < 0) options.classList.add("opens-right");
}

function renderTurnButtons(page, state, waiting) {
  const moving = isMoving(state);
  const { plan } = state.turn;
  const confirm = page.querySelector("#confirm");
  const undoButton = page.querySelector("#undo");
  confirm.hidden = !moving;
  undoButton.hidden = !moving;
  confirm.disabled = waiting || !moving || !plan.complete();
  undoButton.disabled = state.busy || !moving || plan.steps.length === 0;
}

/** What to tell the player when no message of the moment is waiting. */
function guidance(state) {
  if (state.connection === "connecting") return _("Connecting to the match…");
  return isMoving(state) ? moveGuidance(state) : lastPlayText(state);
}
