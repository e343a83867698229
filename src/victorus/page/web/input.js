// Input on the board: a click picks a piece and plays a leg, a piece may be dragged to its
// destination, and the keyboard walks the cells (arrows), picks and drops (Enter or
// Space) and lets go (Escape). During the agents' turns the same gestures queue a
// premove (premove.js); during "learn from your mistakes" they pick the action tried
// (review.js).
import { $, legs } from "./state.js";
import { send } from "./connection.js";
import { pieceAt, translateOf, describeCells } from "./board.js";
import { premoveClick, cancelPremove } from "./premove.js";
import { learnClick, learnOpen } from "./review.js";
/** @typedef {import("./state.js").State} State */

/** @param {State} st */
export async function playFromBoard(st, action) {
  st.sending = true;
  try { await send(st, "/api/play", { action }); } finally { st.sending = false; }
}

/** @param {State} st */
function boardClick(st, event) {
  const cell = event.target.closest(".cell");
  const S = st.S;
  if (!cell || !S || st.sending || st.dropped) return;
  if (st.offline) { $("error").textContent = "the server is not answering: moves wait until it is back"; return; }
  if (S.spectator) { $("error").textContent = "this tab watches: the game is played in another tab (play from this tab to take it)"; return; }
  const label = cell.dataset.cell;
  if (learnClick(st, label)) return;       // (learn from your mistakes: an action tried)
  if (S.mode !== "play") return;
  if (S.browse) { $("error").textContent = "this is a past position: back to the game to play"; return; }
  if (!S.person_to_act) {
    if (premoveClick(st, label)) return;
    $("error").textContent = S.over ? "the game is over; start a new game" :
      `it is ${S.to_move_name}'s turn, played by ${S.seats[S.to_move]}`;
    return;
  }
  const origins = new Set(legs(st).map((l) => l[0]));
  if (st.selected === null || label === st.selected) {
    if (label === st.selected) { st.selected = null; st.redraw(); return; }
    if (origins.has(label)) { st.selected = label; $("error").textContent = ""; st.redraw(); return; }
    $("error").textContent = `no legal leg starts on ${label}; the pieces that can move have a blue ring`;
    return;
  }
  const leg = legs(st).find((l) => l[0] === st.selected && l[1] === label);
  if (leg) { playFromBoard(st, leg[2]); return; }
  if (origins.has(label)) { st.selected = label; $("error").textContent = ""; st.redraw(); return; }
  // Not a legal destination: ask the server anyway, which explains what is legal.
  const text = `${st.selected}${cell.dataset.army !== undefined ? "x" : "-"}${label}`;
  playFromBoard(st, text);
}

// -- keyboard play ----------------------------------------------------------------------
function cellCentres(box) {
  const centres = new Map();
  for (const cell of box.querySelectorAll(".cell")) {
    const r = cell.getBoundingClientRect();
    centres.set(cell.dataset.cell, [r.left + r.width / 2, r.top + r.height / 2]);
  }
  return centres;
}

// The nearest cell in an arrow's direction on screen (the board may be turned): within
// 60 degrees of it, the nearer the better, the straighter the better among equals (up
// and down follow a column; left and right step to the next column).
export function cellToward(box, from, dx, dy) {
  const centres = cellCentres(box);
  const [x0, y0] = centres.get(from);
  let best = null, bestScore = Infinity;
  for (const [label, [x, y]] of centres) {
    const along = (x - x0) * dx + (y - y0) * dy, across = Math.abs((x - x0) * dy - (y - y0) * dx);
    if (along <= 1 || across > along * 1.74) continue;
    const score = Math.hypot(along, across) * (1 + 0.1 * Math.atan2(across, along));
    if (score < bestScore - 0.01) { bestScore = score; best = label; }
  }
  return best;
}

// The keyboard's cell focused: the cursor, else the board's Tab stop (a piece that can
// move, or the first cell).
/** @param {State} st */
export function focusCursor(st) {
  const box = $("board");
  if (!st.cursor || !box.querySelector(`.cell[data-cell="${st.cursor}"]`)) {
    const first = /** @type {SVGElement | null} */ (box.querySelector(".cell.origin") || box.querySelector(".cell"));
    st.cursor = first ? first.dataset.cell : null;
  }
  const cell = /** @type {SVGElement | null} */ (box.querySelector(`.cell[data-cell="${st.cursor}"]`));
  if (cell) { describeCells(box, st.cursor); cell.focus(); }
}

