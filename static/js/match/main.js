// The live match page: one store, the views drawn from it, and the WebSocket feeding it.
//
// The page opens with the snapshot and chat embedded in it, fetches the move list once,
// then follows the match over the WebSocket (frames: state, presence, ack, error, chat,
// chat_history; see matches/consumers.py).

import { createStore } from "../lib/store.js";
import { heardServerTime } from "../lib/countdown.js";
import { emptyState } from "./store.js";
import { withPresence, withSnapshot } from "./snapshot.js";
import { openSocket } from "./socket.js";
import { homeBoardLeft, startBoard } from "./board-view.js";
import { startActionPanel, withError } from "./actions.js";
import { startStatus } from "./status.js";
import { startScoreboard } from "./scoreboard.js";
import { startClocks } from "./clocks.js";
import { startResult } from "./result.js";
import { startBetweenGames, withGameResult } from "./between-games.js";
import { startDiceProof } from "./dice-proof.js";
import { loadMoves, startMoveList, withPushedRows } from "./move-list.js";
import { startAnnouncer } from "./announce.js";
import { startKeys } from "./keys.js";
import { startChat, withChatHistory, withChatMessage } from "./chat.js";
import { startNotices } from "./notices.js";

const page = document.getElementById("match-page");
const store = createStore(initialState());

/** How each frame from the server changes the store. */
const FRAMES = {
  state(frame) {
    // A state older than the one shown (two changes whose frames crossed) is dropped.
    const shown = store.get().snapshot;
    if (shown && frame.state.last_seq < shown.last_seq) return;
    heardServerTime(frame.state.clock.server_now);
    store.update((state) => ({
      ...withSnapshot(state, frame.state),
      moves: withPushedRows(state.moves, frame.state, frame.moves),
    }));
    store.update(withGameResult);
    if (store.get().moves.stale) loadMoves(store);
  },
  presence: (frame) => store.update((state) => withPresence(state, frame.presence)),
  ack: () => store.update({ busy: false, asking: null }),
  error: (frame) => store.update((state) => withError(state, frame)),
  chat_history: (frame) => store.update(withChatHistory(frame.messages)),
  chat: (frame) => store.update((state) => withChatMessage(state, frame.message)),
};

const send = openSocket(store, receive);

startNotices(store, page);
startStatus(store, page);
startBoard(store, page, startActionPanel(store, page, send));
startKeys(page);
startScoreboard(store, page);
startClocks(store, page);
startResult(store, page);
startBetweenGames(store, page);
startDiceProof(store, page);
startMoveList(store, page);
startAnnouncer(store, page);
startChat(store, page, send);
if (store.get().snapshot) loadMoves(store);

function initialState() {
  const config = Object.freeze({
    matchId: Number(page.dataset.matchId),
    wsPath: page.dataset.wsPath,
    apiBase: page.dataset.apiBase,
    colour: page.dataset.checkerColour || "white",
    highlight: page.dataset.highlight !== "false",
    username: page.dataset.username || "",
  });
  const state = emptyState(config, embedded("chat-history") || [], homeBoardLeft());
  const snapshot = embedded("match-state");
  if (snapshot) heardServerTime(snapshot.clock.server_now);
  return snapshot ? { ...state, ...withSnapshot(state, snapshot) } : state;
}

function embedded(id) {
  const element = document.getElementById(id);
  return element ? JSON.parse(element.textContent) : null;
}

function receive(frame) {
  const handle = FRAMES[frame.type];
  if (handle) handle(frame);
}
