// The live match page: keeps the board, the panel and the server's state in step.
//
// The server sends the whole state (`match_snapshot`) over the WebSocket after every change;
// the page draws it and never guesses what the server will decide. The only state kept
// here is the turn being made on the board before it is confirmed (`Turn`), the chat, the
// move list and the connection.

import { contrastingColour, renderBoard, startingPosition } from "./board.js";
import { Turn, diceToPlay, pipCounts } from "./moves.js";

const page = document.getElementById("match-page");
const svg = document.getElementById("board");
const config = {
  matchId: Number(page.dataset.matchId),
  wsPath: page.dataset.wsPath,
  apiBase: page.dataset.apiBase,
  colour: page.dataset.checkerColour || "white",
  highlight: page.dataset.highlight !== "false",
  isPlayer: page.dataset.isPlayer === "true",
  username: page.dataset.username || "",
};

const $ = (id) => document.getElementById(id);
const testid = (name) => page.querySelector(`[data-testid="${name}"]`);

const FINISH_REASONS = {
  played: "played out",
  resigned: "by resignation",
  timeout: "on time",
  forfeit: "by forfeit",
  adjudicated: "adjudicated by the engine",
  session_ended: "the session ended",
};
const LEVEL_TEXT = { single: "a single game", gammon: "a gammon", backgammon: "a backgammon" };
const LEVEL_POINTS = { single: 1, gammon: 2, backgammon: 3 };

let state = readJson("match-state");
let chatLines = readJson("chat-history") || [];
let clockOffset = 0;
let turn = null;
let turnKey = "";
let selected = null;
let busy = false;
let busyTimer = null;
let socket = null;
let retries = 0;
let closedForGood = false;
let movesSeq = -1;
let movesLoading = false;
let movesAgain = false;
let moveRows = [];
let announceGame = null;
let errorTimer = null;
let recent = new Set();

function readJson(id) {
  const element = document.getElementById(id);
  if (!element) return null;
  let value = JSON.parse(element.textContent);
  // The page may be given the snapshot already as JSON text.
  if (typeof value === "string") value = JSON.parse(value);
  return value;
}

// ---------------------------------------------------------------- who is who

const game = () => (state && state.game) || null;
const isPassAndPlay = () => Boolean(state && state.pass_and_play);

/** The seat drawn at the bottom of the board. */
function bottomSeat() {
  const current = game();
  if (current && current.view_seat !== null && current.view_seat !== undefined) return current.view_seat;
  return state && state.seat !== null && state.seat !== undefined ? state.seat : 0;
}

/** The seat whose checkers take the viewer's colour: their own, or seat 0 for onlookers. */
function homeSeat() {
  return state && state.seat !== null && state.seat !== undefined ? state.seat : 0;
}

function colourOf(seat) {
  return seat === homeSeat() ? config.colour : contrastingColour(config.colour);
}

