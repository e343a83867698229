// The board: the frame and the position the server draws, put in the page; the marks on
// the cells (what can move, where, the last turn), each cell described (screen readers,
// tooltips), the person's own pieces marked, the coordinates over pieces, the last move's
// glide, arrows (the analysis's line) and the board's size. Every function takes the
// board's element, so that the analysis board draws with the same code.
import { $, SVG_NS, legs, personSeats, allySeats, gameKey, actionCount } from "./state.js";
import { premoveCells } from "./premove.js";
/** @typedef {import("./state.js").State} State */

// A new frame (cells, walls, coordinates): its text is decoration for screen readers
// (the cells say it all), hidden from them.
/** @param {State} st */
export function showFrame(st, box, svgText) {
  box.innerHTML = svgText;
  hideDecoration(box);
  fitCells(box);
}

export function showPosition(box, html) {
  const layer = box.querySelector(".position");
  if (!layer) return;
  layer.innerHTML = html;
  layer.setAttribute("aria-hidden", "true");
}

// Everything of the board's picture but the cells' layer is decoration: the pieces'
// letters, the coordinates, the walls. The cells carry the words (describeCells).
function hideDecoration(box) {
  const svg = box.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("aria-label");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "the board");
  for (const child of svg.children) {
    if (child.classList.contains("cell")) continue;
    if (!child.querySelector(".cell")) { child.setAttribute("aria-hidden", "true"); continue; }
    // (a layer holding cells and decoration: the decoration hidden)
    for (const el of child.children) if (!el.classList.contains("cell")) el.setAttribute("aria-hidden", "true");
  }
}

// The marks on the cells: what can move (blue), the piece picked, its destinations and
// captures, the last turn's cells; ``view`` gives the legs and the last turn (the live
// game's, or the analysis board's), and ``view.describe: false`` leaves the cells' words
// to the caller (describeCells: the analysis board's, after the frame). Only the cells
// marked before or now are touched, and a cell's army only where it changed (a move
// costs its few cells, not the board's hundreds).
const MARKS = ["recent", "origin", "selected", "target", "capture", "premove"];
/** @param {State} st */
export function drawCells(st, box, view) {
  const all = view.legs;
  const mine = all.filter((l) => l[0] === view.selected);
  /** @type {Record<string, Set<string>>} */
  const marks = {
    recent: new Set(view.recent || []),
    origin: new Set(all.map((l) => l[0])),
    selected: new Set(view.selected ? [view.selected] : []),
    target: new Set(mine.map((l) => l[1])),
    capture: new Set(mine.filter((l) => l[2].includes("x")).map((l) => l[1])),
    premove: new Set(view.premove || []),
  };
  const cells = new Map([...box.querySelectorAll(".cell")].map((cell) => [cell.getAttribute("data-cell"), cell]));
  const touched = new Set([...box.querySelectorAll(MARKS.map((m) => `.cell.${m}`).join(", "))]
    .map((cell) => cell.getAttribute("data-cell")));
  for (const labels of Object.values(marks)) for (const label of labels) touched.add(label);
  for (const label of touched) {
    const cell = cells.get(label);
    if (cell) for (const m of MARKS) cell.classList.toggle(m, marks[m].has(label));
  }
  const armies = new Map([...box.querySelectorAll(".piece")]
    .map((piece) => [piece.getAttribute("data-cell"), piece.getAttribute("data-army")]));
  for (const cell of box.querySelectorAll(".cell[data-army]")) {
    if (!armies.has(cell.getAttribute("data-cell"))) cell.removeAttribute("data-army");
  }
  for (const [label, army] of armies) {
    const cell = cells.get(label);
    if (cell && cell.getAttribute("data-army") !== army) cell.setAttribute("data-army", army);
  }
  if (view.describe !== false) describeCells(box, view.cursor);
}

// The live game's board.
/** @param {State} st */
export function drawBoard(st) {
  const S = st.S;
  const origins = new Set(legs(st).map((l) => l[0]));
  if (!st.selected && S.phase !== "start" && origins.size === 1) st.selected = [...origins][0];
  const summary = S.summary || [];
  drawCells(st, $("board"), {
    legs: legs(st), selected: st.selected, cursor: st.cursor,
    recent: summary.length ? summary[summary.length - 1].cells : [],
    premove: premoveCells(st),
  });
  markOwnPieces(st, $("board"));
}

// Each cell in words: its label, the piece (its title from the server) and what it can do.
export function describeCells(box, cursor) {
  const pieces = new Map([...box.querySelectorAll(".piece")]
    .map((piece) => [piece.dataset.cell, piece.querySelector("title")?.textContent || "a piece"]));
  const cells = [...box.querySelectorAll(".cell")];
  // One cell is the board's Tab stop: the keyboard's, else a piece that can move.
  const stop = cursor && cells.some((c) => c.dataset.cell === cursor) ? cursor :
    (cells.find((c) => c.classList.contains("origin")) || cells[0])?.dataset.cell;
  for (const cell of cells) {
    const label = cell.dataset.cell;
    const states = [];
    if (cell.classList.contains("selected")) states.push("picked");
    else if (cell.classList.contains("origin")) states.push("can move");
    if (cell.classList.contains("capture")) states.push("can capture there");
    else if (cell.classList.contains("target")) states.push("can go there");
    if (cell.classList.contains("premove")) states.push("premove");
    const words = `${label}: ${pieces.get(label) || "empty"}${states.length ? "; " + states.join(", ") : ""}`;
    if (cell.getAttribute("aria-label") !== words) cell.setAttribute("aria-label", words);
    cell.setAttribute("role", "button");
    let title = cell.querySelector("title");
    if (!title) { title = document.createElementNS(SVG_NS, "title"); cell.appendChild(title); }
    if (title.textContent !== words) title.textContent = words;
    cell.tabIndex = label === stop ? 0 : -1;        // (its ring: CSS .cell:focus-visible)
  }
}