export const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** @param {State} st */
function boardKey(st, event) {
  const S = st.S;
  if (!S || !event.target.closest(".cell")) return;
  if (event.key === "Escape" && cancelPremove(st)) { event.preventDefault(); return; }
  // (A past position or a watched game: the arrows step through the game instead; not
  // during the learn pass, played on its past position: Enter's click is the pass's.)
  if ((S.mode !== "play" || S.browse) && !learnOpen(st)) return;
  if (event.key in ARROWS) {
    event.preventDefault();
    event.stopPropagation();                   // (the page's arrows browse the log)
    const next = cellToward($("board"), st.cursor, ...ARROWS[event.key]);
    if (next) { st.cursor = next; focusCursor(st); }
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    event.stopPropagation();
    event.target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  } else if (event.key === "Escape" && st.selected !== null) {
    st.selected = null;
    st.redraw();
  }
}

// -- drag and drop ------------------------------------------------------------------------
// A piece that can move may be dragged to its destination (the click-click way stays):
// the piece follows the pointer, and the leg is played where it is let go.
/** @param {State} st */
function pointerDown(st, event) {
  const cell = event.target.closest(".cell"), S = st.S;
  if (!cell || !S || !S.person_to_act || S.browse || st.offline || event.button !== 0) return;
  if (!cell.classList.contains("origin")) return;
  const piece = pieceAt($("board"), cell.dataset.cell);
  if (!piece) return;
  st.drag = { from: cell.dataset.cell, piece, origin: translateOf(piece), start: [event.clientX, event.clientY], moved: false };
}

/** @param {State} st */
function pointerMove(st, event) {
  const drag = st.drag;
  if (!drag) return;
  const dx = event.clientX - drag.start[0], dy = event.clientY - drag.start[1];
  if (!drag.moved && Math.hypot(dx, dy) < 6) return;
  if (!drag.moved) {
    drag.moved = true;
    st.selected = drag.from;
    st.redraw();                                 // its destinations light up
    drag.piece = pieceAt($("board"), drag.from) || drag.piece;
    drag.piece.classList.add("dragged");
  }
  const ctm = $("board").querySelector("svg").getScreenCTM();
  const scale = ctm ? ctm.a : 1;
  drag.piece.setAttribute("transform", `translate(${drag.origin[0] + dx / scale},${drag.origin[1] + dy / scale})`);
}

/** @param {State} st */
function pointerUp(st, event) {
  if (!st.drag) return;
  const { from, piece, origin, moved } = st.drag;
  st.drag = null;
  if (!moved) return;                            // a click: the click handler has it
  st.dropped = true;                             // a drop's pointerup is not also a click
  setTimeout(() => { st.dropped = false; });
  piece.classList.remove("dragged");
  piece.setAttribute("transform", `translate(${origin[0]},${origin[1]})`);
  const cell = /** @type {SVGElement | null | undefined} */ (document.elementFromPoint(event.clientX, event.clientY)?.closest(".cell"));
  if (!cell || cell.dataset.cell === from) return;
  const leg = legs(st).find((l) => l[0] === from && l[1] === cell.dataset.cell);
  if (leg) { playFromBoard(st, leg[2]); return; }
  $("error").textContent = `${from} cannot go to ${cell.dataset.cell}: drop it on a green cell`;
}

// A drag the browser took over (a touch that scrolls the board): the piece goes back.
/** @param {State} st */
function pointerCancel(st) {
  const drag = st.drag;
  if (!drag) return;
  drag.piece.classList.remove("dragged");
  drag.piece.setAttribute("transform", `translate(${drag.origin[0]},${drag.origin[1]})`);
  st.drag = null;
}

/** @param {State} st */
export function setUpBoardInput(st) {
  const board = $("board");
  board.addEventListener("click", (event) => boardClick(st, event));
  board.addEventListener("keydown", (event) => boardKey(st, event));
  board.addEventListener("pointerdown", (event) => pointerDown(st, event));
  window.addEventListener("pointermove", (event) => pointerMove(st, event));
  window.addEventListener("pointerup", (event) => pointerUp(st, event));
  window.addEventListener("pointercancel", () => pointerCancel(st));
  board.addEventListener("focusin", (event) => {
    st.boardHadFocus = true;
    const cell = /** @type {SVGElement | null} */ (/** @type {Element} */ (event.target).closest(".cell"));
    if (cell && cell.dataset.cell !== st.cursor) { st.cursor = cell.dataset.cell; describeCells(board, st.cursor); }
  });
  // The board's box itself is never the keyboard's stop: focused (by the `b` key, a
  // script, a click on its margin), it hands the focus to the keyboard's cell. Tab
  // reaches the board on that cell (the one cell with tabindex 0), Shift+Tab leaves it.
  board.addEventListener("focus", () => { setTimeout(() => focusCursor(st)); });   // (a focus moved inside a focus event is lost)
  board.addEventListener("focusout", (event) => {
    st.boardHadFocus = event.relatedTarget === null || board.contains(/** @type {Node} */ (event.relatedTarget));
  });
  // The rotating board draws a new frame each turn: the keyboard stays on its cell.
  new MutationObserver(() => {
    if (st.boardHadFocus && (document.activeElement === document.body || !document.activeElement)) focusCursor(st);
  }).observe(board, { childList: true });
}
