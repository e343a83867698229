// The analysis board: a view of its own over the board (the game stays as it is), opened
// on the position shown (live, browsed, watched or finished) or on a VPN. Actions are
// played off the game's line by clicks, kept as a tree of variations (each a click
// away, Left and Right walk it); the engine's principal line and every army's chance for
// the position on this board come as the search deepens (POST /api/analyse with the
// root and the moves, GET /api/analysis), and it can be stopped. The server judges
// each action: one that is not legal there is refused and said, and the tree keeps it not.
import { $, pause } from "./state.js";
import { api } from "./connection.js";
import { showFrame, describeCells, drawArrows, drawCells } from "./board.js";
/** @typedef {import("./state.js").State} State */

const KINDS = { T: "Templar", U: "Teutonic", B: "Byzantine", X: "Excalibur", H: "Hospitaller", K: "King", Q: "Queen" };

// The tree: nodes {id, action, parent, children, position}; the root's position is the
// one opened. ``at`` the node shown.
function newTree(source) {
  const root = { id: 0, action: null, parent: null, children: [], position: null };
  return { source, nodes: [root], at: root, picked: null, found: null, asked: 0, running: false, error: "" };
}

function pathOf(node) {
  const moves = [];
  for (let n = node; n.parent; n = n.parent) moves.unshift(n.action);
  return moves;
}

/** @param {State} st */
export function boardOpen(st) { return st.board !== null; }

// Open the board on the position shown (or on ``vpn``).
/** @param {State} st */
export async function openBoard(st, vpn = null) {
  const S = st.S;
  if (!S) return;
  let source;
  if (vpn !== null) source = { vpn };
  else if (S.mode === "watch") source = { at: S.watch.index };
  else if (S.browse) source = { at: S.browse.index };
  else source = { at: st.logTurns.reduce((n, t) => n + t.actions.length, 0) };
  st.board = newTree(source);
  $("analysis-board").hidden = false;
  st.redraw();                                // (the live evaluation pauses meanwhile)
  $("ab-vpn-in").value = "";
  if (!st.shapes) {
    try { st.shapes = await api(st, "/api/pieces"); } catch (e) { st.board.error = e.message; }
  }
  const frame = st.frames.get(st.frameKey);
  showFrame(st, $("ab-board"), frame);
  for (const layer of $("ab-board").querySelectorAll(".analysis-layer, .coord-layer")) layer.remove();
  await ask(st);
  /** @type {SVGElement | null} */ ($("ab-board").querySelector(".cell"))?.focus();
}

/** @param {State} st */
export function closeBoard(st) {
  if (!st.board) return;
  st.board = null;
  $("analysis-board").hidden = true;
  api(st, "/api/analyse", { stop: true }).catch(() => {});
  st.redraw();
  $("analyse").focus();
}

// Ask the server for the analysis of the node shown; the answer's position draws the
// board. ``node`` a new node not yet in the tree: kept only once the server took it.
/** @param {State} st */
async function ask(st, node = null) {
  const tree = st.board;
  const target = node || tree.at;
  const body = { ...tree.source, moves: pathOf(target) };
  const asked = ++tree.asked;
  tree.error = "";
  try {
    await api(st, "/api/analyse", body);
  } catch (e) {
    if (st.board !== tree) return;
    tree.error = e.message;
    tree.picked = null;
    drawTree(st);
    return;
  }
  if (node) { node.parent.children.push(node); node.id = tree.nodes.length; tree.nodes.push(node); }
  tree.at = target;
  tree.picked = null;
  tree.found = null;
  tree.running = true;
  drawTree(st);
  // The search deepens: each round's result drawn as it comes, until it is done or stopped.
  let serial = -1;
  while (st.board === tree && tree.asked === asked) {
    let found;
    try { found = await api(st, "/api/analysis"); } catch (e) { tree.error = e.message; break; }
    if (st.board !== tree || tree.asked !== asked) return;
    if (found.serial !== serial) {
      serial = found.serial;
      if (found.placement) { target.position = found; tree.found = found; drawTree(st); }
    }
    if (found.status !== "running") { tree.running = false; tree.found = found.placement ? found : tree.found; break; }
    await pause(200);
  }
  drawTree(st);
}

/** @param {State} st */
export async function stopEngine(st) {
  const tree = st.board;
  if (!tree) return;
  tree.asked += 1;                            // (the loop above stops reading)
  try { await api(st, "/api/analyse", { stop: true }); } catch (e) { tree.error = e.message; }
  tree.running = false;
  try {
    const found = await api(st, "/api/analysis");
    if (found.placement && tree.at.position && found.placement === tree.at.position.placement) tree.found = found;
  } catch (e) { /* the last result drawn stays */ }
  drawTree(st);
}

/** @param {State} st */
export function startEngine(st) { if (st.board) ask(st); }

