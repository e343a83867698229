// Premoves: during the agents' turns the player may queue their next turn's first action
// by picking one of their pieces and a cell, as on their own turn. The server holds it
// (POST /api/premove) for the army whose piece it moves and, when that army's turn comes,
// plays it at once if it is legal then, else drops it and says so; the turn's clock starts
// after it was tried. Another of the player's armies coming to act first, the game's end,
// a resignation and an undo drop it. A click on the board or Escape cancels it.
import { $, activePeople } from "./state.js";
import { api } from "./connection.js";
/** @typedef {import("./state.js").State} State */

// Whether the page may queue a premove now: a game played here, not the player's turn,
// one of the player's armies still in it.
/** @param {State} st */
export function premoveOpen(st) {
  const S = st.S;
  return Boolean(S && S.mode === "play" && !S.over && !S.browse && !S.spectator &&
                 !S.person_to_act && activePeople(st).length && !st.offline);
}

// Whether the game played here goes on (the game's own end, even on a past position).
/** @param {State} st */
function goingOn(st) {
  const S = st.S;
  return Boolean(S && S.mode === "play" && !(S.browse ? S.browse.over : S.over));
}

// The cells of the premove queued (the server's, or the one on its way): none once the
// game is over.
/** @param {State} st */
export function premoveCells(st) {
  if (!goingOn(st)) return [];
  const text = st.premove ? st.premove.action : st.S.premove;
  if (!text) return st.preselected ? [st.preselected] : [];
  return text.split(/[-x]/);
}

// A click on the board during the agents' turns: pick one of the player's pieces, then a
// cell (the premove); a click with a premove queued cancels it. True if the click was one.
/** @param {State} st */
export function premoveClick(st, label) {
  if (goingOn(st) && (st.premove || st.S.premove)) { cancelPremove(st); return true; }
  if (!premoveOpen(st)) return false;
  const army = /** @type {SVGElement | null} */ ($("board").querySelector(`.piece[data-cell="${label}"]`))?.dataset.army;
  const own = army !== undefined && activePeople(st).includes(Number(army));
  if (st.preselected === null || st.preselected === label) {
    if (st.preselected === label) { st.preselected = null; st.redraw(); return true; }
    if (!own) return false;
    st.preselected = label;
    $("error").textContent = "";
    st.redraw();
    return true;
  }
  if (own) { st.preselected = label; st.redraw(); return true; }
  queuePremove(st, `${st.preselected}${army !== undefined ? "x" : "-"}${label}`);
  return true;
}

/** @param {State} st */
async function queuePremove(st, action) {
  st.preselected = null;
  st.premove = { action };
  st.redraw();
  try {
    await api(st, "/api/premove", { action });
  } catch (e) {
    $("error").textContent = e.message;
  }
  st.premove = null;            // (the server's state says it from now on)
  st.redraw();
}

// Escape or a click: the premove (or the piece picked for one) let go. True if there was one.
/** @param {State} st */
export function cancelPremove(st) {
  const queued = st.premove || (st.S && st.S.premove);
  if (!queued && st.preselected === null) return false;
  st.preselected = null;
  st.premove = null;
  if (queued) api(st, "/api/premove", { action: null }).catch((e) => { $("error").textContent = e.message; });
  st.redraw();
  return true;
}

// A new state: the piece picked for a premove is let go once premoves are closed, and a
// premove on its way once the game is over (the server drops it: nothing is drawn).
/** @param {State} st */
export function followPremove(st) {
  if (st.preselected !== null && !premoveOpen(st)) st.preselected = null;
  if (st.premove && !goingOn(st)) st.premove = null;
}

// Words for the status line: the premove queued.
/** @param {State} st */
export function premoveWords(st) {
  const S = st.S;
  if (!goingOn(st)) return "";
  if (S.premove) {
    // (its army named when the player plays more than one)
    const army = S.premove_army === null || activePeople(st).length < 2 ? "" :
      ` for ${st.meta.seatNames[S.premove_army]}`;
    return `premove queued${army}: ${S.premove} (Escape cancels)`;
  }
  if (st.preselected) return `premove: ${st.preselected} picked; click where it goes`;
  return "";
}
