// The analysis page: step through every decision on a board with GNU Backgammon's
// candidates (a checker play) or its cube table (a cube decision: no double, double/take,
// double/pass from the doubler's view, with the proper action), the errors list with its
// filters, and the course of the match as a graph.
// Before the analysis is done, the page follows its progress over the /ws/me/ socket
// (static/js/notices/ passes the frames on) and reloads when it is.

import { renderBoard } from "../lib/board.js";
import { _, format } from "../lib/i18n.js";

// GNU Backgammon's marks and cube actions, as the analysis keeps them (English), in the
// page's language; the marks stay English in the data, where the filters and styles read them.
const WORDS = {
  "very bad": _("very bad"),
  bad: _("bad"),
  doubtful: _("doubtful"),
  "very lucky": _("very lucky"),
  lucky: _("lucky"),
  unlucky: _("unlucky"),
  "very unlucky": _("very unlucky"),
  double: _("double"),
  "no double": _("no double"),
  take: _("take"),
  drop: _("drop"),
  beaver: _("beaver"),
  "too good": _("too good to double, play for gammon"),
  "match double": _("match double"),
  "no match double": _("no match double"),
  "match take": _("match take"),
  "match drop": _("match drop"),
};
// The same for a cube the doubler already owns.
const REDOUBLE_WORDS = {
  double: _("redouble"),
  "no double": _("no redouble"),
  "too good": _("too good to redouble, play for gammon"),
};
// A match double's error is in stakes (the match stake before it), not EMG.
const unit = (d) => (d.kind === "match cube" ? _("stakes") : "EMG");
const inWords = (word) => WORDS[word] ?? word;
// A cube decision's action or best action: a redouble when the cube was the doubler's.
const cubeWords = (d, word) => (d.cube && !d.cube.centred && REDOUBLE_WORDS[word]) || inWords(word);

// The rows of a cube decision's table and GNU Backgammon's proper actions (its words).
const OPTIONS = {
  "no double": [_("No double"), _("No redouble")],
  "double, take": [_("Double, take"), _("Redouble, take")],
  "double, pass": [_("Double, pass"), _("Redouble, pass")],
};
const VERDICTS = {
  "Double, take": _("Double, take"),
  "Double, pass": _("Double, pass"),
  "No double, take": _("No double, take"),
  "Too good to double, take": _("Too good to double, take"),
  "Too good to double, pass": _("Too good to double, pass"),
  "Double, beaver": _("Double, beaver"),
  "No double, beaver": _("No double, beaver"),
  "Redouble, take": _("Redouble, take"),
  "Redouble, pass": _("Redouble, pass"),
  "No redouble, take": _("No redouble, take"),
  "Too good to redouble, take": _("Too good to redouble, take"),
  "Too good to redouble, pass": _("Too good to redouble, pass"),
  "No redouble, beaver": _("No redouble, beaver"),
  "Never double, take (dead cube)": _("Never double, take (dead cube)"),
  "Never redouble, take (dead cube)": _("Never redouble, take (dead cube)"),
  "Optional double, take": _("Optional double, take"),
  "Optional redouble, take": _("Optional redouble, take"),
  "Optional double, beaver": _("Optional double, beaver"),
  "Optional double, pass": _("Optional double, pass"),
  "Optional redouble, pass": _("Optional redouble, pass"),
  "Cube not available": _("Cube not available"),
};

const progress = document.getElementById("analysis-progress");
if (progress) {
  const id = Number(progress.dataset.analysis);
  document.addEventListener("crawford:analysis", (event) => {
    const update = event.detail;
    if (update.id !== id) return;
    if (update.status === "done" || update.status === "failed") {
      location.reload();
      return;
    }
    const bar = progress.querySelector("progress");
    bar.max = update.total || 1;
    bar.value = update.done;
    progress.querySelector("[data-progress-text]").textContent = update.total
      ? format(_("%(done)s of %(total)s moves"), { done: update.done, total: update.total })
      : "";
  });
}

const source = document.getElementById("analysis-data");
if (source) start(JSON.parse(source.textContent));

