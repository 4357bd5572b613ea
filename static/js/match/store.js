// The one store of the match page: every part of the page is drawn from it.
//
// State (see `emptyState`) is never changed in place: `update` makes a new state object
// from a patch, then tells every subscriber the new state and the one before, so each
// view redraws only when a part it reads is a different object. An update asked for while
// subscribers are being told waits its turn, so every subscriber sees the updates in order.

/**
 * The state before the server's first word.
 *
 * config        what the page was opened with: matchId, wsPath, apiBase, colour, highlight,
 *               username (constant)
 * snapshot      the server's latest snapshot of the match, from the viewer's side, with the
 *               `may_<action>` flags that say what the viewer may do now
 * presence      {connected: [bool, bool], spectators, grace_ends}: from the snapshot and
 *               from presence frames
 * clockOffset   the server's clock minus this browser's, in ms
 * turn          {key, plan, selected}: the turn being built on the board (`plan`, a moves.js
 *               Turn, null when the viewer is not moving) and the picked-up checker
 * recent        Set of the points the other side's last play changed
 * busy          an action is on its way and not answered yet
 * sentSeq       the client seq of the last action this tab sent (0: none yet)
 * connection    "connecting" | "open" | "retrying" | "refused"
 * moves         the move list: {rows, seq, base, loading, pending, stale} (see move-list.js)
 * gameEnded     null | {number}: a game just over, kept until its result row arrives
 * between       null | the result panel shown over the next game's board (between-games.js)
 * chat          the chat messages shown
 * hint          a message for the player beside the buttons, kept until the next step
 * asking        the seq of a play sent only to learn which rule it breaks, or null
 * refusal       null | the server's sentence for the last checker put down where no legal
 *               play goes, shown on the board
 * toast         null | {text}: what the server refused, under the board
 * resignOpen    whether the resignation menu is open
 * flipped       whether the board is drawn with the viewer's home board on the left
 */
export function emptyState(config, chat, flipped = false) {
  return {
    config,
    snapshot: null,
    presence: { connected: [false, false], spectators: 0, grace_ends: [null, null] },
    clockOffset: 0,
    turn: { key: "", plan: null, selected: null },
    recent: new Set(),
    busy: false,
    sentSeq: 0,
    connection: "connecting",
    moves: { rows: [], seq: null, base: null, loading: false, pending: [], stale: true },
    gameEnded: null,
    between: null,
    chat,
    hint: "",
    asking: null,
    refusal: null,
    toast: null,
    resignOpen: false,
    flipped,
  };
}

export function createStore(initial) {
  let state = initial;
  const listeners = [];
  const queue = [];
  let telling = false;

  function update(change) {
    queue.push(change);
    if (telling) return;
    telling = true;
    try {
      while (queue.length) {
        const next = queue.shift();
        const patch = typeof next === "function" ? next(state) : next;
        if (!patch) continue;
        const previous = state;
        state = { ...state, ...patch };
        for (const listener of listeners) listener(state, previous);
      }
    } finally {
      telling = false;
    }
  }

  /** Call `listener(state, previous)` now (previous null) and after every update. */
  function subscribe(listener) {
    listeners.push(listener);
    listener(state, null);
  }

  return { get: () => state, update, subscribe };
}

/** Whether any of `keys` of the state is a different object than before (always at first). */
export function changed(state, previous, ...keys) {
  return previous === null || keys.some((key) => state[key] !== previous[key]);
}
