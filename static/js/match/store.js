// The state of the match page's store (lib/store.js): every part of the page is drawn
// from it.

/**
 * The state before the server's first word.
 *
 * config        what the page was opened with: matchId, wsPath, apiBase, colour, highlight,
 *               username (constant)
 * snapshot      the server's latest snapshot of the match, from the viewer's side, with the
 *               `may_<action>` flags that say what the viewer may do now
 * presence      {connected: [bool, bool], spectators, grace_ends}: from the snapshot and
 *               from presence frames
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