function capitalise(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function nameOf(seat) {
  if (seat === null || seat === undefined || !state) return "";
  // Both seats belong to one person in pass and play: the checkers' colours tell them apart.
  if (isPassAndPlay()) return capitalise(colourOf(seat));
  return (state.names && state.names[seat]) || state.players[seat];
}

/** The seat of `username`; `fallback` where one person holds both seats. */
function seatOf(username, fallback = null) {
  if (!state || username === null || username === undefined) return null;
  if (isPassAndPlay()) return fallback;
  const seat = state.players.indexOf(username);
  return seat === -1 ? null : seat;
}

function isViewer(seat) {
  return !isPassAndPlay() && state.seat !== null && state.seat === seat;
}

/** The seat this screen acts for now, or null for onlookers. */
function actingSeat() {
  if (!config.isPlayer || !state || state.seat === null || state.seat === undefined) return null;
  if (isPassAndPlay()) {
    const current = game();
    return current && current.turn_seat !== null ? current.turn_seat : state.seat;
  }
  return state.seat;
}

function mustAct() {
  const current = game();
  const seat = actingSeat();
  return Boolean(
    state && state.status === "playing" && current && seat !== null && current.turn_seat === seat,
  );
}

function isMoving() {
  const current = game();
  return Boolean(mustAct() && current.phase === "move" && turn);
}

function onRollSeat() {
  const current = game();
  if (!current) return null;
  const fallback =
    current.phase === "doubled" ? 1 - current.turn_seat : current.turn_seat;
  return seatOf(current.on_roll, fallback);
}

/** The value a double on the table would set the cube to; a beaver's is four times the old value. */
function offeredCubeValue(cube) {
  return Number.isInteger(cube.offered_value) ? cube.offered_value : cube.value * 2;
}

// ---------------------------------------------------------------- the turn on the board

function keyOf(snapshot) {
  const current = snapshot && snapshot.game;
  if (!current) return "";
  return [current.number, current.phase, current.position_id, current.dice, current.turn_seat, current.view_seat].join("|");
}

function syncTurn() {
  const key = keyOf(state);
  if (key === turnKey) return;
  turnKey = key;
  selected = null;
  const current = game();
  turn =
    mustAct() && current.phase === "move" && current.dice && (current.legal_plays || []).length
      ? new Turn(current.board, current.dice, current.legal_plays)
      : null;
}

function pick(point) {
  if (!isMoving() || busy) return;
  const movable = turn.movable();
  if (selected !== null) {
    if (point === selected) {
      selected = null;
      hint("");
    } else if (turn.destinations(selected).has(point)) {
      turn.move(selected, point);
      selected = null;
      hint("");
    } else if (movable.has(point)) {
      selected = point;
    } else {
      hint(point === 0 ? "That checker cannot bear off with these dice" : `That checker cannot move to ${spotName(point)}`);
    }
    render();
    return;
  }
  if (movable.has(point)) {
    selected = point;
    hint("");
  } else if (turn.board.bar[0] > 0 && point !== 25) {
    hint("Enter your checker from the bar first");
  } else if (point === 0 || point === 25 || turn.board.points[point - 1] <= 0) {
    hint("Pick up one of your checkers");
  } else if (turn.left.length === 0) {
    hint("All dice are played: confirm or undo");
  } else {
    hint(`The checker on point ${point} cannot move`);
  }
  render();
}

function spotName(point) {
  if (point === 0) return "the tray";
  if (point === 25) return "the bar";
  return `point ${point}`;
}

// ---------------------------------------------------------------- drawing

function boardModel() {
  const current = game();
  const bottom = bottomSeat();
  const top = 1 - bottom;
  const moving = isMoving();
  const position = current ? (moving ? turn.board : current.board) : startingPosition();
  const model = {
    ...position,
    colours: { bottom: colourOf(bottom), top: colourOf(top) },
    names: { bottom: nameOf(bottom) || "the player below", top: nameOf(top) || "the player above" },
    pips: shownPips(),
    interactive: moving && !busy,
    showHints: config.highlight,
    selected: moving ? selected : null,
    movable: moving && config.highlight ? turn.movable() : new Set(),
    destinations: moving && selected !== null ? new Set(turn.destinations(selected).keys()) : new Set(),
    notice: boardNotice(),
    recent: moving && turn.steps.length ? new Set() : recent,
  };
  if (!current) return model;
  if (current.dice) {
    const mover = onRollSeat();
    model.dice = {
      values: moving ? turn.dice : diceToPlay(current.dice),
      used: moving ? turn.usedDice() : [],
      side: mover === bottom ? "bottom" : "top",
    };
  }
  const cube = current.cube || { value: 1, owner: null };
  if (current.phase === "doubled") {
    model.cube = { value: offeredCubeValue(cube), place: current.turn_seat === bottom ? "bottom" : "top", offered: true };
  } else if (!state.crawford && state.status !== "finished") {
    const ownerSeat = cube.owner_seat ?? seatOf(cube.owner, null);
    const place = cube.owner === null || cube.owner === undefined ? "centre" : ownerSeat === bottom ? "bottom" : "top";
    model.cube = { value: cube.value, place, offered: false };
  }
  if (current.phase === "resignation" && current.resignation) {
    const by = seatOf(current.resignation.by, 1 - current.turn_seat);
    model.resignation = { side: by === bottom ? "bottom" : "top", level: current.resignation.level };
  }
  return model;
}

/** Pips [bottom, top] as the board stands, with the moves made so far this turn. */
function shownPips() {
  const current = game();
  if (!current) return null;
  return isMoving() ? pipCounts(turn.board) : current.pips;
}

function boardNotice() {
  if (!state) return null;
  if (state.status === "invited") return `Waiting for ${nameOf(1)} to accept`;
  if (state.status === "declined") return "The challenge was declined";
  if (state.status === "cancelled") return "The challenge was withdrawn";
  if (state.status === "suspended") return "Match suspended";
  if (state.status === "finished") {
    const winner = seatOf(state.winner, state.winner_seat ?? null);
    return winner === null ? "Session over" : `${nameOf(winner)} wins the match`;
  }
  return null;
}

function render() {
  if (!state) return;
  syncTurn();
  page.classList.toggle("is-busy", busy);
  renderBoard(svg, boardModel());
  renderTurnStrip();
  renderActions();
  renderScoreboard();
  renderPosition();
  renderResult();
  renderPresence();
  tickClocks();
}

function renderTurnStrip() {
  const current = game();
  const text = $("turn-text");
  const acting = actingSeat();
  const toAct = current ? current.turn_seat : null;
  const them = toAct === null ? "" : nameOf(toAct);
  const mine = mustAct();
  const lead = isPassAndPlay() ? `${them}'s turn` : "Your turn";
  let message = "";
  if (state.status === "invited") message = `Waiting for ${nameOf(1)} to accept the challenge`;
  else if (state.status === "declined") message = `${nameOf(1)} declined the challenge`;
  else if (state.status === "cancelled") message = "The challenge was withdrawn";
  else if (state.status === "suspended") message = "The match is suspended";
  else if (state.status === "finished") message = finishedText();
  else if (!current) message = "The match is starting";
  else if (current.phase === "roll") message = mine ? `${lead}: roll the dice${canDouble() ? " or double" : ""}` : `${them} to roll`;
  else if (current.phase === "move") {
    const dice = current.dice ? current.dice.join("-") : "";
    message = mine ? `${lead}: play ${dice}` : `${them} is playing ${dice}`;
  } else if (current.phase === "doubled") {
    const value = offeredCubeValue(current.cube);
    message = mine
      ? `${nameOf(1 - toAct)} doubles to ${value}: take or drop?`
      : `${isPassAndPlay() ? nameOf(1 - toAct) : "You"} doubled to ${value}; ${them} is deciding`;
  } else if (current.phase === "resignation" && current.resignation) {
    const level = current.resignation.level;
    const points = (LEVEL_POINTS[level] || 1) * (current.cube ? current.cube.value : 1);
    message = mine
      ? `${nameOf(1 - toAct)} offers to resign ${LEVEL_TEXT[level] || level} (${points} point${points === 1 ? "" : "s"})`
      : `${isPassAndPlay() ? nameOf(1 - toAct) : "You"} offered to resign ${LEVEL_TEXT[level] || level}; ${them} is deciding`;
  } else if (current.phase === "over") message = "Game over";
  if (acting === null && state.status === "playing" && current && current.phase === "doubled") {
    message = `${nameOf(1 - toAct)} doubles to ${offeredCubeValue(current.cube)}`;
  }
  if (acting === null && state.status === "playing" && current && current.phase === "resignation" && current.resignation) {
    message = `${nameOf(1 - toAct)} offers to resign ${LEVEL_TEXT[current.resignation.level] || current.resignation.level}`;
  }
  text.textContent = message;
  const swatch = $("turn-swatch");
  swatch.hidden = !(state.status === "playing" && toAct !== null);
  if (!swatch.hidden) swatch.className = `turn-swatch swatch-${colourOf(toAct)}`;

  testid("crawford").hidden = !state.crawford;
  testid("post-crawford").hidden = !state.post_crawford;
  $("watching").hidden = config.isPlayer;
}

function finishedText() {
  const winner = seatOf(state.winner, state.winner_seat ?? null);
  const reason = FINISH_REASONS[state.finish_reason] || "";
  if (winner === null) return `The session is over${reason && state.finish_reason !== "session_ended" ? `, ${reason}` : ""}`;
  const who = isViewer(winner) ? "You win" : `${nameOf(winner)} wins`;
  return `${who} the match ${state.score[winner]}–${state.score[1 - winner]}${reason ? `, ${reason}` : ""}`;
}

function canDouble() {
  const current = game();
  if (!current || current.phase !== "roll" || !mustAct() || state.crawford) return false;
  const cube = current.cube || { value: 1, owner: null };
  const acting = actingSeat();
  const ownerSeat = cube.owner_seat ?? seatOf(cube.owner, acting);
  if (cube.owner !== null && cube.owner !== undefined && ownerSeat !== acting) return false;
  const max = state.options && state.options.max_cube;
  return !(max && cube.value * 2 > max);
}

function show(name, visible) {
  const button = testid(name);
  button.hidden = !visible;
  button.disabled = busy;
}

function renderActions() {
  const current = game();
  const mine = mustAct();
  const phase = current ? current.phase : null;
  show("roll", mine && phase === "roll");
  show("double", canDouble());
  show("take", mine && phase === "doubled");
  show("drop", mine && phase === "doubled");
  show("beaver", mine && phase === "doubled" && state.kind === "money" && Boolean(state.options && state.options.beavers));
  show("accept-resign", mine && phase === "resignation");
  show("reject-resign", mine && phase === "resignation");

  const moving = isMoving();
  const confirm = $("confirm");
  const undo = $("undo");
  confirm.hidden = !moving;
  undo.hidden = !moving;
  confirm.disabled = busy || !moving || !turn.complete();
  undo.disabled = busy || !moving || turn.steps.length === 0;

  const canResign =
    config.isPlayer && state.status === "playing" && current && (phase === "roll" || phase === "move");
  $("resign-menu").hidden = !canResign;
  $("resign").disabled = busy;
  if (!canResign) closeResignMenu();

  if (moving && !$("hint").dataset.sticky) {
    const left = turn.left.length;
    $("hint").textContent = turn.complete()
      ? left
        ? "This play is complete: confirm it, or play on"
        : "Confirm your play, or undo it"
      : selected !== null
        ? config.highlight
          ? "Pick a highlighted point"
          : "Pick the point to move to"
        : "Pick up a checker to move it";
  } else if (!moving && !$("hint").dataset.sticky) {
    $("hint").textContent = lastPlayText();
  }
}

function lastPlayText() {
  const current = game();
  if (!current || state.status !== "playing") return "";
  for (let index = moveRows.length - 1; index >= 0; index -= 1) {
    const row = moveRows[index];
    if (row.game !== current.number) return "";
    if (row.kind === "play" || row.kind === "pass") {
      const who = isPassAndPlay() ? "" : row.player === config.username ? "You " : `${displayForUser(row.player)} `;
      return row.kind === "play" ? `${who}played ${row.text}`.trim() : `${who}could not move`.trim();
    }
  }
  return "";
}

function hint(message) {
  const element = $("hint");
  element.textContent = message;
  if (message) element.dataset.sticky = "1";
  else delete element.dataset.sticky;
}

function formatClock(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

function serverNow() {
  return Date.now() + clockOffset;
}

/** What a player's clock shows now: the move timer runs first, then the reserve. */
function clockReading(seat) {
  const clock = state.clock;
  if (!clock || clock.kind === "none") return null;
  const reserve = clock.reserve_ms ? clock.reserve_ms[seat] : 0;
  const current = game();
  const running = state.status === "playing" && current && current.turn_seat === seat && clock.turn_started_at;
  if (!running) return { running: false, reserve };
  const elapsed = serverNow() - Date.parse(clock.turn_started_at);
  const moveLeft = clock.move_seconds * 1000 - elapsed;
  if (moveLeft > 0) return { running: true, move: moveLeft, reserve };
  return { running: true, inReserve: true, reserve: Math.max(0, reserve + moveLeft) };
}

function renderClock(seat) {
  const element = testid(`clock-${seat}`);
  if (!element) return;
  const reading = clockReading(seat);
  element.classList.toggle("is-running", Boolean(reading && reading.running && !reading.inReserve));
  element.classList.toggle("is-reserve", Boolean(reading && reading.inReserve));
  if (!reading) {
    element.textContent = "";
    element.setAttribute("aria-label", "No clock");
    return;
  }
  let html;
  let spoken;
  if (reading.running && !reading.inReserve) {
    html = `<span class="move-time">${formatClock(reading.move)}</span><span class="reserve">+ ${formatClock(reading.reserve)}</span>`;
    spoken = `${formatClock(reading.move)} to move, then ${formatClock(reading.reserve)} in reserve`;
  } else if (reading.inReserve) {
    html = `<span class="move-time">${formatClock(reading.reserve)}</span><span class="reserve">reserve</span>`;
    spoken = `${formatClock(reading.reserve)} left in reserve`;
  } else {
    html = `<span class="reserve">reserve ${formatClock(reading.reserve)}</span>`;
    spoken = `${formatClock(reading.reserve)} in reserve`;
  }
  if (element.innerHTML !== html) element.innerHTML = html;
  element.setAttribute("aria-label", spoken);
}

function tickClocks() {
  if (!state) return;
  renderClock(0);
  renderClock(1);
  renderPresence();
}

function renderScoreboard() {
  const current = game();
  const bottom = bottomSeat();
  const rows = [1 - bottom, bottom];
  const presence = state.presence || { connected: [false, false], grace_ends: [null, null], spectators: 0 };
  const container = $("player-rows");
  if (container.children.length !== 2) {
    container.innerHTML = "";
    for (let index = 0; index < 2; index += 1) {
      const row = document.createElement("div");
      row.className = "player-row";
      row.innerHTML = `<span class="swatch" aria-hidden="true"></span>
        <div>
          <div class="line"><span class="dot"></span><span class="who"></span><span class="you-tag"></span><span class="points"></span></div>
          <div class="line"><span class="details"></span><span class="clock" role="timer"></span></div>
        </div>`;
      container.appendChild(row);
    }
  }
  rows.forEach((seat, index) => {
    const row = container.children[index];
    row.dataset.seat = String(seat);
    row.classList.toggle("is-turn", Boolean(state.status === "playing" && current && current.turn_seat === seat));
    row.querySelector(".swatch").className = `swatch swatch-${colourOf(seat)}`;
    const connected = Boolean(presence.connected && presence.connected[seat]);
    const away = !connected && presence.grace_ends && presence.grace_ends[seat];
    const dot = row.querySelector(".dot");
    // One screen holds both seats in pass and play: there is no second connection to show.
    dot.hidden = isPassAndPlay();
    dot.className = `dot${connected ? " is-on" : away ? " is-away" : ""}`;
    dot.title = connected ? "Connected" : away ? "Disconnected" : "Not here";
    dot.setAttribute("aria-label", dot.title);
    dot.setAttribute("role", "img");
    row.querySelector(".who").textContent = nameOf(seat);
    row.querySelector(".you-tag").textContent = isViewer(seat) ? "you" : "";
    row.querySelector(".points").textContent = String(state.score[seat]);
    row.querySelector(".points").setAttribute("aria-label", `${state.score[seat]} points`);
    const details = [];
    if (!isPassAndPlay() && state.ratings) details.push(Number(state.ratings[seat]).toFixed(1));
    const pips = shownPips();
    if (pips) details.push(`${pips[seat === bottom ? 0 : 1]} pips`);
    row.querySelector(".details").textContent = details.join(" · ");
    const clock = row.querySelector(".clock");
    clock.dataset.testid = `clock-${seat}`;
  });

  $("match-kind").textContent = matchKindText();
  $("game-number").textContent = current ? `Game ${current.number}` : "";
  const watching = presence.spectators || 0;
  $("spectators").textContent = `${watching} watching`;
  $("spectators").title = `${watching} spectator${watching === 1 ? "" : "s"}`;
}

function money(cents) {
  return (cents / 100).toFixed(2);
}

function matchKindText() {
  const parts = [];
  if (state.kind === "money") {
    parts.push(`${money(state.stake_cents || 0)} per point`, state.currency);
  } else {
    parts.push(`to ${state.length}`);
    if (state.stake_cents) parts.push(`stake ${money(state.stake_cents)} ${state.currency}`);
  }
  if (isPassAndPlay()) parts.push("pass and play");
  else parts.push(state.rated ? "rated" : "unrated");
  return parts.join(" · ");
}

function renderPosition() {
  const current = game();
  $("gnubg-id").textContent = current && current.gnubg_id ? current.gnubg_id : "";
  $("position-line").hidden = !(current && current.gnubg_id);
}

function renderResult() {
  const panel = testid("result");
  panel.hidden = state.status !== "finished";
  if (panel.hidden) return;
  const winner = seatOf(state.winner, state.winner_seat ?? null);
  $("result-title").textContent =
    winner === null ? "The session is over" : isViewer(winner) ? "You won the match" : `${nameOf(winner)} wins the match`;
  const reason = FINISH_REASONS[state.finish_reason];
  const score = `${nameOf(0)} ${state.score[0]} – ${state.score[1]} ${nameOf(1)}`;
  $("result-score").textContent =
    state.kind === "match" ? `${score} in a ${state.length}-point match${reason ? `, ${reason}` : ""}` : `${score}${reason ? `, ${reason}` : ""}`;
  const check = state.dice_check || {};
  $("dice-commitment").textContent = check.commitment || "—";
  $("dice-seed").textContent = check.seed || "not revealed yet";
}

function renderPresence() {
  const banner = $("presence-banner");
  const presence = state.presence;
  if (state.status === "suspended") {
    const away = presence ? [0, 1].filter((seat) => !presence.connected[seat]) : [];
    const who = away.length ? away.map(nameOf).join(" and ") : "A player";
    setText(banner, `${who} did not come back in time. The match is suspended until staff or the engine settle it.`);
    banner.hidden = false;
    return;
  }
  if (!presence || state.status !== "playing" || isPassAndPlay()) {
    banner.hidden = true;
    return;
  }
  const waits = [];
  for (const seat of [0, 1]) {
    const ends = presence.grace_ends && presence.grace_ends[seat];
    if (presence.connected[seat] || !ends || isViewer(seat)) continue;
    const left = Date.parse(ends) - serverNow();
    waits.push(`Waiting for ${nameOf(seat)} to reconnect (${formatClock(left)})`);
  }
  banner.hidden = waits.length === 0;
  if (waits.length) setText(banner, waits.join(" · "));
}

function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

// ---------------------------------------------------------------- messages

function showError(message) {
  const element = testid("error");
  element.classList.remove("toast-info");
  element.textContent = message;
  element.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => {
    element.hidden = true;
  }, 9000);
}

function showInfo(message) {
  const element = testid("error");
  if (!element.hidden && !element.classList.contains("toast-info")) return;
  element.classList.add("toast-info");
  element.textContent = message;
  element.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => {
    element.hidden = true;
  }, 6000);
}

