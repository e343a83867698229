// The analysis board: a view of its own over the board (the game stays as it is), opened
// on the game shown at an action (the game's moves its main line), on a VPN, on a record
// pasted, or on a link naming one of them (?at=, ?vpn=, &moves=). Actions are played off
// the line by clicks on the legal destinations of a picked piece (the server sends the
// legal actions with each position): the board draws the move at once and the server's
// position replaces it. The tree (abtree.js) keeps every variation beside the main line
// (each a click away, Left and Right walk it; promote, delete). The engine's top lines,
// each with its chance, and every army's chance come as the search deepens (POST
// /api/analyse with the node's address, GET /api/analysis), and it can be stopped.
import { $, pause, shownIndex, actionCount } from "./state.js";
import { api } from "./connection.js";
import { showFrame, describeCells, drawArrows, drawCells } from "./board.js";
import {
  newTree, addNode, address, answers, cellsOf, legalLegs, positionOf, promote,
  inVariation, remove, linkOf, readLink,
} from "./abtree.js";
/** @typedef {import("./state.js").State} State */
/** @typedef {import("./abtree.js").TreeNode} TreeNode */

const KINDS = { T: "Templar", U: "Teutonic", B: "Byzantine", X: "Excalibur", H: "Hospitaller", K: "King", Q: "Queen" };

// Open the board: on the game shown at ``what.at`` (default: the position shown), on
// ``what.vpn``, or on a record read by the server (``what.record``: its answer); then
// ``what.moves`` played from there. The tree replaced only once the new one is made.
/**
 * @param {State} st
 * @param {{at?: number, vpn?: string, record?: any, moves?: string[]}} what
 */
export async function openBoard(st, what = {}) {
  const S = st.S;
  if (!S) return;
  let tree;
  if (what.record) tree = newTree("record", what.record.actions, what.record.starts, what.record.actions.length);
  else if (what.vpn !== undefined) tree = newTree("vpn", [], [[0, what.vpn]], 0);
  else {
    const at = what.at ?? shownIndex(st) ?? actionCount(st);
    let read = null;
    try { read = await api(st, "/api/record/read", {}); } catch (e) { read = null; }
    // (no line: the tree starts at the position opened)
    const line = read ? read.actions : null;
    tree = line ? newTree("shown", line, read.starts, at) : newTree("shown", [], [], 0, at);
    if (line && at > line.length) tree.error = `'at' must be a number of actions from 0 to ${line.length}, got ${at}`;
    if (!what.moves && at === (shownIndex(st) ?? actionCount(st))) {
      tree.at.position = { placement: S.placement, to_move: S.to_move, phase: S.phase, round: S.round,
                           over: S.over, vpn: S.vpn, legal: null, provisional: true };
    }
  }
  for (const action of what.moves || []) {
    tree.at = tree.at.children.find((n) => n.action === action) || addNode(tree, tree.at, action);
  }
  st.board = tree;
  $("analysis-board").hidden = false;
  st.redraw();                                // (the live evaluation pauses meanwhile)
  $("ab-vpn-in").value = "";
  if (!st.shapes) {
    try { st.shapes = await api(st, "/api/pieces"); } catch (e) { tree.error = e.message; }
  }
  showFrame(st, $("ab-board"), st.frames.get(st.frameKey));
  for (const layer of $("ab-board").querySelectorAll(".analysis-layer, .coord-layer")) layer.remove();
  drawTree(st);
  await ask(st);
  /** @type {SVGElement | null} */ ($("ab-board").querySelector(".cell"))?.focus();
}

// The board asked by the page's URL (?at= or ?vpn=, with &moves=), once the game is shown.
/** @param {State} st */
export function openLinked(st) {
  if (st.linked) return;
  st.linked = true;
  const asked = readLink(location.search);
  if (!asked) return;
  if ("error" in asked) { $("error").textContent = asked.error; return; }
  openBoard(st, asked);
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

// Ask the server for the analysis of the node shown: its position (with the legal
// actions), then each round of the search, drawn as they come. A node the server
// refuses leaves the tree (said in the status line).
/** @param {State} st */
async function ask(st) {
  const tree = st.board, target = tree.at;
  const body = address(tree, target);
  const asked = ++tree.asked;
  tree.running = true;
  try {
    await api(st, "/api/analyse", body);
  } catch (e) {
    if (st.board !== tree || tree.asked !== asked) return;
    tree.error = e.message;
    tree.running = false;
    // (a variation the server never took: the page's move is taken back)
    if (target.game === null && (!target.position || target.position.provisional)) remove(tree, target);
    drawTree(st);
    return;
  }
  let serial = -1;
  while (st.board === tree && tree.asked === asked) {
    let found;
    try { found = await api(st, "/api/analysis"); } catch (e) { tree.error = e.message; break; }
    if (st.board !== tree || tree.asked !== asked) return;
    if (!answers(found, body)) break;                // (another analysis replaced this one)
    if (found.serial !== serial) {
      serial = found.serial;
      if (found.placement) {
        target.position = found;
        if (tree.at === target) { tree.found = found; drawTree(st); }
      }
    }
    if (found.status === "error") tree.error = found.error;
    if (found.status !== "running") {
      if (found.placement && tree.at === target) tree.found = found;
      break;
    }
    await pause(200);
  }
  if (tree.asked === asked) tree.running = false;
  if (st.board === tree && tree.at === target) drawTree(st);
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
    if (answers(found, address(tree, tree.at)) && found.placement) { tree.found = found; tree.at.position = found; }
  } catch (e) { /* the last result drawn stays */ }
  drawTree(st);
}

