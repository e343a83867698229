// The analysis on request: the search's chance for the army to act's team and its best
// move (an arrow on the board) for the position shown, live or browsed, during the game
// or after it; a review's point stands for it when one is shown.
import { $, pause } from "./state.js";
import { api } from "./connection.js";
import { drawArrows } from "./board.js";
import { reviewAnalysis } from "./review.js";
/** @typedef {import("./state.js").State} State */

/** @param {State} st */
export async function analyse(st) {
  const S = st.S;
  if (!S) return;
  st.reviewPoint = null;
  st.analysis = { status: "running" };
  $("analysis").textContent = "analysing...";
  try {
    await api(st, "/api/analyse", S.browse ? { at: S.browse.index } : {});
    let state = await api(st, "/api/analysis");
    while (state.status === "running") {
      await pause(250);
      state = await api(st, "/api/analysis");
    }
    st.analysis = state;
  } catch (e) {
    st.analysis = { status: "error", error: e.message };
  }
  drawAnalysis(st);
}

// Whether an analysis is of the position shown.
function ofShown(S, found) {
  return found.placement === S.placement && found.to_move === S.to_move && found.phase === S.phase &&
    found.round === S.round;
}

/** @param {State} st */
function chanceWords(st, found) {
  const S = st.S, names = st.meta.seatNames;
  if (found.over) {
    const won = S.present.filter((s) => found.chances[s] === 1).map((s) => names[s]);
    return won.length ? `game over: ${won.join(", ")} won` : "game over: a draw";
  }
  const team = found.team.join(", ");
  const others = found.chances.some((c, s) => c !== null && !found.team.includes(names[s]));
  return `${team}: ${Math.round(100 * found.chance)}% to win` +
    (others ? `; others ${Math.round(100 * (1 - found.chance))}%` : "") + `; best: ${found.best}`;
}

/** @param {State} st */
export function drawAnalysis(st) {
  const box = $("board");
  drawArrows(box, []);
  const found = reviewAnalysis(st) || st.analysis;
  if (!found) { $("analysis").textContent = ""; return; }
  if (found.status === "error") { $("analysis").textContent = found.error; return; }
  if (found.status !== "done") return;
  if (!found.review && !ofShown(st.S, found)) {
    $("analysis").textContent = "the position shown is not the one analysed: analyse again (a)";
    return;
  }
  $("analysis").textContent = (found.review ? "review: " : "") + chanceWords(st, found);
  if (found.cells.length === 2) drawArrows(box, [found.cells]);
}