// Go to a node of the tree (its position drawn at once when known, analysed again).
/** @param {State} st */
function goTo(st, node) {
  const tree = st.board;
  if (!node || node === tree.at) return;
  tree.at = node;
  tree.picked = null;
  tree.found = node.position;
  drawTree(st);
  ask(st);
}

// The cells of the position shown: {label: code}.
function cellsOf(position) {
  const cells = {};
  if (!position || !position.placement || position.placement === "-") return cells;
  for (const entry of position.placement.split(",")) {
    const [label, code] = entry.split(":");
    cells[label] = code;
  }
  return cells;
}

/** @param {State} st */
function drawPieces(st, box, cells, last) {
  const layer = box.querySelector(".position");
  const centres = st.centres.get(st.frameKey) || [];
  if (!layer || !st.shapes) return;
  const where = new Map(centres.map(([label, x, y]) => [label, [x, y]]));
  const shapes = st.shapes.shapes, size = st.shapes.size;
  let html = "";
  if (last && where.has(last[0]) && where.has(last[1])) {
    const [[x1, y1], [x2, y2]] = [where.get(last[0]), where.get(last[1])];
    html += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${st.shapes.last_move}" stroke-width="${(size / 10).toFixed(1)}" opacity="0.8"/>`;
  }
  for (const [label, [x, y]] of where) {
    const code = cells[label];
    if (!code) continue;
    html += `<g class="piece" data-cell="${label}" data-army="${code[0]}" transform="translate(${x},${y})">` +
      `${shapes[code] || `<title>${pieceWords(st, code)}</title>`}</g>`;
  }
  layer.innerHTML = html;
  layer.setAttribute("aria-hidden", "true");
}

/** @param {State} st */
function pieceWords(st, code) {
  const royal = code.includes("+");
  const edge = code[2] === "w" ? ", white edge" : code[2] === "b" ? ", black edge" : "";
  return `${st.meta.seatNames[Number(code[0])]} ${royal ? "royal " : ""}${KINDS[code[1]]} (${st.meta.markNames[Number(code[0])]})${edge}`;
}

// Everything the analysis board shows, from its tree.
/** @param {State} st */
export function drawTree(st) {
  const tree = st.board;
  if (!tree) return;
  const box = $("ab-board"), node = tree.at, position = node.position;
  const cells = cellsOf(position);
  const labels = new Set((st.centres.get(st.frameKey) || []).map(([label]) => label));
  if (Object.keys(cells).some((label) => !labels.has(label))) {
    tree.error = "this position is of another board than the game's: open it from a game on its board";
  }
  const last = node.action && /^([a-z]\d+)[-x]([a-z]\d+)$/.exec(node.action);
  drawPieces(st, box, cells, last ? [last[1], last[2]] : null);
  const toMove = position ? position.to_move : null;
  const origins = toMove === null ? [] : Object.entries(cells).filter(([, c]) => Number(c[0]) === toMove).map(([l]) => l);
  drawCells(st, box, { legs: origins.map((l) => [l, l, ""]), selected: tree.picked, cursor: tree.picked || /** @type {SVGElement | null} */ (box.querySelector(".cell:focus"))?.dataset.cell });
  for (const cell of box.querySelectorAll(".cell.target")) cell.classList.remove("target");
  describeCells(box, tree.picked);
  // the engine's line, its first action as an arrow
  const found = tree.found;
  drawArrows(box, found && found.line ? found.line.filter((a) => a.cells && a.cells.length === 2).slice(0, 3).map((a) => a.cells) : [], "ab-arrows");
  $("ab-status").textContent = tree.error ? tree.error :
    !position ? "analysing..." :
    position.over ? "the game is over in this position" :
    `${st.meta.seatNames[toMove]} to act, round ${position.round}, ${position.phase === "start" ? "start of the turn" : position.phase === "move" ? "second leg" : "bonus move"}` +
    (tree.picked ? `: ${tree.picked} picked, click where it goes` : "");
  $("ab-engine").textContent = !found ? (tree.running ? "searching..." : "") :
    `${tree.running ? "searching" : found.status === "stopped" ? "stopped" : "done"}, depth ${found.depth}` +
    (found.line && found.line.length ? `: ${found.line.map((a) => `${st.meta.seatNames[a.seat]} ${a.action}`).join(", ")}` : "");
  $("ab-stop").disabled = !tree.running;
  $("ab-start").disabled = tree.running;
  drawChances(st, found);
  const vpn = position ? position.vpn : null;
  $("ab-vpn").value = vpn || "";
  $("ab-vpn").placeholder = position ? "(no VPN in the middle of a turn)" : "";
  $("ab-copy").disabled = !vpn;
  drawMoves(st);
}

