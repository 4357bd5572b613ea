// The move list: each game's rolls, plays and cube actions, as rows of
// GET /api/matches/<id>/moves/ ({seq, game, kind, player, seat, text}).
//
// The page fetches the whole list once when it opens. After that every change's state
// frame carries the rows it added (`moves: {since, rows}`: rows logged after the match's
// `last_seq` was `since`), and the list grows from those. Only when a frame starts after
// the last change the list knows of, because frames were missed (while reconnecting, say),
// does the page fetch the whole list again.
//
// The store's `moves`:
//   rows     the rows, by seq
//   seq      the match's last_seq the rows are complete up to; null before the first fetch
//   loading  a fetch is on its way; it will be complete up to `base` at least
//   pending  [{rows, seq}] pushed while the fetch is on its way, added when it is back
//   stale    rows are missing: fetch again

import { _, format, ngettext } from "../lib/i18n.js";
import { changed } from "../lib/store.js";
import { isViewer, rowName } from "./seats.js";
import { withGameResult } from "./between-games.js";

/** The move list after a state frame; `pushed` is the frame's `moves`, absent after connecting. */
export function withPushedRows(moves, snapshot, pushed) {
  const tip = moves.loading ? lastOf(moves.pending, moves.base) : moves.seq;
  // Pushed rows follow on from `since`; a frame without rows leaves nothing missing unless
  // the match moved on past what the list knows.
  const from = pushed ? pushed.since : snapshot.last_seq;
  if (tip === null || from > tip) return { ...moves, stale: true };
  if (!pushed) return moves;
  const seq = snapshot.last_seq;
  if (moves.loading) return { ...moves, pending: moves.pending.concat([{ rows: pushed.rows, seq }]) };
  return { ...moves, rows: merged(moves.rows, pushed.rows), seq: Math.max(moves.seq, seq) };
}

function lastOf(pending, base) {
  return pending.length ? pending[pending.length - 1].seq : base;
}

function merged(rows, more) {
  if (!more.length) return rows;
  const bySeq = new Map(rows.map((row) => [row.seq, row]));
  for (const row of more) bySeq.set(row.seq, row);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** Fetch the whole list, keeping what frames push meanwhile; again while rows are missing. */
export async function loadMoves(store) {
  if (store.get().moves.loading) return;
  store.update((state) => ({
    moves: { ...state.moves, loading: true, base: state.snapshot.last_seq, pending: [], stale: false },
  }));
  const rows = await fetchRows(store.get().config.apiBase);
  store.update((state) => ({ moves: settled(state.moves, rows) }));
  store.update(withGameResult);
  if (store.get().moves.stale) loadMoves(store);
}

async function fetchRows(apiBase) {
  try {
    const response = await fetch(`${apiBase}moves/`, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) return null;
    const data = await response.json();
    return Array.isArray(data) ? data : data.results || [];
  } catch (error) {
    return null;
  }
}

function settled(moves, rows) {
  const done = { ...moves, loading: false, pending: [] };
  // A failed fetch is tried again when the next frame finds rows missing.
  if (rows === null) return { ...done, stale: false };
  const pushed = moves.pending.flatMap((frame) => frame.rows);
  return { ...done, rows: merged(rows, pushed), seq: lastOf(moves.pending, moves.base) };
}

/** The last play of this game in words, for the line beside the buttons. */
export function lastPlayText(state) {
  const { snapshot } = state;
  const game = snapshot && snapshot.game;
  if (!game || snapshot.status !== "playing") return "";
  const rows = state.moves.rows;
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index];
    if (row.game !== game.number) return "";
    if (row.kind === "play" || row.kind === "pass") {
      const you = isViewer(state, row.seat);
      if (row.kind === "pass") return you ? _("You could not move") : format(_("%(name)s could not move"), { name: rowName(state, row) });
      const words = you ? _("You played %(play)s") : _("%(name)s played %(play)s");
      return format(words, { name: rowName(state, row), play: row.text });
    }
  }
  return "";
}

export function startMoveList(store, page) {
  const list = page.querySelector('[data-testid="move-list"]');
  store.subscribe((state, previous) => {
    if (!state.snapshot || !changed(state, previous, "moves")) return;
    if (previous && state.moves.rows === previous.moves.rows) return;
    render(list, state);
    showLinked(list);
  });
  window.addEventListener("hashchange", () => showLinked(list));
}