function start(data) {
  const decisions = data.decisions;
  const board = document.getElementById("analysis-board");
  let index = 0;
  const isError = (d) => d.mark !== null;

  function fmt(value, digits = 3) {
    return value === null || value === undefined ? "—" : (value >= 0 ? "+" : "") + value.toFixed(digits);
  }

  function title(d) {
    const who = data.names[d.seat];
    const what = d.kind === "checker"
      ? format(_("%(name)s to play %(dice)s"), { name: who, dice: d.dice.join("-") })
      : `${who}: ${cubeWords(d, d.action)}`;
    return `${format(_("Game %(number)s"), { number: d.game })} · ${what}`;
  }

  function show(next) {
    if (!decisions.length) return;
    index = Math.max(0, Math.min(decisions.length - 1, next));
    const d = decisions[index];
    const model = { ...d.board, colours: { bottom: "white", top: "black" },
      names: { bottom: data.names[0], top: data.names[1] }, interactive: false };
    if (d.kind === "checker" && d.dice) {
      model.dice = { values: d.dice, used: [false, false], side: d.seat === 0 ? "bottom" : "top" };
    }
    renderBoard(board, model);
    document.getElementById("decision-title").textContent = title(d);
    const mark = d.mark ? ` (${inWords(d.mark)})` : "";
    const error = d.error > 0 ? `: ${fmt(-d.error)} ${unit(d)}${d.error_mwc ? `, ${(-100 * d.error_mwc).toFixed(2)} % MWC` : ""}${mark}` : "";
    const played = d.kind !== "checker" ? cubeWords(d, d.played) : d.played || _("(no move)");
    document.getElementById("decision-played").textContent = format(_("Played %(play)s"), { play: played }) + error;
    document.getElementById("decision-best").textContent = d.error > 0
      ? format(_("Best: %(play)s"), { play: d.kind !== "checker" ? cubeWords(d, d.best) : d.best })
      : _("The best choice.");
    const rows = document.querySelector("[data-testid=candidates] tbody");
    rows.replaceChildren(
      ...d.candidates.map((c, n) => {
        const row = document.createElement("tr");
        if (c.move === d.played) row.classList.add("is-played");
        for (const text of [String(n + 1), c.move, fmt(c.equity), c.mwc === null ? "—" : `${(100 * c.mwc).toFixed(2)} %`]) {
          const cell = document.createElement("td");
          cell.textContent = text;
          row.append(cell);
        }
        return row;
      }),
    );
    document.querySelector("[data-testid=candidates]").hidden = d.candidates.length === 0;
    showCube(d.cube ?? null);
    document.getElementById("decision-luck").textContent =
      d.luck === null ? "" : format(_("Luck of the roll: %(luck)s EMG"), { luck: fmt(d.luck) }) + (d.luck_mark ? ` (${inWords(d.luck_mark)})` : "");
    document.getElementById("decision-count").textContent = format(_("%(number)s of %(total)s"), { number: index + 1, total: decisions.length });
    for (const row of document.querySelectorAll("tr[data-decision]")) {
      row.classList.toggle("is-current", Number(row.dataset.decision) === index);
    }
    for (const dot of document.querySelectorAll("#course circle")) {
      dot.classList.toggle("is-current", Number(dot.dataset.decision) === index);
    }
  }

  // A cube decision's table: each row's equity and, in brackets, its difference from the
  // proper action's (GNU Backgammon's and eXtreme Gammon's way); the played rows marked.
  function showCube(cube) {
    const box = document.querySelector("[data-testid=cube-equities]");
    box.hidden = cube === null;
    if (cube === null) return;
    document.getElementById("cube-verdict").textContent =
      format(_("Proper cube action: %(action)s"), { action: VERDICTS[cube.verdict] ?? cube.verdict });
    const percent = (value) => `${(100 * value).toFixed(2)} %`;
    const figure = (value, diff, text) => {
      const cell = document.createElement("td");
      cell.textContent = text(value);
      if (diff !== 0) {
        const aside = document.createElement("span");
        aside.className = "cube-diff";
        aside.textContent = ` (${diff > 0 ? "+" : "−"}${text(Math.abs(diff)).replace("+", "")})`;
        cell.append(aside);
      }
      return cell;
    };
    const mwc = cube.options.some((o) => o.mwc !== null);
    box.querySelector(".cube-mwc").hidden = !mwc;
    box.querySelector("tbody").replaceChildren(
      ...cube.options.map((o) => {
        const row = document.createElement("tr");
        row.dataset.option = o.action;
        const name = document.createElement("td");
        name.className = "cube-option";
        name.textContent = (OPTIONS[o.action] ?? [o.action, o.action])[cube.centred ? 0 : 1];
        if (o.played) {
          row.classList.add("is-played");
          const mark = document.createElement("span");
          mark.className = "cube-played";
          mark.textContent = ` · ${_("played")}`;
          name.append(mark);
        }
        if (o.diff === 0) row.classList.add("is-best");
        row.append(name, figure(o.equity, o.diff, (v) => fmt(v)));
        if (mwc) row.append(figure(o.mwc, o.diff_mwc, (v) => (v === null ? "—" : percent(v))));
        return row;
      }),
    );
  }

  function errorFrom(step) {
    for (let i = index + step; i >= 0 && i < decisions.length; i += step) {
      if (isError(decisions[i])) return i;
    }
    return index;
  }

  const moves = {
    first: () => 0,
    last: () => decisions.length - 1,
    prev: () => index - 1,
    next: () => index + 1,
    "prev-error": () => errorFrom(-1),
    "next-error": () => errorFrom(1),
  };
  for (const button of document.querySelectorAll("[data-go]")) {
    button.addEventListener("click", () => show(moves[button.dataset.go]()));
  }
  document.addEventListener("keydown", (event) => {
    // Alt+←/→ (back, forward), Ctrl+← and ⌘+← belong to the browser and the system.
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, select, textarea, [contenteditable]")) return;
    const key = { ArrowLeft: event.shiftKey ? "prev-error" : "prev", ArrowRight: event.shiftKey ? "next-error" : "next", Home: "first", End: "last" }[event.key];
    if (!key) return;
    event.preventDefault();
    show(moves[key]());
  });

  // The errors list, filtered by player and by mark.
  const body = document.querySelector("[data-testid=blunders] tbody");
  const filter = document.querySelector("[data-testid=blunder-filter]");
  function listErrors() {
    const whose = filter.querySelector("input[name=whose]:checked").value;
    const veryBad = filter.querySelector("input[name=very-bad]").checked;
    const shown = decisions
      .map((d, i) => [d, i])
      .filter(([d]) => isError(d) && (whose === "all" || d.seat === Number(whose)) && (!veryBad || d.mark === "very bad"));
    body.replaceChildren(
      ...shown.map(([d, i]) => {
        const row = document.createElement("tr");
        row.dataset.decision = String(i);
        row.tabIndex = 0;
        row.classList.add(`mark-${d.mark.replace(" ", "-")}`);
        const roll = d.dice ? d.dice.join("-") : inWords(d.action);
        // Named cells: on a phone static/css/analysis.css lays the row out in three lines.
        const cube = d.kind !== "checker";
        const cells = {
          game: String(d.game), player: data.names[d.seat], roll,
          played: (cube ? cubeWords(d, d.played) : d.played) || "—", best: cube ? cubeWords(d, d.best) : d.best,
          error: fmt(-d.error), mark: inWords(d.mark),
        };
        for (const [name, text] of Object.entries(cells)) {
          const cell = document.createElement("td");
          cell.className = name;
          cell.textContent = text;
          row.append(cell);
        }
        const go = () => { show(i); board.scrollIntoView({ block: "nearest", behavior: "smooth" }); };
        row.addEventListener("click", go);
        row.addEventListener("keydown", (event) => { if (event.key === "Enter") go(); });
        return row;
      }),
    );
    document.getElementById("blunders-none").hidden = shown.length > 0;
  }
  filter.addEventListener("change", listErrors);
  listErrors();

  drawCourse(document.getElementById("course"), data, show);
  show(0);
}