// Every army's chance (a bar each) for the position on the board.
/** @param {State} st */
function drawChances(st, found) {
  const box = $("ab-chances");
  box.replaceChildren();
  if (!found || !found.chances) return;
  found.chances.forEach((c, seat) => {
    if (c === null || c === undefined) return;
    const row = document.createElement("div");
    row.className = "chance";
    row.dataset.seat = seat;
    row.innerHTML = `<span class="chance-name"></span><span class="chance-bar"><span style="width:${(100 * c).toFixed(0)}%;background:${st.meta.seatColors[seat]}"></span></span><span class="chance-value">${Math.round(100 * c)}%</span>`;
    row.firstChild.textContent = st.meta.seatNames[seat];
    box.appendChild(row);
  });
}

// The tree in words: the line from the root, each variation in brackets after the move
// it replaces, each move a button.
/** @param {State} st */
function drawMoves(st) {
  const tree = st.board, list = $("ab-moves");
  list.replaceChildren();
  const rootButton = document.createElement("button");
  rootButton.className = "ab-node" + (tree.at === tree.nodes[0] ? " current" : "");
  rootButton.dataset.node = "0";
  rootButton.textContent = "start";
  list.appendChild(rootButton);
  const line = (node, into) => {
    // node's children: the first continues the line, the others are variations
    let n = node;
    while (n.children.length) {
      const [main, ...others] = n.children;
      into.appendChild(nodeButton(tree, main));
      for (const other of others) {
        const group = document.createElement("span");
        group.className = "ab-variation";
        group.append("(");
        group.appendChild(nodeButton(tree, other));
        line(other, group);
        group.append(")");
        into.appendChild(group);
      }
      n = main;
    }
  };
  line(tree.nodes[0], list);
}

function nodeButton(tree, node) {
  const button = document.createElement("button");
  button.className = "ab-node" + (tree.at === node ? " current" : "");
  button.dataset.node = node.id;
  button.textContent = node.action;
  return button;
}

// A click on the analysis board: pick a piece of the army to act, then its cell.
/** @param {State} st */
function boardClick(st, event) {
  const tree = st.board, cell = event.target.closest(".cell");
  if (!tree || !cell || !tree.at.position) return;
  const label = cell.dataset.cell, cells = cellsOf(tree.at.position);
  const own = cells[label] && Number(cells[label][0]) === tree.at.position.to_move;
  if (tree.picked === null || tree.picked === label) {
    tree.picked = tree.picked === label || !own ? null : label;
    drawTree(st);
    return;
  }
  if (own) { tree.picked = label; drawTree(st); return; }
  playOnBoard(st, `${tree.picked}${cells[label] ? "x" : "-"}${label}`);
}

// An action played on the analysis board: an existing branch is followed, a new one kept
// once the server found it legal.
/** @param {State} st */
export function playOnBoard(st, action) {
  const tree = st.board;
  if (!tree) return;
  const known = tree.at.children.find((n) => n.action === action);
  if (known) { goTo(st, known); return; }
  ask(st, { id: -1, action, parent: tree.at, children: [], position: null });
}

/** @param {State} st */
function boardKey(st, event) {
  const tree = st.board;
  if (!tree) return;
  const keys = {
    Escape: () => (tree.picked ? (tree.picked = null, drawTree(st)) : closeBoard(st)),
    ArrowLeft: () => goTo(st, tree.at.parent),
    ArrowRight: () => goTo(st, tree.at.children[0]),
    Home: () => goTo(st, tree.nodes[0]),
  };
  if (event.target.closest("input")) return;
  if (event.key === "Enter" || event.key === " ") {
    if (event.target.closest("#ab-board .cell")) { event.preventDefault(); event.target.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
    return;
  }
  if (!(event.key in keys)) return;
  event.preventDefault();
  event.stopPropagation();
  keys[event.key]();
}

/** @param {State} st */
export function setUpBoard(st) {
  $("ab-board").addEventListener("click", (event) => boardClick(st, event));
  $("analysis-board").addEventListener("keydown", (event) => boardKey(st, event));
  $("ab-close").addEventListener("click", () => closeBoard(st));
  $("ab-stop").addEventListener("click", () => stopEngine(st));
  $("ab-start").addEventListener("click", () => startEngine(st));
  for (const word of /** @type {const} */ (["stop", "end", "pass"])) $(`ab-${word}-word`).addEventListener("click", () => playOnBoard(st, word));
  $("ab-moves").addEventListener("click", (event) => {
    const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".ab-node"));
    if (button && st.board) goTo(st, st.board.nodes[Number(button.dataset.node)]);
  });
  $("ab-copy").addEventListener("click", async () => {
    const text = $("ab-vpn").value;
    $("ab-vpn").select();
    try { await navigator.clipboard.writeText(text); $("ab-copied").textContent = "copied"; } catch (e) {
      $("ab-copied").textContent = document.execCommand && document.execCommand("copy") ? "copied" : "selected: copy it (Ctrl+C)";
    }
  });
  $("ab-open").addEventListener("submit", (event) => {
    event.preventDefault();
    const vpn = $("ab-vpn-in").value.trim();
    if (vpn) openBoard(st, vpn);
  });
  $("open-board").addEventListener("click", () => openBoard(st));
}