/**
 * The row an address like /matches/7/#move-41 points at (the dice check links each roll
 * so), marked and scrolled into the list's view. A roll has no row of its own: the play
 * or pass that follows it, the first row at or after its seq, stands for it.
 */
function showLinked(list) {
  const wanted = /^#move-(\d+)$/.exec(location.hash);
  if (!wanted) return;
  const rows = [...list.querySelectorAll("li[data-seq]")];
  const row = rows.find((item) => Number(item.dataset.seq) >= Number(wanted[1]));
  if (!row) return;
  for (const item of list.querySelectorAll(".is-linked")) item.classList.remove("is-linked");
  row.classList.add("is-linked");
  list.scrollTop = row.offsetTop - list.offsetTop - list.clientHeight / 2;
}

function render(list, state) {
  const rows = state.moves.rows;
  if (!rows.length) {
    const empty = document.createElement("p");
    empty.className = "empty-note";
    empty.textContent = _("No moves yet.");
    list.replaceChildren(empty);
    return;
  }
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren(...gameSections(state, rows));
  // Follow the newest move unless the reader has scrolled back to study an older one.
  if (nearBottom || list.dataset.filled !== "1") list.scrollTop = list.scrollHeight;
  list.dataset.filled = "1";
}

function gameSections(state, rows) {
  const nodes = [];
  let ol = null;
  let game;
  for (const row of rows) {
    if (!ol || row.game !== game) {
      game = row.game;
      const heading = document.createElement("h3");
      heading.textContent = row.game ? format(_("Game %(number)s"), { number: row.game }) : _("Match");
      ol = document.createElement("ol");
      nodes.push(heading, ol);
    }
    ol.appendChild(rowItem(state, row));
  }
  return nodes;
}

function rowItem(state, row) {
  const li = document.createElement("li");
  li.className = `kind-${row.kind}`;
  li.dataset.seq = row.seq;
  const mover = document.createElement("span");
  mover.className = "mover";
  mover.textContent = rowName(state, row);
  const text = document.createElement("span");
  text.className = "text";
  text.textContent = rowText(row);
  // A play is written in notation ("52: 13/8 13/11"), the same in every language.
  if (row.kind === "play") text.setAttribute("translate", "no");
  li.append(mover, text);
  return li;
}

const LEVELS = { single: "single", gammon: "gammon", backgammon: "backgammon" };

/**
 * A row's text in the page's language. The server writes a row as a .mat file does
 * (matches/move_list.py: "Doubles => 2", "Takes", "Wins 2 points"); a play is notation
 * and stays as it is, every other kind is said again here from its kind and the figures
 * of its text (the cube's value after "=>", the opening dice) or its result.
 */
export function rowText(row) {
  const cube = (/=> (\d+)$/.exec(row.text) || [])[1];
  switch (row.kind) {
    case "play":
      return row.text.replace("(no move)", _("(no move)"));
    case "opening": {
      const dice = (/(\d-\d)$/.exec(row.text) || [])[1];
      return dice ? format(_("Opening roll %(dice)s"), { dice }) : _("Opening roll");
    }
    case "double":
      return format(_("Doubles => %(cube)s"), { cube });
    case "beaver":
      return format(_("Beavers => %(cube)s"), { cube });
    case "raccoon":
      return format(_("Raccoons => %(cube)s"), { cube });
    case "match_double":
      return format(_("Doubles the match stake => %(cube)s"), { cube });
    case "take":
      return _("Takes");
    case "drop":
      return _("Drops");
    case "match_take":
      return _("Takes the match double");
    case "match_drop":
      return _("Drops the match double");
    case "pass":
      return _("Cannot move");
    case "reject_resign":
      return _("Rejects the resignation");
    case "accept_resign":
      return _("Accepts the resignation");
    case "timeout":
      return _("Time ran out");
    case "resign":
      return resignText(row);
    case "game_over":
      return row.result ? format(ngettext("Wins %(points)s point", "Wins %(points)s points", row.result.points), row.result) : row.text;
    default:
      return row.text;
  }
}

function resignText(row) {
  const level = row.text.replace(/^Resigns /, "");
  if (level === LEVELS.single) return _("Resigns single");
  if (level === LEVELS.gammon) return _("Resigns gammon");
  if (level === LEVELS.backgammon) return _("Resigns backgammon");
  return row.text;
}
