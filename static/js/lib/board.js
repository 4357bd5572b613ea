// The backgammon board as SVG, drawn from one player's side (the *viewer*, at the bottom).
//
// Points are numbered from the viewer's view: 1..6 is the viewer's home board at the bottom
// right, 24 is at the top right; 25 stands for the viewer's bar and 0 for the viewer's
// bear-off tray, as in move notation. `renderBoard` draws a plain description of what is
// on the board (see `BoardModel` below); it knows nothing of the match or the rules.
//
// BoardModel:
//   points [24]        +n viewer's checkers on point i + 1, -n opponent's
//   bar, off           [viewer's, opponent's]
//   colours            {bottom, top}: "white" | "black" | "red" | "blue"
//   names              {bottom, top}: for the points' spoken labels
//   dice               null | {values, used, side: "bottom" | "top"}
//   cube               null | {value, place: "centre" | "bottom" | "top", offered: bool}
//   matchCube          null | the match cube of a match swing, as `cube`: on the bar at its
//                      owner's end (inside the game cube, when that is there too), in the
//                      middle of the bar or, when the game cube is there, just beside it
//   pips               [bottom, top] | null
//   interactive        whether the viewer may pick up checkers now
//   selected           the point (25 for the bar) whose checker is picked up, or null
//   movable            Set of points whose checker can move now (shown when hints are on)
//   destinations       Set of points (0: off) the picked checker may go to
//   resignation        null | {side, level}: a resignation waiting for an answer
//   notice             null | text across the middle of the board
//   recent             Set of points the last play changed, marked on the frame
//   flipped            the viewer's home board on the left (with the trays) instead of the
//                      right: every place is mirrored, the writing and the dice are not

import { _, format, ngettext } from "./i18n.js";

/** A colour that stands apart from `colour` on the board, for the other player's checkers. */
export function contrastingColour(colour) {
  return colour === "white" ? "black" : "white";
}

/** A checkers' colour as a name: "White" (pass and play names its sides so). */
export function colourName(colour) {
  const names = { white: _("White"), black: _("Black"), red: _("Red"), blue: _("Blue") };
  return names[colour] || colour;
}

const W = 1040;
const H = 760;
const FRAME = 28;
const POINT_W = 68;
const LEFT_X = FRAME;
const BAR_X = LEFT_X + 6 * POINT_W;
const BAR_W = 72;
const RIGHT_X = BAR_X + BAR_W;
const FIELD_END = RIGHT_X + 6 * POINT_W;
const TRAY_X = FIELD_END + 20;
const TRAY_W = 76;
const TOP = FRAME;
const BOTTOM = H - FRAME;
const MID = H / 2;
const R = 31;
const POINT_H = 292;
const STACK = 5;
const BAR_STACK = 4;
const SLAB_H = 14;
const CUBE = 56;


const PALETTE = {
  white: { light: "#ffffff", base: "#efe7d4", dark: "#cdbf9f", edge: "#9d8c6b", ring: "rgba(90,70,40,.28)", text: "#2a2419", pip: "#1d2521" },
  black: { light: "#66706c", base: "#2c3331", dark: "#111514", edge: "#050706", ring: "rgba(255,255,255,.16)", text: "#f7f3ea", pip: "#f7f3ea" },
  red: { light: "#e9685e", base: "#b3261e", dark: "#771510", edge: "#4d0d09", ring: "rgba(255,255,255,.22)", text: "#fff7ef", pip: "#fff7ef" },
  blue: { light: "#6f9fe0", base: "#24579a", dark: "#12305a", edge: "#0a1d38", ring: "rgba(255,255,255,.2)", text: "#f4f8ff", pip: "#f4f8ff" },
};

function palette(colour) {
  return PALETTE[colour] || PALETTE.white;
}

/**
 * Where `x` (of the board with the home board on the right) lies on the board drawn; for a
 * box, `x` is its left edge and the box is `width` wide.
 */
function across(model, x, width = 0) {
  return model.flipped ? W - x - width : x;
}