function clearError() {
  const element = testid("error");
  if (!element.classList.contains("toast-info")) element.hidden = true;
}

// ---------------------------------------------------------------- the connection

/** A client sequence number no earlier action of this player in this match has used. */
function nextSeq() {
  const key = `crawford.seq.${config.matchId}.${config.username}`;
  // Quarter seconds since 2024 keep a fresh tab ahead of older ones and fit in 31 bits.
  const clockBase = Math.floor((Date.now() - Date.UTC(2024, 0, 1)) / 250);
  let stored = 0;
  try {
    stored = Number(localStorage.getItem(key)) || 0;
  } catch (error) {
    stored = 0;
  }
  const seq = Math.max(stored + 1, clockBase);
  try {
    localStorage.setItem(key, String(seq));
  } catch (error) {
    // Private windows may refuse storage; the clock base alone still moves forward.
  }
  return seq;
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showError("Not connected: reconnecting…");
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function act(type, extra = {}) {
  if (busy) return;
  clearError();
  if (!send({ type, seq: nextSeq(), ...extra })) return;
  setBusy(true);
}

function setBusy(value) {
  busy = value;
  clearTimeout(busyTimer);
  if (value) busyTimer = setTimeout(() => setBusy(false), 10000);
  render();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}${config.wsPath}`);
  socket.addEventListener("open", () => {
    retries = 0;
    $("connection-banner").hidden = true;
  });
  socket.addEventListener("message", (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    receive(frame);
  });
  socket.addEventListener("close", (event) => {
    socket = null;
    if (busy) setBusy(false);
    if (event.code === 4404) {
      closedForGood = true;
      $("connection-text").textContent = "This match is private or does not exist.";
      $("connection-banner").hidden = false;
      $("connection-banner").querySelector(".spinner").hidden = true;
      return;
    }
    if (closedForGood) return;
    const delay = Math.min(15000, 1000 * 2 ** retries) + Math.random() * 400;
    retries += 1;
    $("connection-text").textContent = "Reconnecting…";
    $("connection-banner").hidden = false;
    setTimeout(connect, delay);
  });
}

function receive(frame) {
  switch (frame.type) {
    case "state":
      setState(frame.state);
      break;
    case "ack":
      setBusy(false);
      break;
    case "error":
      setBusy(false);
      showError(frame.message || "That did not work");
      break;
    case "chat_history":
      chatLines = frame.messages || [];
      renderChat();
      break;
    case "chat":
      chatLines.push(frame.message);
      appendChat(frame.message);
      break;
    default:
      break;
  }
}

function setState(next) {
  const before = state;
  state = next;
  if (next.clock && next.clock.server_now) clockOffset = Date.parse(next.clock.server_now) - Date.now();
  const previousGame = before && before.game ? before.game.number : null;
  if (previousGame !== null && next.game && next.game.number > previousGame) announceGame = previousGame;
  if (keyOf(before) !== keyOf(next)) {
    hint("");
    if (busy) setBusy(false);
  }
  recent = changedPoints(before, next);
  render();
  if (next.last_seq !== movesSeq) loadMoves();
}

/**
 * The points the other side's last play changed, so the player sees what happened while
 * they looked away; nothing for the viewer's own play, which they just made.
 */
function changedPoints(before, next) {
  const old = before && before.game;
  const now = next.game;
  if (!old || !now || old.number !== now.number) return new Set();
  if (old.position_id === now.position_id && old.view_seat === now.view_seat) return recent;
  if (!next.pass_and_play && next.seat !== null && old.turn_seat === next.seat) return new Set();
  // In pass and play the board turns round with the turn: read the old board from the new side.
  const oldPoints =
    old.view_seat === now.view_seat ? old.board.points : old.board.points.slice().reverse().map((count) => -count);
  const changed = new Set();
  now.board.points.forEach((count, index) => {
    if (count !== oldPoints[index]) changed.add(index + 1);
  });
  return changed;
}

// ---------------------------------------------------------------- the move list

async function loadMoves() {
  if (movesLoading) {
    movesAgain = true;
    return;
  }
  movesLoading = true;
  const seq = state.last_seq;
  try {
    const response = await fetch(`${config.apiBase}moves/`, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (response.ok) {
      const data = await response.json();
      moveRows = Array.isArray(data) ? data : data.results || [];
      movesSeq = seq;
      renderMoves();
      renderActions();
      announce();
    }
  } catch (error) {
    // The next state change fetches again.
  } finally {
    movesLoading = false;
    if (movesAgain) {
      movesAgain = false;
      loadMoves();
    }
  }
}

function announce() {
  if (announceGame === null) return;
  const over = moveRows.find((row) => row.game === announceGame && row.kind === "game_over");
  if (over) {
    showInfo(`Game ${announceGame}: ${displayForUser(over.player)} ${over.text.charAt(0).toLowerCase()}${over.text.slice(1)}`);
  }
  announceGame = null;
}

function displayForUser(username) {
  if (!state || !username) return "";
  const seat = state.players.indexOf(username);
  if (isPassAndPlay() || seat === -1) return username;
  return nameOf(seat);
}

function renderMoves() {
  const list = testid("move-list");
  list.classList.toggle("one-player", isPassAndPlay());
  if (!moveRows.length) {
    list.innerHTML = '<p class="empty-note">No moves yet.</p>';
    return;
  }
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const fragment = document.createDocumentFragment();
  let currentGame;
  let ol = null;
  for (const row of moveRows) {
    if (row.game !== currentGame || !ol) {
      currentGame = row.game;
      const heading = document.createElement("h3");
      heading.textContent = row.game ? `Game ${row.game}` : "Match";
      ol = document.createElement("ol");
      fragment.append(heading, ol);
    }
    const li = document.createElement("li");
    li.className = `kind-${row.kind}`;
    li.dataset.seq = row.seq;
    const mover = document.createElement("span");
    mover.className = "mover";
    mover.textContent = row.player ? displayForUser(row.player) : "";
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = row.text;
    li.append(mover, text);
    ol.appendChild(li);
  }
  list.replaceChildren(fragment);
  if (nearBottom || list.dataset.filled !== "1") list.scrollTop = list.scrollHeight;
  list.dataset.filled = "1";
}

// ---------------------------------------------------------------- chat

function chatItem(message) {
  const li = document.createElement("li");
  const time = document.createElement("time");
  const at = new Date(message.at);
  if (!Number.isNaN(at.getTime())) {
    time.dateTime = message.at;
    time.textContent = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }
  const author = document.createElement("span");
  author.className = "author";
  author.textContent = message.name || message.author;
  const text = document.createElement("span");
  text.textContent = message.text;
  li.append(time, author, text);
  return li;
}

function renderChat() {
  const log = testid("chat-log");
  log.replaceChildren(...chatLines.map(chatItem));
  log.scrollTop = log.scrollHeight;
}

function appendChat(message) {
  const log = testid("chat-log");
  log.appendChild(chatItem(message));
  log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------- controls

function closeResignMenu() {
  $("resign-options").hidden = true;
  $("resign").setAttribute("aria-expanded", "false");
}

function wire() {
  svg.addEventListener("click", (event) => {
    const spot = event.target.closest("[data-point]");
    if (spot) pick(Number(spot.dataset.point));
  });
  svg.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const spot = event.target.closest("[data-point]");
    if (!spot) return;
    event.preventDefault();
    const point = Number(spot.dataset.point);
    pick(point);
    const again = svg.querySelector(`[data-point="${point}"]`);
    if (again && again.getAttribute("tabindex") === "0") again.focus();
  });

  page.querySelectorAll("[data-action]").forEach((button) => {
    button.addEventListener("click", () => act(button.dataset.action));
  });
  $("confirm").addEventListener("click", () => {
    const play = turn && turn.complete();
    if (!play) return;
    hint("");
    act("play", { play: play.text });
  });
  $("undo").addEventListener("click", () => {
    if (!turn) return;
    turn.reset();
    selected = null;
    hint("");
    render();
  });

  $("resign").addEventListener("click", (event) => {
    event.stopPropagation();
    const list = $("resign-options");
    list.hidden = !list.hidden;
    $("resign").setAttribute("aria-expanded", String(!list.hidden));
    if (!list.hidden) list.querySelector("button").focus();
  });
  page.querySelectorAll("[data-resign]").forEach((button) => {
    button.addEventListener("click", () => {
      closeResignMenu();
      act("resign", { resign: button.dataset.resign });
    });
  });
  document.addEventListener("click", (event) => {
    if (!$("resign-menu").contains(event.target)) closeResignMenu();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      closeResignMenu();
      if (selected !== null) {
        selected = null;
        render();
      }
    }
  });

  $("copy-id").addEventListener("click", async () => {
    const text = $("gnubg-id").textContent;
    try {
      await navigator.clipboard.writeText(text);
      $("copy-id").textContent = "Copied";
    } catch (error) {
      const range = document.createRange();
      range.selectNodeContents($("gnubg-id"));
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      $("copy-id").textContent = "Selected";
    }
    setTimeout(() => {
      $("copy-id").textContent = "Copy";
    }, 1600);
  });

  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = testid("chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) input.value = "";
  });
}

// ---------------------------------------------------------------- start

wire();
if (state) {
  if (state.clock && state.clock.server_now) clockOffset = Date.parse(state.clock.server_now) - Date.now();
  render();
  loadMoves();
}
renderChat();
setInterval(tickClocks, 250);
if (config.wsPath) connect();