/** @param {State} st */
export function startEngine(st) { if (st.board) { st.board.error = ""; ask(st); } }

// Go to a node of the tree: its position drawn at once (the server's if known, else its
// parent's with the action applied), then analysed.
/** @param {State} st */
function goTo(st, node) {
  const tree = st.board;
  if (!node || node === tree.at) return;
  tree.at = node;
  showNode(st);
}

// Draw the node shown, and ask for its analysis once that frame is painted.
/** @param {State} st */
function showNode(st) {
  const tree = st.board, node = tree.at;
  tree.picked = null;
  tree.error = "";
  tree.found = node.position && !node.position.provisional ? node.position : null;
  tree.askDue = true;
  drawTree(st);
}

// The pieces of ``cells`` on the board, and the last move's line: only the pieces that
// changed are touched (a move repaints its two cells, not the board), a piece that moved
// carried to its new cell where it is in the page (not made anew).
/** @param {State} st */
function drawPieces(st, box, cells, last) {
  const layer = box.querySelector(".position");
  const centres = st.centres.get(st.frameKey) || [];
  if (!layer || !st.shapes) return;
  layer.setAttribute("aria-hidden", "true");
  const shapes = st.shapes.shapes, size = st.shapes.size;
  const drawn = new Map([...layer.querySelectorAll(".piece")].map((p) => [p.getAttribute("data-cell"), p]));
  /** @type {Map<string, Element[]>} */
  const spare = new Map();                     // (code: the pieces off their cell)
  for (const [label, piece] of drawn) {
    const code = piece.getAttribute("data-code");
    if (code === cells[label]) continue;
    drawn.delete(label);
    spare.set(code, [...(spare.get(code) || []), piece]);
  }
  let html = "";
  for (const [label, x, y] of centres) {
    const code = cells[label];
    if (!code || drawn.has(label)) continue;
    const piece = spare.get(code)?.pop();
    if (piece) {
      piece.setAttribute("data-cell", label);
      piece.setAttribute("transform", `translate(${x},${y})`);
      continue;
    }
    html += `<g class="piece" data-cell="${label}" data-code="${code}" data-army="${code[0]}" transform="translate(${x},${y})">` +
      `${shapes[code] || `<title>${pieceWords(st, code)}</title>`}</g>`;
  }
  for (const pieces of spare.values()) for (const piece of pieces) piece.remove();
  if (html) layer.insertAdjacentHTML("beforeend", html);
  const ends = last && last.map((label) => centres.find((c) => c[0] === label));
  let line = layer.querySelector(".ab-last");
  if (!ends || !ends[0] || !ends[1]) { line?.remove(); return; }
  if (!line) {
    layer.insertAdjacentHTML("afterbegin", `<line class="ab-last" stroke="${st.shapes.last_move}" stroke-width="${(size / 10).toFixed(1)}" opacity="0.8"/>`);
    line = layer.firstElementChild;
  }
  const [[, x1, y1], [, x2, y2]] = ends;
  for (const [name, value] of Object.entries({ x1, y1, x2, y2 })) line.setAttribute(name, String(value));
}

/** @param {State} st */
function pieceWords(st, code) {
  const royal = code.includes("+");
  const edge = code[2] === "w" ? ", white edge" : code[2] === "b" ? ", black edge" : "";
  return `${st.meta.seatNames[Number(code[0])]} ${royal ? "royal " : ""}${KINDS[code[1]]} (${st.meta.markNames[Number(code[0])]})${edge}`;
}

