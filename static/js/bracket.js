// Live bracket: the server says "changed" over /ws/tournaments/<id>/ and the bracket
// fragment is fetched again.
//
// Drop lines: pointing at a slot, or tabbing to it, lights the slots its players come from
// (its data-from: "winner:<flight>:<round>:<position>" or "loser:...") and those its winner
// and its loser go to (the slots whose data-from names its data-key). The listeners sit on
// the live root, so they outlive every fetched fragment.
import { followLive } from "./live-fragment.js";

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

const root = document.querySelector("[data-bracket-live]");
if (root) {
  followLive(root, "changed");
  followDropLines(root);
}
