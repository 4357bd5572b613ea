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
      const did = row.kind === "play" ? `played ${row.text}` : "could not move";
      return `${isViewer(state, row.seat) ? "You" : rowName(state, row)} ${did}`;
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
    list.innerHTML = '<p class="empty-note">No moves yet.</p>';
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
      heading.textContent = row.game ? `Game ${row.game}` : "Match";
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
  text.textContent = row.text;
  li.append(mover, text);
  return li;
}