// Everything the analysis board shows, from its tree: the board at once (a move is drawn
// in the frame after its click), the panel beside it once that frame is painted.
/** @param {State} st */
export function drawTree(st) {
  const tree = st.board;
  if (!tree) return;
  const box = $("ab-board"), node = tree.at, position = positionOf(node);
  const cells = cellsOf(position);
  const labels = new Set((st.centres.get(st.frameKey) || []).map(([label]) => label));
  if (!tree.error && Object.keys(cells).some((label) => !labels.has(label))) {
    tree.error = "this position is of another board than the game's: open it from a game on its board";
  }
  const last = node.action && /^([a-z]\d+)[-x]([a-z]\d+)$/.exec(node.action);
  if (position) drawPieces(st, box, cells, last ? [last[1], last[2]] : null);   // (else the last drawn stays)
  const legs = legalLegs(position);
  drawCells(st, box, { legs, selected: tree.picked, describe: false });
  const found = tree.found;
  drawArrows(box, found && found.line ? found.line.filter((a) => a.cells && a.cells.length === 2).slice(0, 3).map((a) => a.cells) : [], "ab-arrows");
  if (tree.later) return;
  tree.later = true;
  requestAnimationFrame(() => setTimeout(() => {
    tree.later = false;
    if (st.board !== tree) return;
    drawPanel(st);
    if (tree.askDue) { tree.askDue = false; ask(st); }
  }, 0));
}

// The panel beside the board (the status, the engine's words, lines and chances, the move
// list, the VPN and the link) and the cells' words.
/** @param {State} st */
function drawPanel(st) {
  const tree = st.board, node = tree.at, position = positionOf(node), found = tree.found;
  const box = $("ab-board");
  describeCells(box, tree.picked || /** @type {SVGElement | null} */ (box.querySelector(".cell:focus"))?.dataset.cell);
  const legal = (position && position.legal) || [];
  for (const word of /** @type {const} */ (["stop", "end", "pass"])) $(`ab-${word}-word`).disabled = !legal.includes(word);
  $("ab-status").textContent = tree.error ? tree.error :
    !position || position.provisional ? "analysing..." :
    position.over ? "the game is over in this position" :
    `${st.meta.seatNames[position.to_move]} to act, round ${position.round}, ${position.phase === "start" ? "start of the turn" : position.phase === "move" ? "second leg" : "bonus move"}` +
    (tree.picked ? `: ${tree.picked} picked, click where it goes` : "");
  $("ab-engine").textContent = !found ? (tree.running ? "searching..." : "") :
    `${tree.running ? "searching" : found.status === "stopped" ? "stopped" : "done"}, depth ${found.depth}` +
    (found.line && found.line.length ? `: ${found.line.map((a) => `${st.meta.seatNames[a.seat]} ${a.action}`).join(", ")}` : "");
  $("ab-stop").disabled = !tree.running;
  $("ab-start").disabled = tree.running;
  drawChances(st, found);
  drawLines(st, found);
  const vpn = position && !position.provisional ? position.vpn : null;
  $("ab-vpn").value = vpn || "";
  $("ab-vpn").placeholder = position ? "(no VPN in the middle of a turn)" : "";
  $("ab-copy").disabled = !vpn;
  $("ab-link").value = `${location.origin}${location.pathname}${linkOf(tree, node)}`;
  $("ab-promote").disabled = !inVariation(node);
  $("ab-delete").disabled = !node.parent;
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

// The engine's top lines (up to 3, best first): the chance of the army to act's team after
// the line's first action, and the line; a click plays its first action on the board.
/** @param {State} st */
function drawLines(st, found) {
  const list = $("ab-lines");
  list.replaceChildren();
  const team = found && found.team ? found.team.join(", ") : "";
  for (const entry of (found && found.lines) || []) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.className = "ab-line";
    button.dataset.action = entry.action;
    button.title = `play ${entry.action} here (${entry.visits} visits)`;
    const chance = document.createElement("b");
    chance.textContent = `${Math.round(100 * entry.chance)}%`;
    button.append(chance, ` ${entry.line.join(" ")}`);
    item.appendChild(button);
    list.appendChild(item);
  }
  list.setAttribute("aria-label", team ? `the engine's best lines, with ${team}'s chance after each` : "the engine's best lines");
}

