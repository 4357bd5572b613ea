// Live bracket: the server says "changed" over /ws/tournaments/<id>/. A frame that carries
// the changed matches' markup ("slots": {key: html}, rendered once on the server for every
// watcher) replaces those matches wherever the page shows them (the viewer's own path, an
// open round), in the page's language ("translated": {lang: {key: html}} beside them), and
// fetches nothing; any other change fetches the bracket fragment again, with the rounds
// this page has opened. data-updated counts the frames applied.
//
// A big field's page draws the current round and leaves the others as a heading with a
// button: pressing it fetches that round's column (its data-round-url).
//
// Drop lines: pointing at a slot, or tabbing to it, lights the slots its players come from
// (its data-from: "winner:<flight>:<round>:<position>" or "loser:...") and those its winner
// and its loser go to (the slots whose data-from names its data-key). The listeners sit on
// the live root, so they outlive every fetched fragment.
import { _, language } from "../lib/i18n.js";
import { followLive } from "../lib/live-fragment.js";
import { startBracketView } from "./bracket-view.js";

const LIT = ["slot-lit", "slot-feeds", "slot-winner-to", "slot-loser-to"];

function unlight(root) {
  for (const name of LIT) {
    for (const slot of root.querySelectorAll(`.${name}`)) slot.classList.remove(name);
  }
}

function light(root, slot) {
  unlight(root);
  if (!slot || !slot.dataset.key) return;
  slot.classList.add("slot-lit");
  for (const source of slot.dataset.from.split(" ").filter(Boolean)) {
    const key = source.slice(source.indexOf(":") + 1);
    root.querySelector(`[data-key="${key}"]`)?.classList.add("slot-feeds");
  }
  for (const which of ["winner", "loser"]) {
    for (const next of root.querySelectorAll(`[data-from~="${which}:${slot.dataset.key}"]`)) {
      next.classList.add(`slot-${which}-to`);
    }
  }
}

function followDropLines(root) {
  const slotOf = (event) => event.target.closest?.("[data-key]") ?? null;
  root.addEventListener("pointerover", (event) => light(root, slotOf(event)));
  root.addEventListener("pointerleave", () => unlight(root));
  root.addEventListener("focusin", (event) => light(root, slotOf(event)));
  root.addEventListener("focusout", (event) => {
    if (!root.contains(event.relatedTarget)) unlight(root);
  });
}

function openedRounds(root) {
  return [...root.querySelectorAll("[data-round]")]
    .filter((round) => round.dataset.opened === "yes")
    .map((round) => round.dataset.round);
}

function fragmentUrl(root) {
  const opened = openedRounds(root);
  const base = root.dataset.fragment;
  return opened.length ? `${base}?rounds=${encodeURIComponent(opened.join(","))}` : base;
}

function applySlots(root, frame) {
  if (!frame.slots) return false;
  const slots = frame.translated?.[language()] ?? frame.slots;
  const template = document.createElement("template");
  for (const [key, html] of Object.entries(slots)) {
    for (const slot of root.querySelectorAll(`.slot[data-key="${CSS.escape(key)}"]`)) {
      template.innerHTML = html;
      slot.replaceWith(template.content.firstElementChild);
    }
  }
  root.dataset.updated = String(Number(root.dataset.updated || 0) + 1);
  return true;
}

function followRoundButtons(root) {
  root.addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-show-round]");
    if (!button) return;
    const column = button.closest("[data-round-url]");
    const round = button.closest("[data-round]");
    button.disabled = true;
    button.textContent = _("Loading…");
    fetch(column.dataset.roundUrl, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        column.innerHTML = html;
        column.classList.remove("bracket-col-later");
        column.removeAttribute("data-round-url");
        round.dataset.opened = "yes";
      })
      .catch(() => {
        button.disabled = false;
        button.textContent = _("Could not load: try again");
      });
  });
}

/** The page's state badges (outside the live part) say what the fetched part says. */
function followState(root) {
  const marker = root.querySelector("[data-live-state]");
  if (!marker) return;
  for (const badge of document.querySelectorAll("[data-state-badge]")) {
    badge.className = `state state-${marker.dataset.liveState}`;
    badge.textContent = marker.textContent;
  }
}

function markOpened(root, opened) {
  for (const round of root.querySelectorAll("[data-round]")) {
    if (opened.includes(round.dataset.round)) round.dataset.opened = "yes";
  }
}

const root = document.querySelector("[data-bracket-live]");
if (root) {
  let opened = [];
  const arrange = startBracketView(root);
  followLive(root, "changed", {
    url: () => {
      opened = openedRounds(root);
      return fragmentUrl(root);
    },
    apply: (frame) => applySlots(root, frame),
    refreshed: () => {
      markOpened(root, opened);
      followState(root);
      arrange();
    },
  });
  followDropLines(root);
  followRoundButtons(root);
}
