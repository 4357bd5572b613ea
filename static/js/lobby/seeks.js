// The play lobby's open seeks, live, without asking the server on each change: /ws/lobby/
// says a seek was taken or cancelled (its row goes) or posted (its row comes: built once on
// the server for every viewer, with its take rules from lobby/terms.py). This page decides
// its own viewer's part from what it was served (#seek-viewer: id, rating, balances and
// their words, players blocked either way): Cancel on their own seek, Play when every rule
// holds, otherwise the first failing rule's words; the server checks again on Play.
// The list is fetched again (lib/live-fragment.js) when the socket comes back, as a change may
// have been missed, and when a seek goes from a list that had more open seeks than it
// showed (data-complete="no"), as the next older one may belong in it now.
// A posted seek's row comes in the site's default language (its frame's `language`); a page
// in another language fetches its list instead, in its own.
// data-updated counts the frames applied, for the page and its tests.
import { language } from "../lib/i18n.js";
import { followLive } from "../lib/live-fragment.js";

function holds(rule, viewer) {
  if (rule.rule === "not_own") return rule.creator !== viewer.id;
  if (rule.rule === "rating") {
    return (
      (rule.low === null || viewer.rating >= rule.low) &&
      (rule.high === null || viewer.rating <= rule.high)
    );
  }
  if (rule.rule === "balance") return (viewer.balances[rule.currency] ?? 0) >= rule.cents;
  return false; // a check this page does not know: refused with its words, the server decides
}

function refusalFor(frame, viewer) {
  if (viewer.id === null) return viewer.refusal;
  const failed = frame.rules.find((rule) => !holds(rule, viewer));
  if (!failed) return null;
  return failed.refusal
    .replaceAll("{rating}", () => viewer.rating_words)
    .replaceAll("{balance}", () => viewer.balance_words[failed.currency] ?? "0.00");
}

function rowFor(frame, viewer, csrf) {
  const holder = document.createElement("template");
  holder.innerHTML = frame.row;
  const row = holder.content.firstElementChild;
  const own = viewer.id === frame.creator;
  const why = own ? null : refusalFor(frame, viewer);
  const ending = own ? "own" : why === null ? "take" : "refused";
  const actions = row.querySelector(".row-actions");
  const chosen = actions.querySelector(`template[data-case="${ending}"]`).content.cloneNode(true);
  for (const form of chosen.querySelectorAll("form")) {
    const token = document.createElement("input");
    token.type = "hidden";
    token.name = "csrfmiddlewaretoken";
    token.value = csrf;
    form.prepend(token);
  }
  const words = chosen.querySelector(".seek-why-not");
  if (words) words.textContent = why;
  actions.replaceChildren(chosen);
  row.classList.toggle("seek-own", own);
  return row;
}

function redraw(root, list) {
  const rows = [...list.children];
  rows.forEach((row, index) => {
    row.hidden = index >= Number(list.dataset.shown);
  });
  list.hidden = rows.length === 0;
  root.querySelector("[data-testid=no-seeks]").hidden = rows.length > 0;
}

// True when the frame is applied; false asks live-fragment.js to fetch the list.
function apply(root, frame) {
  const list = root.querySelector("[data-testid=seeks]");
  const viewerData = root.querySelector("#seek-viewer");
  if (!list || !viewerData) return false;
  const viewer = JSON.parse(viewerData.textContent);
  const present = list.querySelector(`[data-seek="${frame.seek}"]`);
  if (frame.event === "posted") {
    if (typeof frame.row !== "string" || !Array.isArray(frame.rules)) return false;
    // The row is written in the site's default language: a page in another fetches its list.
    if (frame.language !== language()) return false;
    if (present || (viewer.blocked ?? []).includes(frame.creator)) return true;
    list.prepend(rowFor(frame, viewer, list.dataset.csrf ?? ""));
  } else {
    if (!present) return true;
    present.remove();
    const short = list.children.length < Number(list.dataset.shown);
    if (list.dataset.complete !== "yes" && short) return false;
  }
  redraw(root, list);
  root.dataset.updated = String(Number(root.dataset.updated || 0) + 1);
  return true;
}

const root = document.querySelector("[data-seeks-live]");
if (root) followLive(root, "seek", { apply: (frame) => apply(root, frame) });
