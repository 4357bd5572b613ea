// The challenge form's opponent box: as the player types, the players whose username or
// display name starts with it (GET /api/opponents/?q=) fill the box's suggestion list, and a
// hidden live region says how many were found. A username typed whole is sent as it is.
import { format, ngettext, _ } from "../lib/i18n.js";

const WAIT_MS = 200;

function setUp(input) {
  const list = document.getElementById(input.getAttribute("list"));
  const found = document.getElementById("opponent-found");
  if (!list) return;
  let timer = null;
  let pending = null;
  let asked = "";

  async function ask(typed) {
    pending?.abort();
    pending = new AbortController();
    const url = `${input.dataset.opponentSearch}?q=${encodeURIComponent(typed)}`;
    let players;
    try {
      const answer = await fetch(url, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        signal: pending.signal,
      });
      if (!answer.ok) return;
      players = await answer.json();
    } catch (error) {
      if (error.name === "AbortError") return;
      throw error;
    }
    list.replaceChildren(
      ...players.map((player) => {
        const option = document.createElement("option");
        option.value = player.username;
        option.label = `${player.display_name} (${player.rating})`;
        option.textContent = option.label;
        return option;
      }),
    );
    if (found) {
      const count = players.length;
      found.textContent = count
        ? format(ngettext("%(count)s player found", "%(count)s players found", count), { count })
        : format(_("Nobody's name starts with %(typed)s"), { typed });
    }
  }

  input.addEventListener("input", () => {
    const typed = input.value.trim();
    clearTimeout(timer);
    if (!typed) {
      list.replaceChildren();
      asked = "";
      return;
    }
    if (typed === asked) return;
    timer = setTimeout(() => {
      asked = typed;
      ask(typed);
    }, WAIT_MS);
  });
}

for (const input of document.querySelectorAll("input[data-opponent-search]")) setUp(input);
