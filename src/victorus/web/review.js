// The review of a finished game: each army's chance to win, action by action. Once a game
// is over (or a watched game on request), the server searches every position in the
// background; the page draws the chances as they come, a line per army, and marks the
// actions where a team's chance fell most, each a click away.
import { $, pause, gameKey } from "./state.js";
import { api } from "./connection.js";
import { showIndex } from "./watch.js";

// A finished game played here is reviewed at once; a watched game when asked (its steps
// then share the machine with the searches).
function reviewWanted(st) {
  return st.S && st.S.mode === "play" && st.S.over;
}

export async function followReview(st, asked = false) {
  if (!asked && (!reviewWanted(st) || st.reviewDeclined === gameKey(st))) return;
  if (st.reviewing === gameKey(st)) return;
  const game = gameKey(st);
  st.reviewing = game;
  const review = st.review = { key: null, game, points: [], marks: [], status: "running", length: 0 };
  drawReview(st);
  try {
    await api(st, "/api/review", {});
    let state = await api(st, "/api/review?from=0");
    for (;;) {
      if (st.reviewing !== game) return;
      if (state.key !== review.key) review.points = [];
      review.key = state.key;
      review.points.push(...state.points);
      Object.assign(review, { status: state.status, marks: state.marks, length: state.length,
                              total: state.total, error: state.error });
      drawReview(st);
      if (state.status !== "running") return;
      await pause(400);
      state = await api(st, `/api/review?from=${review.points.length}`);
    }
  } catch (e) {
    if (st.reviewing === game) { review.status = "error"; review.error = e.message; drawReview(st); }
  }
}

export async function cancelReview(st) {
  try { await api(st, "/api/review", { cancel: true }); } catch (e) { /* shown below */ }
  st.review.status = "cancelled";
  st.reviewDeclined = st.reviewing;
  st.reviewing = null;
  drawReview(st);
}

// The review's index of the position shown, or null.
export function reviewIndex(st) {
  const S = st.S;
  if (!S) return null;
  if (S.mode === "watch") return S.watch.index;
  if (S.browse) return S.browse.index;
  return S.over ? st.review.length : null;       // (a finished game's end)
}

function reviewY(chance) { return 58 - 56 * chance; }

export function drawReview(st) {
  const S = st.S, review = st.review, colors = st.meta.seatColors;
  const graph = $("review-graph"), list = $("review-marks");
  const ours = review.game === gameKey(st) && review.game !== null;
  const done = ours ? review.points.length : 0;
  $("review-cancel").hidden = !(ours && review.status === "running");
  $("review-start").hidden = !(S && ((S.mode === "watch" && !ours) || (ours && review.status === "cancelled")));
  $("review-status").textContent = !ours ? (S && S.mode === "watch" ? "the review: each army's chance to win move by move" :
    "after the game: its review, each army's chance to win move by move") :
    review.status === "running" ? `reviewing: ${done} of ${review.total || "?"} positions searched` :
    review.status === "done" ? `review: each army's chance to win; ${review.marks.length ? "the marked actions lost most (click one)" : "no action lost much"}` :
    review.status === "cancelled" ? `review stopped after ${done} positions` :
    review.status === "error" ? `review: ${review.error}` : "";
  graph.replaceChildren();
  list.replaceChildren();
  if (!ours || !done) return;
  const width = 300, span = Math.max(1, review.length);
  const x = (index) => (width * index / span).toFixed(1);
  const carried = [];
  let last = [null, null, null, null, null, null];
  for (const p of review.points) {
    last = p.chances.map((c, s) => (c === null ? last[s] : c));
    carried.push({ index: p.index, chances: last });
  }
  let svg = `<line class="review-even" x1="0" x2="${width}" y1="${reviewY(0.5)}" y2="${reviewY(0.5)}"/>`;
  for (const seat of S.present) {
    const path = carried.filter((p) => p.chances[seat] !== null)
      .map((p) => `${x(p.index)},${reviewY(p.chances[seat]).toFixed(1)}`).join(" ");
    if (path) svg += `<polyline class="review-line" data-seat="${seat}" stroke="${colors[seat]}" points="${path}"/>`;
  }
  const at = reviewIndex(st);
  if (at !== null) svg += `<line class="review-now" x1="${x(at)}" x2="${x(at)}" y1="0" y2="60"/>`;
  for (const m of review.marks) {
    svg += `<circle class="review-mark" data-index="${m.index}" cx="${x(m.index)}" cy="${reviewY(m.after).toFixed(1)}" r="2.6" fill="${colors[m.seat]}"/>`;
  }
  graph.innerHTML = svg;
  for (const m of review.marks) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.className = "review-jump";
    button.dataset.index = m.index;
    button.textContent = `${m.index}. ${m.name}: ${Math.round(100 * m.before)}% \u2192 ${Math.round(100 * m.after)}%` +
      (m.best ? `, best was ${m.best}` : "");
    button.title = `show the position before action ${m.index} with the move the search preferred`;
    li.appendChild(button);
    list.appendChild(li);
  }
}

// The position before a marked action (or any action of the graph), with its analysis
// from the review.
export function showReviewed(st, index) {
  const point = st.review.points.find((p) => p.index === index);
  st.reviewPoint = point ? { ...point, index } : null;
  st.analysis = null;
  if (st.S.mode === "watch") return showIndex(st, index);
  return showIndex(st, index === st.review.length ? Infinity : index);
}

// A review point as the analysis of the position shown (its index must be the one shown).
export function reviewAnalysis(st) {
  const S = st.S, p = st.reviewPoint, names = st.meta.seatNames;
  if (!p || reviewIndex(st) !== p.index || st.reviewing !== gameKey(st)) return null;
  const team = S.present.filter((s) => S.armies[s].team === S.armies[p.seat].team || s === p.seat);
  const over = p.best === null;
  return { status: "done", over, best: p.best, cells: p.cells, chance: p.chances[p.seat],
           chances: p.chances, team: (S.armies[p.seat].team === null ? [p.seat] : team).map((s) => names[s]),
           review: true };
}

export function setUpReview(st) {
  $("review-start").addEventListener("click", () => followReview(st, true));
  $("review-cancel").addEventListener("click", () => cancelReview(st));
  $("review-marks").addEventListener("click", (event) => {
    const button = event.target.closest(".review-jump");
    if (button) showReviewed(st, Number(button.dataset.index) - 1);
  });
  $("review-graph").addEventListener("click", (event) => {
    const review = st.review;
    if (!review.length) return;
    const mark = event.target.closest(".review-mark");
    if (mark) { showReviewed(st, Number(mark.dataset.index) - 1); return; }
    const box = $("review-graph").getBoundingClientRect();
    const index = Math.round(review.length * (event.clientX - box.left) / box.width);
    showReviewed(st, Math.max(0, Math.min(review.length, index)));
  });
}
