// The turn a player is making on the board, before they confirm it.
//
// Terms (as in the server's backgammon package): a *step* moves one checker by one die;
// points are numbered from the mover's view, 25 is the bar and 0 is off. A *board* here is
// the snapshot's shape from the mover's side: `points[i]` holds +n of the mover's checkers
// on point i + 1 or -n of the opponent's; `bar` and `off` are [mover, opponent].
//
// The server is the judge of legality: it sends every legal play of the roll. A step is
// offered only when, after it, the dice left can still lead to the result of one of those
// plays. That keeps the moves in any order the player likes, lets one checker run over
// both dice in one click, and needs no second copy of the rules beyond how a single die
// may move.

const BAR = 25;
const OFF = 0;
const HOME = 6;

function cloneBoard(board) {
  return { points: board.points.slice(), bar: board.bar.slice(), off: board.off.slice() };
}

function boardKey(board) {
  return `${board.points.join(",")}|${board.bar.join(",")}|${board.off.join(",")}`;
}

/** The board after moving one of the mover's checkers from `from` to `to`, hitting a blot there. */
function applyStep(board, from, to) {
  const next = cloneBoard(board);
  if (from === BAR) next.bar[0] -= 1;
  else next.points[from - 1] -= 1;
  if (to === OFF) {
    next.off[0] += 1;
    return next;
  }
  if (next.points[to - 1] === -1) {
    next.points[to - 1] = 0;
    next.bar[1] += 1;
  }
  next.points[to - 1] += 1;
  return next;
}

/** Pips [mover, opponent] each side needs to bear everything off. */
export function pipCounts(board) {
  let mover = board.bar[0] * BAR;
  let opponent = board.bar[1] * BAR;
  board.points.forEach((count, index) => {
    if (count > 0) mover += count * (index + 1);
    else opponent += -count * (24 - index);
  });
  return [mover, opponent];
}

/** The dice of a roll as single dice to play: doubles play four times. */
export function diceToPlay(dice) {
  if (!dice || dice.length !== 2) return [];
  return dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
}

function allHome(board) {
  if (board.bar[0] > 0) return false;
  for (let index = HOME; index < 24; index += 1) if (board.points[index] > 0) return false;
  return true;
}

function highestOccupied(board) {
  for (let index = 23; index >= 0; index -= 1) if (board.points[index] > 0) return index + 1;
  return 0;
}

/** Steps one die could make on this board, by the movement rules alone. */
function candidateSteps(board, dice) {
  const steps = [];
  const seen = new Set();
  for (const die of dice) {
    if (seen.has(die)) continue;
    seen.add(die);
    if (board.bar[0] > 0) {
      const to = BAR - die;
      if (board.points[to - 1] >= -1) steps.push({ from: BAR, to, die });
      continue;
    }
    const home = allHome(board);
    const highest = highestOccupied(board);
    for (let from = 1; from <= 24; from += 1) {
      if (board.points[from - 1] <= 0) continue;
      const to = from - die;
      if (to >= 1) {
        if (board.points[to - 1] >= -1) steps.push({ from, to, die });
      } else if (home && (to === 0 || from === highest)) {
        steps.push({ from, to: OFF, die });
      }
    }
  }
  return steps;
}

function without(dice, die) {
  const index = dice.indexOf(die);
  return dice.slice(0, index).concat(dice.slice(index + 1));
}

/**
 * A turn is a value: moving a checker or undoing gives a new turn, so a store can keep the
 * one on the board and tell when it changed. Turns of one roll share what they have worked
 * out about the legal plays.
 */
export class Turn {
  /**
   * @param board the mover's board at the start of the turn
   * @param dice the roll, [d1, d2]
   * @param legalPlays the server's [{text, moves: [[from, to], ...]}]
   */
  constructor(board, dice, legalPlays) {
    this.start = cloneBoard(board);
    this.dice = diceToPlay(dice);
    this.results = new Map();
    for (const play of legalPlays || []) {
      let after = this.start;
      for (const [from, to] of play.moves) after = applyStep(after, from, to);
      const key = boardKey(after);
      if (!this.results.has(key)) this.results.set(key, play);
    }
    this.reachable = new Map();
    this.board = this.start;
    this.left = this.dice.slice();
    this.steps = [];
  }

  /** The same roll at another point of the turn. */
  at(board, left, steps) {
    return Object.assign(Object.create(Turn.prototype), this, { board, left, steps });
  }

  /** The turn taken back to its start. */
  undone() {
    return this.at(this.start, this.dice.slice(), []);
  }

  /** Whether the dice `left` can still take `board` to a legal play's result. */
  canFinish(board, left) {
    const key = `${boardKey(board)}/${left.slice().sort().join("")}`;
    if (this.reachable.has(key)) return this.reachable.get(key);
    let found = this.results.has(boardKey(board));
    if (!found) {
      for (const step of candidateSteps(board, left)) {
        if (this.canFinish(applyStep(board, step.from, step.to), without(left, step.die))) {
          found = true;
          break;
        }
      }
    }
    this.reachable.set(key, found);
    return found;
  }

  /** Single steps from the current board that keep a legal play within reach. */
  nextSteps() {
    return candidateSteps(this.board, this.left).filter((step) =>
      this.canFinish(applyStep(this.board, step.from, step.to), without(this.left, step.die)),
    );
  }

  /** Points (25 for the bar) holding a checker that can move now. */
  movable() {
    return new Set(this.nextSteps().map((step) => step.from));
  }

  /**
   * Where the checker on `source` can go, with one die or several in a row, and the steps
   * to get there. Shorter routes win, then routes that hit nothing on the way, so 24/13
   * with 6-5 goes round an opponent's blot rather than hitting it unasked.
   */
  destinations(source) {
    const routes = new Map();
    const explore = (board, left, from, path, hitsOnTheWay) => {
      for (const step of candidateSteps(board, left)) {
        if (step.from !== from) continue;
        const after = applyStep(board, step.from, step.to);
        const rest = without(left, step.die);
        if (!this.canFinish(after, rest)) continue;
        const route = { steps: path.concat([step]), hits: hitsOnTheWay };
        const known = routes.get(step.to);
        if (!known || better(route, known)) routes.set(step.to, route);
        if (step.to !== OFF) {
          const hit = board.points[step.to - 1] === -1 ? 1 : 0;
          explore(after, rest, step.to, route.steps, hitsOnTheWay + hit);
        }
      }
    };
    explore(this.board, this.left, source, [], 0);
    return routes;
  }

  /** The turn after moving the checker on `source` to `destination`; null when that is not on offer. */
  moved(source, destination) {
    const route = this.destinations(source).get(destination);
    if (!route) return null;
    let { board, left } = this;
    for (const step of route.steps) {
      board = applyStep(board, step.from, step.to);
      left = without(left, step.die);
    }
    return this.at(board, left, this.steps.concat(route.steps));
  }

  /** The legal play the moves so far amount to, or null while the turn is not complete. */
  complete() {
    return this.results.get(boardKey(this.board)) || null;
  }

  /** For each die of the roll (four for doubles), whether it has been played. */
  usedDice() {
    const left = this.left.slice();
    const used = this.dice.map(() => true);
    // The dice still to play are matched from the right, so played dice grey from the left.
    for (let index = this.dice.length - 1; index >= 0; index -= 1) {
      const at = left.indexOf(this.dice[index]);
      if (at !== -1) {
        used[index] = false;
        left.splice(at, 1);
      }
    }
    return used;
  }
}

function better(route, known) {
  if (route.steps.length !== known.steps.length) return route.steps.length < known.steps.length;
  return route.hits < known.hits;
}