// The tree in words: the line from the root, each variation in brackets after the move
// it replaces, each move a button. Made anew only when the tree's shape changed (a move
// shown elsewhere only moves the ``current`` mark).
/** @param {State} st */
function drawMoves(st) {
  const tree = st.board, list = $("ab-moves");
  if (list.dataset.shape !== `${tree.nodes.length}:${tree.shape}`) {
    list.dataset.shape = `${tree.nodes.length}:${tree.shape}`;
    list.replaceChildren();
    const rootButton = nodeButton(tree.nodes[0]);
    rootButton.textContent = "start";
    list.appendChild(rootButton);
    const line = (node, into) => {
      // node's children: the first continues the line, the others are variations
      let n = node;
      while (n.children.length) {
        const [main, ...others] = n.children;
        into.appendChild(nodeButton(main));
        for (const other of others) {
          const group = document.createElement("span");
          group.className = "ab-variation";
          group.append("(");
          group.appendChild(nodeButton(other));
          line(other, group);
          group.append(")");
          into.appendChild(group);
        }
        n = main;
      }
    };
    line(tree.nodes[0], list);
  }
  list.querySelector(".ab-node.current")?.classList.remove("current");
  list.querySelector(`.ab-node[data-node="${tree.at.id}"]`)?.classList.add("current");
}

/** @param {TreeNode} node */
function nodeButton(node) {
  const button = document.createElement("button");
  button.className = "ab-node" + (node.game !== null && node.parent ? " game" : "");
  button.dataset.node = String(node.id);
  button.textContent = node.action;
  return button;
}

// A click on the analysis board: pick a piece that has a legal leg (its destinations
// marked), then one of its destinations.
/** @param {State} st */
function boardClick(st, event) {
  const tree = st.board, cell = event.target.closest(".cell");
  if (!tree || !cell) return;
  const legs = legalLegs(tree.at.position), label = cell.dataset.cell;
  const leg = legs.find((l) => l[0] === tree.picked && l[1] === label);
  if (leg) { playOnBoard(st, `${leg[0]}${leg[2]}${leg[1]}`); return; }
  tree.picked = tree.picked !== label && legs.some((l) => l[0] === label) ? label : null;
  drawTree(st);
}

// An action played on the analysis board: an existing branch is followed, a new one added
// and drawn at once (the server's position replaces it; a refused one leaves the tree).
/** @param {State} st */
export function playOnBoard(st, action) {
  const tree = st.board;
  if (!tree) return;
  const known = tree.at.children.find((n) => n.action === action);
  goTo(st, known || addNode(tree, tree.at, action));
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
  if (event.target.closest("input, textarea")) return;
  if (event.key === "Enter" || event.key === " ") {
    if (event.target.closest("#ab-board .cell")) { event.preventDefault(); event.target.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
    return;
  }
  if (!(event.key in keys)) return;
  event.preventDefault();
  event.stopPropagation();
  keys[event.key]();
}

// A record pasted: read by the server, opened with its moves as the main line; a bad one
// is said in one line, and the board and the text pasted stay as they are.
/** @param {State} st */
async function openRecord(st) {
  const text = $("ab-record-in").value;
  $("ab-record-error").textContent = "";
  if (!text.trim()) { $("ab-record-error").textContent = "paste a game record (its first line is the record's magic line)"; return; }
  let read;
  try { read = await api(st, "/api/record/read", { record: text }); } catch (e) {
    $("ab-record-error").textContent = e.message;
    return;
  }
  if (st.S && read.board !== st.S.board) {
    $("ab-record-error").textContent = `that record is of the ${read.board} board; this board draws the game's (${st.S.board}): open it from a game on its board`;
    return;
  }
  await openBoard(st, { record: read });
}

/** @param {State} st */
async function copyField(st, input, said) {
  input.select();
  try { await navigator.clipboard.writeText(input.value); said.textContent = "copied"; } catch (e) {
    said.textContent = document.execCommand && document.execCommand("copy") ? "copied" : "selected: copy it (Ctrl+C)";
  }
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
  $("ab-lines").addEventListener("click", (event) => {
    const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".ab-line"));
    if (button && st.board) playOnBoard(st, button.dataset.action);
  });
  $("ab-promote").addEventListener("click", () => { if (st.board && promote(st.board, st.board.at)) drawTree(st); });
  $("ab-delete").addEventListener("click", () => {
    if (st.board && remove(st.board, st.board.at)) showNode(st);
  });
  $("ab-copy").addEventListener("click", () => copyField(st, $("ab-vpn"), $("ab-copied")));
  $("ab-link-copy").addEventListener("click", () => copyField(st, $("ab-link"), $("ab-copied")));
  $("ab-open").addEventListener("submit", (event) => {
    event.preventDefault();
    const vpn = $("ab-vpn-in").value.trim();
    if (vpn) openBoard(st, { vpn });
  });
  $("ab-record").addEventListener("submit", (event) => { event.preventDefault(); openRecord(st); });
  $("open-board").addEventListener("click", () => openBoard(st));
}