/** The centre x of a point and whether it hangs from the top edge. */
function pointPlace(model, point) {
  const place = (x, top) => ({ x: across(model, x + POINT_W / 2), top });
  if (point <= 6) return place(RIGHT_X + (6 - point) * POINT_W, false);
  if (point <= 12) return place(LEFT_X + (12 - point) * POINT_W, false);
  if (point <= 18) return place(LEFT_X + (point - 13) * POINT_W, true);
  return place(RIGHT_X + (point - 19) * POINT_W, true);
}

function stackY(top, index) {
  return top ? TOP + R + index * 2 * R : BOTTOM - R - index * 2 * R;
}

function escapeText(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

/** Who holds a place's checkers, as its label says it: "2 checkers of Alice", or "empty". */
function holding(count, who) {
  if (!count) return _("empty");
  return format(ngettext("%(count)s checker of %(name)s", "%(count)s checkers of %(name)s", count), { count, name: who });
}

function defs() {
  const gradients = Object.entries(PALETTE)
    .map(
      ([name, p]) => `
    <radialGradient id="ck-${name}" cx="38%" cy="32%" r="75%">
      <stop offset="0" stop-color="${p.light}"/>
      <stop offset=".55" stop-color="${p.base}"/>
      <stop offset="1" stop-color="${p.dark}"/>
    </radialGradient>`,
    )
    .join("");
  return `<defs>
    ${gradients}
    <linearGradient id="wood" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#9c6634"/>
      <stop offset=".5" stop-color="#8b5a2b"/>
      <stop offset="1" stop-color="#6e431d"/>
    </linearGradient>
    <linearGradient id="bar-wood" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#6a401b"/>
      <stop offset=".5" stop-color="#835427"/>
      <stop offset="1" stop-color="#6a401b"/>
    </linearGradient>
    <radialGradient id="felt" cx="50%" cy="50%" r="75%">
      <stop offset="0" stop-color="#17614a"/>
      <stop offset="1" stop-color="#0f3d2e"/>
    </radialGradient>
    <linearGradient id="point-light" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#f4e9cf"/>
      <stop offset="1" stop-color="#e3d3ae"/>
    </linearGradient>
    <linearGradient id="point-dark" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#c0392f"/>
      <stop offset="1" stop-color="#9a241c"/>
    </linearGradient>
    <pattern id="grain" width="160" height="14" patternUnits="userSpaceOnUse">
      <path d="M0 4 C40 2 80 7 160 4 M0 10 C50 12 110 8 160 11" stroke="rgba(0,0,0,.09)" stroke-width="1.4" fill="none"/>
    </pattern>
    <filter id="lift" x="-30%" y="-30%" width="160%" height="170%">
      <feDropShadow dx="0" dy="2.5" stdDeviation="2" flood-color="#000" flood-opacity=".45"/>
    </filter>
    <filter id="glow" x="-50%" y="-50%" width="200%" height="200%">
      <feDropShadow dx="0" dy="0" stdDeviation="4" flood-color="#f5c96a" flood-opacity=".95"/>
    </filter>
  </defs>`;
}

function frame(model) {
  const field = (x) => across(model, x, 6 * POINT_W);
  const bar = across(model, BAR_X, BAR_W);
  const tray = across(model, TRAY_X, TRAY_W);
  return `
  <rect class="frame" x="0" y="0" width="${W}" height="${H}" rx="16" fill="url(#wood)"/>
  <rect x="0" y="0" width="${W}" height="${H}" rx="16" fill="url(#grain)"/>
  <rect class="field" x="${field(LEFT_X)}" y="${TOP}" width="${6 * POINT_W}" height="${BOTTOM - TOP}" fill="url(#felt)"/>
  <rect class="field" x="${field(RIGHT_X)}" y="${TOP}" width="${6 * POINT_W}" height="${BOTTOM - TOP}" fill="url(#felt)"/>
  <rect class="bar" x="${bar}" y="${TOP - 6}" width="${BAR_W}" height="${BOTTOM - TOP + 12}" fill="url(#bar-wood)"/>
  <rect x="${bar}" y="${TOP - 6}" width="${BAR_W}" height="${BOTTOM - TOP + 12}" fill="url(#grain)"/>
  <line x1="${bar + BAR_W / 2}" y1="${TOP}" x2="${bar + BAR_W / 2}" y2="${BOTTOM}" stroke="rgba(0,0,0,.25)" stroke-width="2"/>
  <rect class="tray" x="${tray}" y="${TOP}" width="${TRAY_W}" height="${MID - TOP - 8}" rx="6" fill="#0b2f23"/>
  <rect class="tray" x="${tray}" y="${MID + 8}" width="${TRAY_W}" height="${BOTTOM - MID - 8}" rx="6" fill="#0b2f23"/>
  <rect x="${field(LEFT_X)}" y="${TOP}" width="${6 * POINT_W}" height="${BOTTOM - TOP}" fill="none" stroke="rgba(0,0,0,.45)" stroke-width="2"/>
  <rect x="${field(RIGHT_X)}" y="${TOP}" width="${6 * POINT_W}" height="${BOTTOM - TOP}" fill="none" stroke="rgba(0,0,0,.45)" stroke-width="2"/>
  <rect x="${tray}" y="${TOP}" width="${TRAY_W}" height="${MID - TOP - 8}" rx="6" fill="none" stroke="rgba(0,0,0,.5)" stroke-width="2"/>
  <rect x="${tray}" y="${MID + 8}" width="${TRAY_W}" height="${BOTTOM - MID - 8}" rx="6" fill="none" stroke="rgba(0,0,0,.5)" stroke-width="2"/>`;
}

function checker(colour, cx, cy, { label = "", owner, ring = "" } = {}) {
  const p = palette(colour);
  const ringMark =
    ring === "selected"
      ? `<circle cx="${cx}" cy="${cy}" r="${R + 1}" fill="none" stroke="#f5c96a" stroke-width="5" filter="url(#glow)"/>`
      : ring === "movable"
        ? `<circle class="movable-ring" cx="${cx}" cy="${cy}" r="${R - 1}" fill="none" stroke="#f5c96a" stroke-width="3" stroke-dasharray="6 5"/>`
        : "";
  const text = label
    ? `<text x="${cx}" y="${cy + 8}" text-anchor="middle" class="stack-count" fill="${p.text}">${label}</text>`
    : "";
  return `<g data-checker="${owner}" class="checker checker-${colour}" filter="url(#lift)">
    <circle cx="${cx}" cy="${cy}" r="${R - 1}" fill="url(#ck-${colour})" stroke="${p.edge}" stroke-width="1.5"/>
    <circle cx="${cx}" cy="${cy}" r="${Math.round(R * 0.64)}" fill="none" stroke="${p.ring}" stroke-width="2"/>
    ${text}${ringMark}</g>`;
}

function ownerOf(count) {
  return count > 0 ? "viewer" : "opponent";
}

function drawPoint(model, point) {
  const { x, top } = pointPlace(model, point);
  const count = model.points[point - 1];
  const n = Math.abs(count);
  const colour = count > 0 ? model.colours.bottom : model.colours.top;
  const tipY = top ? TOP + POINT_H : BOTTOM - POINT_H;
  const baseY = top ? TOP : BOTTOM;
  const fill = point % 2 === 0 ? "url(#point-light)" : "url(#point-dark)";
  const isDestination = model.destinations.has(point);
  const isSelected = model.selected === point;
  const isMovable = model.showHints && model.selected === null && model.movable.has(point);
  const clickable = model.interactive && (count > 0 || isDestination || model.selected !== null);

  let body = `<path class="triangle" d="M${x - POINT_W / 2 + 2} ${baseY} L${x + POINT_W / 2 - 2} ${baseY} L${x} ${tipY} Z" fill="${fill}"/>`;
  if (isDestination && model.showHints) {
    body += `<rect class="destination-column" x="${x - POINT_W / 2 + 1}" y="${top ? TOP : MID}" width="${POINT_W - 2}" height="${MID - TOP}"/>
      <path class="destination" d="M${x - POINT_W / 2 + 3} ${baseY} L${x + POINT_W / 2 - 3} ${baseY} L${x} ${tipY} Z"/>`;
  }
  body += `<rect class="hit-area" x="${x - POINT_W / 2}" y="${top ? TOP : MID}" width="${POINT_W}" height="${MID - TOP}" fill="transparent"/>`;
  const shown = Math.min(n, STACK);
  for (let index = 0; index < shown; index += 1) {
    const last = index === shown - 1;
    body += checker(colour, x, stackY(top, index), {
      owner: ownerOf(count),
      label: last && n > STACK ? String(n) : "",
      ring: last && isSelected ? "selected" : last && isMovable ? "movable" : "",
    });
  }
  if (isDestination && model.showHints) {
    const landing = count === -1 ? 0 : Math.min(Math.max(count, 0), STACK - 1);
    body += `<circle class="landing" cx="${x}" cy="${stackY(top, landing)}" r="${R - 4}"/>`;
  }
  const who = count > 0 ? model.names.bottom : model.names.top;
  let label = format(_("Point %(point)s: %(holding)s"), { point, holding: holding(n, who) });
  if (isSelected) label += _(", picked up");
  if (isDestination && model.showHints) label += _(", you may move here");
  return group(point, label, body, { clickable, destination: isDestination && model.showHints, extra: `data-count="${count}"` });
}

function group(point, label, body, { clickable, destination = false, extra = "" }) {
  const classes = ["spot"];
  if (clickable) classes.push("clickable");
  if (destination) classes.push("is-destination");
  const focus = clickable ? ` tabindex="0" role="button"` : "";
  return `<g class="${classes.join(" ")}" data-point="${point}" ${extra} aria-label="${escapeText(label)}"${focus}>${body}</g>`;
}

function drawBar(model) {
  const x = across(model, BAR_X + BAR_W / 2);
  // The viewer enters into the top right quarter, so their bar checkers wait in the top half.
  const mine = model.bar[0];
  const isSelected = model.selected === 25;
  const isMovable = model.showHints && model.selected === null && model.movable.has(25);
  let body = `<rect class="hit-area" x="${across(model, BAR_X, BAR_W)}" y="${TOP}" width="${BAR_W}" height="${MID - TOP}" fill="transparent"/>`;
  const shown = Math.min(mine, BAR_STACK);
  for (let index = 0; index < shown; index += 1) {
    const last = index === shown - 1;
    body += checker(model.colours.bottom, x, MID - 36 - R - index * 2 * R, {
      owner: "viewer",
      label: last && mine > BAR_STACK ? String(mine) : "",
      ring: last && isSelected ? "selected" : last && isMovable ? "movable" : "",
    });
  }
  const clickable = model.interactive && mine > 0;
  const label = format(_("Bar: %(holding)s"), { holding: holding(mine, model.names.bottom) }) + (isSelected ? _(", picked up") : "");
  let out = group(25, label, body, { clickable, extra: `data-count="${mine}"` });

  const theirs = model.bar[1];
  let opponent = "";
  const shownTheirs = Math.min(theirs, BAR_STACK);
  for (let index = 0; index < shownTheirs; index += 1) {
    const last = index === shownTheirs - 1;
    opponent += checker(model.colours.top, x, MID + 36 + R + index * 2 * R, {
      owner: "opponent",
      label: last && theirs > BAR_STACK ? String(theirs) : "",
    });
  }
  const theirLabel = format(_("Bar: %(holding)s"), { holding: holding(theirs, model.names.top) });
  out += `<g class="spot" data-bar="opponent" data-count="${theirs}" aria-label="${escapeText(theirLabel)}">${opponent}</g>`;
  return out;
}

function slabs(model, colour, count, fromTop) {
  const p = palette(colour);
  let out = "";
  for (let index = 0; index < count; index += 1) {
    const y = fromTop ? TOP + 6 + index * (SLAB_H + 2) : BOTTOM - 6 - SLAB_H - index * (SLAB_H + 2);
    out += `<rect class="slab" x="${across(model, TRAY_X + 8, TRAY_W - 16)}" y="${y}" width="${TRAY_W - 16}" height="${SLAB_H}" rx="4" fill="url(#ck-${colour})" stroke="${p.edge}" stroke-width="1"/>`;
  }
  return out;
}

function drawTrays(model) {
  const centre = across(model, TRAY_X + TRAY_W / 2);
  const isDestination = model.destinations.has(0);
  let mine = `<rect class="hit-area" x="${across(model, TRAY_X, TRAY_W)}" y="${MID + 8}" width="${TRAY_W}" height="${BOTTOM - MID - 8}" fill="transparent"/>`;
  if (isDestination && model.showHints) {
    mine += `<rect class="destination tray-destination" x="${across(model, TRAY_X + 2, TRAY_W - 4)}" y="${MID + 10}" width="${TRAY_W - 4}" height="${BOTTOM - MID - 12}" rx="6"/>`;
  }
  mine += slabs(model, model.colours.bottom, model.off[0], false);
  if (model.off[0]) {
    mine += `<text class="tray-count" x="${centre}" y="${BOTTOM - 14 - model.off[0] * (SLAB_H + 2)}" text-anchor="middle">${model.off[0]}</text>`;
  }
  if (model.pips) {
    mine += `<text class="pip-label" x="${centre}" y="${MID + 34}" text-anchor="middle">${escapeText(_("PIPS"))}</text>
      <text class="pip-count" x="${centre}" y="${MID + 58}" text-anchor="middle">${model.pips[0]}</text>`;
  }
  const borne = (count, who) => format(ngettext("Borne off: %(count)s checker of %(name)s", "Borne off: %(count)s checkers of %(name)s", count), { count, name: who });
  const label = borne(model.off[0], model.names.bottom) + (isDestination && model.showHints ? _(", you may bear off here") : "");
  let out = group(0, label, mine, {
    clickable: model.interactive && model.selected !== null,
    destination: isDestination && model.showHints,
    extra: `data-count="${model.off[0]}"`,
  });

  let theirs = slabs(model, model.colours.top, model.off[1], true);
  if (model.off[1]) {
    theirs += `<text class="tray-count" x="${centre}" y="${TOP + 26 + model.off[1] * (SLAB_H + 2)}" text-anchor="middle">${model.off[1]}</text>`;
  }
  if (model.pips) {
    theirs += `<text class="pip-count" x="${centre}" y="${MID - 40}" text-anchor="middle">${model.pips[1]}</text>
      <text class="pip-label" x="${centre}" y="${MID - 22}" text-anchor="middle">${escapeText(_("PIPS"))}</text>`;
  }
  out += `<g class="spot" data-tray="opponent" data-count="${model.off[1]}" aria-label="${escapeText(borne(model.off[1], model.names.top))}">${theirs}</g>`;
  return out;
}

function drawNumbers(model) {
  let out = "";
  for (let point = 1; point <= 24; point += 1) {
    const { x, top } = pointPlace(model, point);
    const recent = model.recent.has(point) ? " recent" : "";
    out += `<text class="point-number${recent}" x="${x}" y="${top ? 20 : H - 8}" text-anchor="middle" aria-hidden="true">${point}</text>`;
    if (recent) {
      out += `<rect class="recent-mark" x="${x - POINT_W / 2 + 6}" y="${top ? TOP - 3 : BOTTOM}" width="${POINT_W - 12}" height="3" rx="1.5"/>`;
    }
  }
  return out;
}

const PIP_SPOTS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function die(colour, value, cx, cy, size, used) {
  const p = palette(colour);
  const offset = size * 0.26;
  const spots = (PIP_SPOTS[value] || [])
    .map(([dx, dy]) => `<circle cx="${cx + dx * offset}" cy="${cy + dy * offset}" r="${size * 0.085}" fill="${p.pip}"/>`)
    .join("");
  return `<g class="die${used ? " die-used" : ""}" data-value="${value}" data-used="${used}" filter="url(#lift)">
    <rect x="${cx - size / 2}" y="${cy - size / 2}" width="${size}" height="${size}" rx="${size * 0.18}" fill="url(#ck-${colour})" stroke="${p.edge}" stroke-width="1.5"/>
    ${spots}</g>`;
}

/** The middle of the viewer's half (their home board's side) or the opponent's. */
function halfCentre(model, side) {
  return across(model, side === "bottom" ? RIGHT_X + 3 * POINT_W : LEFT_X + 3 * POINT_W);
}

function drawDice(model) {
  const dice = model.dice;
  if (!dice || !dice.values || !dice.values.length) return "";
  const colour = dice.side === "bottom" ? model.colours.bottom : model.colours.top;
  const values = dice.values;
  const size = values.length > 2 ? 48 : 56;
  const gap = values.length > 2 ? 10 : 16;
  const width = values.length * size + (values.length - 1) * gap;
  const start = halfCentre(model, dice.side) - width / 2 + size / 2;
  const body = values
    .map((value, index) => die(colour, value, start + index * (size + gap), MID, size, Boolean(dice.used && dice.used[index])))
    .join("");
  const spoken = format(_("Dice: %(first)s and %(second)s"), { first: values[0], second: values[1] });
  return `<g data-testid="dice" data-dice="${values.slice(0, 2).join(",")}" data-side="${dice.side}" role="img" aria-label="${spoken}">${body}</g>`;
}

/** Where a cube in `place` rests on the bar: its centre. */
function cubeCentre(model, cube) {
  if (cube.offered) return { cx: halfCentre(model, cube.place === "bottom" ? "bottom" : "top"), cy: MID };
  const cx = across(model, BAR_X + BAR_W / 2);
  if (cube.place === "top") return { cx, cy: TOP + CUBE / 2 + 6 };
  if (cube.place === "bottom") return { cx, cy: BOTTOM - CUBE / 2 - 6 };
  return { cx, cy: MID };
}

function drawCube(model) {
  const cube = model.cube;
  if (!cube) return "";
  const { cx, cy } = cubeCentre(model, cube);
  const shown = cube.value === 1 && cube.place === "centre" ? 64 : cube.value;
  const font = shown >= 100 ? 22 : 28;
  const owner = cube.place === "bottom" ? model.names.bottom : model.names.top;
  const spoken = format(
    cube.offered
      ? _("Doubling cube offered at %(value)s")
      : cube.place === "centre"
        ? _("Doubling cube in the middle at %(value)s")
        : _("Doubling cube at %(value)s, owned by %(name)s"),
    { value: cube.value, name: owner },
  );
  return `<g data-testid="cube" class="cube${cube.offered ? " cube-offered" : ""}" data-value="${cube.value}" data-place="${cube.place}" role="img" aria-label="${escapeText(spoken)}">
    <rect x="${cx - CUBE / 2}" y="${cy - CUBE / 2}" width="${CUBE}" height="${CUBE}" rx="9" fill="#f7f3ea" stroke="#b8a98a" stroke-width="2" filter="url(#lift)"/>
    <rect x="${cx - CUBE / 2 + 5}" y="${cy - CUBE / 2 + 5}" width="${CUBE - 10}" height="${CUBE - 10}" rx="6" fill="none" stroke="rgba(15,61,46,.25)" stroke-width="1.5"/>
    <text x="${cx}" y="${cy + font * 0.36}" text-anchor="middle" class="cube-value" font-size="${font}">${shown}</text>
  </g>`;
}

/** The match cube: gold, marked "MATCH", beside the game cube (see `matchCube` above). */
function drawMatchCube(model) {
  const cube = model.matchCube;
  if (!cube) return "";
  let { cx, cy } = cubeCentre(model, cube);
  const game = model.cube && !model.cube.offered ? model.cube.place : null;
  if (!cube.offered && game === cube.place) {
    if (cube.place === "centre") cx = across(model, BAR_X - 8 - CUBE / 2);
    else cy += (cube.place === "top" ? 1 : -1) * (CUBE + 8);
  }
  const owner = cube.place === "bottom" ? model.names.bottom : model.names.top;
  const spoken = format(
    cube.offered
      ? _("Match cube offered at %(value)s")
      : cube.place === "centre"
        ? _("Match cube in the middle at %(value)s")
        : _("Match cube at %(value)s, owned by %(name)s"),
    { value: cube.value, name: owner },
  );
  return `<g data-testid="match-cube" class="cube match-cube${cube.offered ? " cube-offered" : ""}" data-value="${cube.value}" data-place="${cube.place}" role="img" aria-label="${escapeText(spoken)}">
    <rect x="${cx - CUBE / 2}" y="${cy - CUBE / 2}" width="${CUBE}" height="${CUBE}" rx="9" fill="#f5c96a" stroke="#8a6414" stroke-width="2" filter="url(#lift)"/>
    <text x="${cx}" y="${cy - 13}" text-anchor="middle" class="match-cube-label">${escapeText(_("MATCH"))}</text>
    <text x="${cx}" y="${cy + 19}" text-anchor="middle" class="cube-value" font-size="26">${cube.value}</text>
  </g>`;
}

function drawResignation(model) {
  const offer = model.resignation;
  if (!offer) return "";
  const cx = halfCentre(model, offer.side);
  const width = 250;
  const left = cx - width / 2;
  const words = {
    single: [_("Offers to resign single"), _("Resigns a single")],
    gammon: [_("Offers to resign gammon"), _("Resigns a gammon")],
    backgammon: [_("Offers to resign backgammon"), _("Resigns a backgammon")],
  }[offer.level] || [`Offers to resign ${offer.level}`, `Resigns ${offer.level}`];
  return `<g class="resign-flag" role="img" aria-label="${escapeText(words[0])}">
    <rect x="${left}" y="${MID - 28}" width="${width}" height="56" rx="10" fill="#f7f3ea" stroke="#b8a98a" stroke-width="2" filter="url(#lift)"/>
    <path d="M${left + 24} ${MID + 15} V${MID - 15} M${left + 24} ${MID - 15} h24 l-7 8 l7 8 h-24" stroke="#1d2521" stroke-width="2.5" fill="#ffffff" stroke-linejoin="round"/>
    <text x="${left + 62}" y="${MID + 7}" class="flag-text">${escapeText(words[1])}</text>
  </g>`;
}

function drawNotice(model) {
  if (!model.notice) return "";
  const width = Math.min(W - 160, 60 + model.notice.length * 13);
  // A short notice sits in the left half, clear of the cube on the bar.
  const cx = width <= 6 * POINT_W - 16 ? halfCentre(model, "top") : across(model, (FIELD_END + LEFT_X) / 2);
  return `<g class="board-notice" aria-hidden="true">
    <rect x="${cx - width / 2}" y="${MID - 30}" width="${width}" height="60" rx="12" fill="rgba(8,30,22,.82)" stroke="rgba(217,164,65,.7)" stroke-width="2"/>
    <text x="${cx}" y="${MID + 8}" text-anchor="middle" class="notice-text">${escapeText(model.notice)}</text>
  </g>`;
}

/** Fill the defaults a caller may leave out. */
function complete(model) {
  return {
    bar: [0, 0],
    off: [0, 0],
    colours: { bottom: "white", top: "black" },
    names: { bottom: _("you"), top: _("your opponent") },
    dice: null,
    cube: null,
    matchCube: null,
    pips: null,
    interactive: false,
    showHints: true,
    selected: null,
    resignation: null,
    notice: null,
    flipped: false,
    ...model,
    movable: model.movable || new Set(),
    destinations: model.destinations || new Set(),
    recent: model.recent || new Set(),
  };
}

function boardMarkup(input) {
  const model = complete(input);
  let points = "";
  for (let point = 1; point <= 24; point += 1) points += drawPoint(model, point);
  return `${defs()}${frame(model)}${drawNumbers(model)}
    <g class="points">${points}</g>
    ${drawBar(model)}${drawTrays(model)}${drawCube(model)}${drawMatchCube(model)}${drawDice(model)}${drawResignation(model)}${drawNotice(model)}`;
}

/** Draw `model` into `svg`, replacing what was there. */
export function renderBoard(svg, model) {
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.classList.toggle("is-interactive", Boolean(model.interactive));
  svg.innerHTML = boardMarkup(model);
}

/** The starting position, for a board whose first game has not begun. */
export function startingPosition() {
  const points = new Array(24).fill(0);
  Object.assign(points, { 23: 2, 12: 5, 7: 3, 5: 5 });
  Object.assign(points, { 0: -2, 11: -5, 16: -3, 18: -5 });
  return { points, bar: [0, 0], off: [0, 0] };
}