/** @param {State} st */
function markOwnPieces(st, box) {
  const own = personSeats(st).map(String), allies = allySeats(st).map(String);
  for (const piece of box.querySelectorAll(".piece")) {
    piece.classList.toggle("own", own.includes(piece.dataset.army));
    piece.classList.toggle("ally", allies.includes(piece.dataset.army));
  }
}

// With coordinates on, the cells under a piece get their label over it (a small corner
// text with a white halo: the frame's own label is hidden by the piece).
export function drawCoordinates(box, on) {
  const svg = box.querySelector("svg");
  svg?.querySelector(".coord-layer")?.remove();
  if (!svg || !on) return;
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "coord-layer");
  layer.setAttribute("aria-hidden", "true");
  for (const piece of svg.querySelectorAll(".piece")) {
    const cell = svg.querySelector(`.cell[data-cell="${piece.dataset.cell}"]`);
    if (!cell) continue;
    const b = cell.getBBox();
    const text = document.createElementNS(SVG_NS, "text");
    text.setAttribute("x", (b.x + b.width * 0.5).toFixed(1));
    text.setAttribute("y", (b.y + b.height * 0.2).toFixed(1));
    text.setAttribute("text-anchor", "middle");
    text.textContent = piece.dataset.cell;
    layer.appendChild(text);
  }
  svg.appendChild(layer);
}

// Arrows on the board: ``moves`` a list of [from, to] labels, the first drawn boldest
// (the analysis's best move, then the line after it).
export function drawArrows(box, moves, layerClass = "analysis-layer") {
  const svg = box.querySelector("svg");
  svg?.querySelector(`.${layerClass}`)?.remove();
  if (!svg || !moves.length) return;
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", layerClass);
  layer.setAttribute("aria-hidden", "true");
  let html = `<defs><marker id="${layerClass}-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto">` +
    `<path d="M0,0 L10,5 L0,10 Z" fill="#c2185b"/></marker></defs>`;
  moves.forEach(([a, b], k) => {
    const from = svg.querySelector(`.cell[data-cell="${a}"]`), to = svg.querySelector(`.cell[data-cell="${b}"]`);
    if (!from || !to) return;
    const f = from.getBBox(), t = to.getBBox();
    html += `<line class="analysis-arrow${k ? " later" : ""}" marker-end="url(#${layerClass}-head)" ` +
      `x1="${f.x + f.width / 2}" y1="${f.y + f.height / 2}" x2="${t.x + t.width / 2}" y2="${t.y + t.height / 2}"/>`;
  });
  layer.innerHTML = html;
  svg.appendChild(layer);
}

// On a phone the board is at least wide enough for cells of TOUCH_PX (a finger's size): a
// wider board scrolls sideways in its box, centred at first.
const TOUCH_PX = 44;
export function fitCells(box) {
  const svg = box.querySelector("svg"), outer = box.parentElement;
  if (!svg) return;
  svg.style.width = "";
  if (!matchMedia("(max-width: 700px)").matches) return;
  const cell = svg.querySelector(".cell");
  if (!cell) return;
  const r = cell.getBoundingClientRect(), small = Math.min(r.width, r.height);
  if (small <= 0 || small >= TOUCH_PX) return;
  svg.style.width = `${Math.ceil(svg.getBoundingClientRect().width * TOUCH_PX / small) + 1}px`;
  outer.scrollLeft = (outer.scrollWidth - outer.clientWidth) / 2;
}

export function pieceAt(box, label) { return box.querySelector(`.piece[data-cell="${label}"]`); }

export function translateOf(piece) {
  const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(piece.getAttribute("transform") || "");
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

// The last move's piece glides from where it was to its cell (160 ms), unless the system
// asks for reduced motion.
/** @param {State} st */
export function glide(st) {
  const S = st.S;
  const key = `${gameKey(st)}:${actionCount(st)}`;
  const first = st.glided === null;
  if (key === st.glided) return;
  st.glided = key;
  if (first || S.browse || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const newest = (S.summary || []).at(-1);
  const turn = st.logTurns[st.logTurns.length - 1];
  const lastAction = turn && turn.actions.length ? turn.actions[turn.actions.length - 1] : "";
  if (!newest || newest.cells.length < 2 || !/[-x]/.test(lastAction)) return;
  const box = $("board");
  const [from, to] = newest.cells.slice(-2);
  const piece = pieceAt(box, to), fromCell = box.querySelector(`.cell[data-cell="${from}"]`);
  const toCell = box.querySelector(`.cell[data-cell="${to}"]`);
  if (!piece || !fromCell || !toCell) return;
  const a = /** @type {SVGGraphicsElement} */ (fromCell).getBBox(), b = /** @type {SVGGraphicsElement} */ (toCell).getBBox();
  const [x, y] = translateOf(piece);
  const dx = a.x + a.width / 2 - (b.x + b.width / 2), dy = a.y + a.height / 2 - (b.y + b.height / 2);
  const start = performance.now();
  piece.classList.add("gliding");
  const step = (now) => {
    const t = Math.min(1, (now - start) / 160), left = 1 - t * (2 - t);      // ease out
    piece.setAttribute("transform", `translate(${x + dx * left},${y + dy * left})`);
    if (t < 1 && piece.isConnected) requestAnimationFrame(step);
    else piece.classList.remove("gliding");
  };
  piece.setAttribute("transform", `translate(${x + dx},${y + dy})`);
  requestAnimationFrame(step);
}