function drawCourse(svg, data, show) {
  const points = data.course;
  const ns = "http://www.w3.org/2000/svg";
  const [width, height, pad] = [640, 180, 24];
  const values = points.map((p) => p.value);
  const low = data.money ? Math.min(-1, ...values) : 0;
  const high = data.money ? Math.max(1, ...values) : 1;
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(points.length - 1, 1);
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low || 1);
  const el = (name, attrs) => {
    const node = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    svg.append(node);
    return node;
  };
  const middle = data.money ? 0 : 0.5;
  el("line", { x1: pad, x2: width - pad, y1: y(middle), y2: y(middle), class: "course-axis" });
  let game = null;
  points.forEach((p, i) => {
    if (p.game !== game) {
      game = p.game;
      el("line", { x1: x(i), x2: x(i), y1: pad / 2, y2: height - pad, class: "course-game" });
      el("text", { x: x(i) + 3, y: pad - 4, class: "course-label" }).textContent = format(_("Game %(number)s"), { number: p.game });
    }
  });
  el("polyline", { points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" "), class: "course-line" });
  const index = new Map(data.decisions.map((d, i) => [`${d.game}.${d.number}`, i]));
  points.forEach((p, i) => {
    const decision = index.get(`${p.game}.${p.number}`);
    const dot = el("circle", { cx: x(i), cy: y(p.value), r: 3, class: "course-dot" });
    dot.dataset.decision = String(decision);
    dot.addEventListener("click", () => show(decision));
  });
}
