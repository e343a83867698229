// The review of a finished game: each army's chance to win, action by action. Once a game
// is over (or a watched game on request), the server searches every position in the
// background; the page draws the chances as they come, a line per army, and marks the
// actions where a team's chance fell most, each a click away. A turn forfeited on time is
// listed as such among them (never marked: no action was chosen there). Above them, each
// army's accuracy and counts; "next mistake" walks the player's marks, and "learn from
// your mistakes" asks for a better action at each of them (POST /api/review/try).
import { $, pause, gameKey, personSeats } from "./state.js";
import { api } from "./connection.js";
import { showIndex } from "./watch.js";
/** @typedef {import("./state.js").State} State */

// A finished game played here is reviewed at once; a watched game when asked (its steps
// then share the machine with the searches).
/** @param {State} st */
function reviewWanted(st) {
  return st.S && st.S.mode === "play" && st.S.over;
}

/** @param {State} st */
export async function followReview(st, asked = false) {
  if (!asked && (!reviewWanted(st) || st.reviewDeclined === gameKey(st))) return;
  if (st.reviewing === gameKey(st)) return;
  const game = gameKey(st);
  st.reviewing = game;
  /** @type {State["review"]} */
  const review = { key: null, game, points: [], marks: [], forfeits: [], status: "running", length: 0 };
  st.review = review;
  drawReview(st);
  try {
    await api(st, "/api/review", {});
    let state = await api(st, "/api/review?from=0");
    for (;;) {
      if (st.reviewing !== game) return;
      if (state.key !== review.key) review.points = [];
      review.key = state.key;
      review.points.push(...state.points);
      Object.assign(review, { status: state.status, marks: state.marks, forfeits: state.forfeits || [], length: state.length,
                              total: state.total, error: state.error, counts: state.counts,
                              thresholds: state.thresholds, accuracy: state.accuracy });
      drawReview(st);
      st.hooks.marks();
      if (state.status !== "running") return;
      await pause(400);
      state = await api(st, `/api/review?from=${review.points.length}`);
    }
  } catch (e) {
    if (st.reviewing === game) { review.status = "error"; review.error = e.message; drawReview(st); }
  }
}

/** @param {State} st */
export async function cancelReview(st) {
  try { await api(st, "/api/review", { cancel: true }); } catch (e) { /* shown below */ }
  st.review.status = "cancelled";
  st.reviewDeclined = st.reviewing;
  st.reviewing = null;
  drawReview(st);
}

// The review's index of the position shown, or null.
/** @param {State} st */
export function reviewIndex(st) {
  const S = st.S;
  if (!S) return null;
  if (S.mode === "watch") return S.watch.index;
  if (S.browse) return S.browse.index;
  return S.over ? st.review.length : null;       // (a finished game's end)
}

export const MARK_NAMES = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };
const ZOOMS = [1, 2, 4, 8, 16, 32];

// The review's marks (the server's, this game's only).
/** @param {State} st */
export function reviewMarks(st) {
  const review = st.review;
  return review.game === gameKey(st) && review.game !== null ? review.marks || [] : [];
}

// The marks of the player's armies (every mark when this page played none: a watched or
// agents' game).
/** @param {State} st */
export function playerMarks(st) {
  const marks = reviewMarks(st), people = reviewSeats(st);
  return people.length ? marks.filter((m) => people.includes(m.seat)) : marks;
}

// The seats played from this page in the game reviewed.
/** @param {State} st */
function reviewSeats(st) {
  return st.S && st.S.mode === "play" ? personSeats(st) : [];
}

/** @param {State} st */
export function drawReview(st) {
  const S = st.S, review = st.review, colors = st.meta.seatColors;
  const graph = $("review-graph"), list = $("review-marks"), scroll = $("review-scroll");
  const ours = review.game === gameKey(st) && review.game !== null;
  // A review of the game shown: its box moves up beside the board, above the armies.
  $("review").parentElement.classList.toggle("reviewing", ours);
  drawLearn(st, ours);
  const done = ours ? review.points.length : 0;
  const marks = reviewMarks(st);
  const lapsed = ours && review.forfeits ? review.forfeits.length : 0;
  $("review-cancel").hidden = !(ours && review.status === "running");
  $("review-start").hidden = !(S && ((S.mode === "watch" && !ours) || (ours && review.status === "cancelled")));
  $("mistake-prev").disabled = $("mistake-next").disabled = !playerMarks(st).length;
  $("zoom-in").disabled = !done || st.zoom >= ZOOMS[ZOOMS.length - 1];
  $("zoom-out").disabled = !done || st.zoom <= 1;
  $("review-status").textContent = !ours ? (S && S.mode === "watch" ? "the review: each army's chance to win move by move" :
    "after the game: its review, each army's chance to win move by move") :
    review.status === "running" ? `reviewing: ${done} of ${review.total || "?"} positions searched` :
    review.status === "done" ? `review: each army's chance to win; ${marks.length ? `${marks.length} marked actions (click one, or n)` : "no action marked"}` +
      (lapsed ? `; ${lapsed} turn${lapsed === 1 ? "" : "s"} forfeited on time` : "") :
    review.status === "cancelled" ? `review stopped after ${done} positions` :
    review.status === "error" ? `review: ${review.error}` : "";
  drawCounts(st, ours);
  graph.replaceChildren();
  list.replaceChildren();
  if (!ours || !done) { graph.removeAttribute("viewBox"); graph.style.width = "100%"; return; }
  // The graph in pixels: the box's width times the zoom (it scrolls sideways), so that
  // a 1,000-action game gets up to 5 px an action and its marks stay round.
  const height = Math.max(20, scroll.clientHeight - 2), width = Math.max(50, (scroll.clientWidth - 2) * st.zoom);
  graph.setAttribute("viewBox", `0 0 ${width} ${height}`);
  graph.style.width = `${width}px`;
  const span = Math.max(1, review.length);
  const x = (index) => (width * index / span).toFixed(1);
  const y = (chance) => (height - 2 - (height - 4) * chance).toFixed(1);
  const carried = [];
  let last = [null, null, null, null, null, null];
  for (const p of review.points) {
    last = p.chances.map((c, s) => (c === null ? last[s] : c));
    carried.push({ index: p.index, chances: last });
  }
  let svg = `<line class="review-even" x1="0" x2="${width}" y1="${y(0.5)}" y2="${y(0.5)}"/>`;
  for (const seat of S.present) {
    const path = carried.filter((p) => p.chances[seat] !== null)
      .map((p) => `${x(p.index)},${y(p.chances[seat])}`).join(" ");
    if (path) svg += `<polyline class="review-line" data-seat="${seat}" stroke="${colors[seat]}" points="${path}"/>`;
  }
  const at = reviewIndex(st);
  if (at !== null) svg += `<line class="review-now" x1="${x(at)}" x2="${x(at)}" y1="0" y2="${height}"/>`;
  for (const m of marks) {
    const words = markWords(st, m);
    svg += `<circle class="review-mark ${MARK_NAMES[m.mark]}" data-index="${m.index}" cx="${x(m.index)}" cy="${y(m.after)}" ` +
      `r="${m.mark === "??" ? 5 : m.mark === "?" ? 4 : 3.2}" fill="${colors[m.seat]}"><title>${words}</title></circle>`;
  }
  graph.innerHTML = svg;
  // The marked actions and the turns forfeited on time, in the game's order.
  const forfeits = review.forfeits || [];
  const items = [...marks.map((m) => ({ index: m.index, words: markWords(st, m), short: shortWords(st, m), forfeit: false })),
    ...forfeits.map((f) => ({ index: f.index, words: forfeitWords(st, f), short: forfeitWords(st, f), forfeit: true }))]
    .sort((a, b) => a.index - b.index);
  for (const item of items) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.className = item.forfeit ? "review-jump review-forfeit" : "review-jump";
    button.dataset.index = String(item.index);
    button.textContent = item.short;
    button.title = `${item.words}: show the position before action ${item.index} with the move the search preferred`;
    li.appendChild(button);
    list.appendChild(li);
  }
  if (st.zoomFollow !== null) {          // (after a zoom: the position shown; a jump: its mark)
    keepInView(st, st.zoomFollow === true ? (at === null ? review.length : at) : st.zoomFollow);
    st.zoomFollow = null;
  }
}

/** @param {State} st */
function markWords(st, m) {
  return `${m.index}. ${m.name} ${m.played}${m.mark} (${MARK_NAMES[m.mark]}): ${Math.round(100 * m.before)}% \u2192 ` +
    `${Math.round(100 * m.after)}%` + (m.best ? `, best was ${m.best}` : "");
}

// A mark in the list, short enough for its line: "12. red g6-g10?! 54%→43%" (the whole
// words in its tooltip).
/** @param {State} st */
function shortWords(st, m) {
  return `${m.index}. ${m.name} ${m.played}${m.mark} ${Math.round(100 * m.before)}%\u2192${Math.round(100 * m.after)}%`;
}

// A turn forfeited on time: no action was chosen, so it is told, never judged.
/** @param {State} st */
function forfeitWords(st, f) {
  return `${f.index}. ${f.name}: forfeited on time` + (f.best ? ` (best was ${f.best})` : "");
}

// Each army's accuracy and marked actions, counted: "red 87.3%: ?! 2, ? 1, ?? 0", every
// army in full (a grid of two columns).
/** @param {State} st */
function drawCounts(st, ours) {
  const box = $("review-counts"), S = st.S, review = st.review;
  box.replaceChildren();
  if (!ours || !review.counts || !S) return;
  for (const seat of S.present) {
    const c = review.counts[seat];
    if (!c) continue;
    const span = document.createElement("span");
    span.className = "count";
    span.dataset.seat = String(seat);
    const swatch = document.createElement("span");
    swatch.className = "count-swatch";
    swatch.style.background = st.meta.seatColors[seat];
    const accuracy = review.accuracy ? review.accuracy[seat] : null;
    const score = document.createElement("span");
    score.className = "accuracy";
    score.title = "accuracy: lichess's, from the win chances this army lost (100: none lost)";
    score.textContent = accuracy === null || accuracy === undefined ? "-" : `${accuracy.toFixed(1)}%`;
    span.append(swatch, `${st.meta.seatNames[seat]} `, score, `: ?! ${c["?!"]}, ? ${c["?"]}, ?? ${c["??"]}`);
    box.appendChild(span);
  }
}

// -- learn from your mistakes -------------------------------------------------------------
// At each of the player's marked actions (the position before it shown, the review's
// answer hidden), the player plays a better action (a piece then its cell on the board,
// clicked or by the board's keys of input.js, or typed); the review's own search judges
// it: better (it loses less than an inaccuracy) or not, and the best action.

// True while the pass is open on the game shown (the board's clicks and keys are its).
/** @param {State} st */
export function learnOpen(st) {
  return Boolean(st.learn && st.learn.game === gameKey(st));
}

/** @param {State} st */
function drawLearn(st, ours) {
  const learn = learnOpen(st) ? st.learn : null, review = st.review;
  const offered = ours && review.status === "done" && playerMarks(st).length > 0;
  $("review-learn").hidden = !ours;
  $("learn-start").hidden = !offered || learn !== null;
  $("learn-form").hidden = !learn || learn.result !== null;
  $("learn-next").hidden = !learn || (learn.result === null && !learn.error);
  $("learn-stop").hidden = !learn;
  $("learn-try").disabled = Boolean(learn && learn.busy);
  if (!learn) { $("learn-words").textContent = ""; return; }
  const m = learn.marks[learn.k], names = st.meta.seatNames;
  const head = `${learn.k + 1}/${learn.marks.length}: ${m.index}. ${names[m.seat]} played ${m.played}${m.mark}`;
  const r = learn.result;
  $("learn-words").textContent = learn.busy ? `${head}; judging ${$("learn-move").value}...` :
    learn.error ? `${head}: ${learn.error}` :
    r === null ? `${head}: find a better action (a piece, then its cell)` :
    r.better ? `${head}: ${r.action} is better (${Math.round(100 * r.chance)}%); best ${r.best}` :
    `${head}: ${r.action} loses ${Math.round(100 * r.loss)}%${r.mark ? ` (${r.mark})` : ""}; best ${r.best}`;
}

/** @param {State} st */
export function startLearn(st) {
  const marks = playerMarks(st);
  if (!marks.length) return;
  st.learn = { game: gameKey(st), marks, k: 0, busy: false, result: null, error: "" };
  showLearn(st);
}

/** @param {State} st */
function showLearn(st) {
  const learn = st.learn, m = learn.marks[learn.k];
  learn.result = null;
  learn.error = "";
  st.selected = null;
  $("learn-move").value = "";
  st.reviewPoint = null;               // (the review's answer is not told before a try)
  st.analysis = null;
  st.zoomFollow = m.index;
  showIndex(st, m.index - 1);
  drawReview(st);
}

/** @param {State} st */
export async function tryLearn(st, action) {
  const learn = st.learn;
  if (!learnOpen(st) || learn.busy || !action) return;
  const m = learn.marks[learn.k];
  learn.busy = true;
  $("learn-move").value = action;
  drawReview(st);
  try {
    learn.result = await api(st, "/api/review/try", { index: m.index - 1, action });
    learn.error = "";
  } catch (e) {
    learn.error = e.message;           // (refused: said, and the player tries again)
  }
  learn.busy = false;
  st.selected = null;
  st.redraw();
}

/** @param {State} st */
function nextLearn(st) {
  if (!learnOpen(st)) return;
  if (st.learn.k + 1 >= st.learn.marks.length) { stopLearn(st); return; }
  st.learn.k += 1;
  showLearn(st);
}

/** @param {State} st */
function stopLearn(st) {
  st.learn = null;
  st.selected = null;
  st.redraw();
}

// A click on the board during the pass: a piece, then its cell (the action tried). True
// if the click was the pass's.
/** @param {State} st */
export function learnClick(st, label) {
  if (!learnOpen(st) || st.learn.busy) return false;
  const piece = /** @type {SVGElement | null} */ ($("board").querySelector(`.piece[data-cell="${label}"]`));
  if (st.selected === null || st.selected === label) {
    st.selected = st.selected === label || !piece ? null : label;
  } else {
    tryLearn(st, `${st.selected}${piece ? "x" : "-"}${label}`);
  }
  st.redraw();
  return true;
}

// The graph scrolled so that the point of action ``index`` is in view (centred when
// it was not).
/** @param {State} st */
function keepInView(st, index) {
  const scroll = $("review-scroll"), span = Math.max(1, st.review.length);
  const px = (scroll.scrollWidth - 2) * Math.min(span, index) / span;
  if (px - 8 < scroll.scrollLeft || px + 8 > scroll.scrollLeft + scroll.clientWidth) {
    scroll.scrollLeft = Math.max(0, px - scroll.clientWidth / 2);
  }
}

/** @param {State} st */
export function zoom(st, step) {
  const k = Math.max(0, Math.min(ZOOMS.length - 1, ZOOMS.indexOf(st.zoom) + step));
  st.zoom = ZOOMS[k];
  st.zoomFollow = true;
  drawReview(st);
}

// The next (``step`` 1) or previous (-1) marked action from the position shown: its
// position before it, with the review's analysis.
/** @param {State} st */
export function jumpToMistake(st, step) {
  const marks = playerMarks(st);
  if (!marks.length) return null;
  const at = reviewIndex(st);
  const before = marks.map((m) => m.index - 1);
  let k;
  if (step > 0) k = before.findIndex((i) => at === null || i > at);
  else k = before.findLastIndex((i) => at !== null && i < at);
  if (k < 0) k = step > 0 ? 0 : marks.length - 1;          // (round again)
  st.zoomFollow = marks[k].index;
  showReviewed(st, before[k]);
  return marks[k];
}

// The position before a marked action (or any action of the graph), with its analysis
// from the review.
/** @param {State} st */
export function showReviewed(st, index) {
  const point = st.review.points.find((p) => p.index === index);
  st.reviewPoint = point ? { ...point, index } : null;
  st.analysis = null;
  if (st.S.mode === "watch") return showIndex(st, index);
  return showIndex(st, index === st.review.length ? Infinity : index);
}

// A review point as the analysis of the position shown (its index must be the one shown).
/** @param {State} st */
export function reviewAnalysis(st) {
  const S = st.S, p = st.reviewPoint, names = st.meta.seatNames;
  if (!p || reviewIndex(st) !== p.index || st.reviewing !== gameKey(st)) return null;
  const team = S.present.filter((s) => S.armies[s].team === S.armies[p.seat].team || s === p.seat);
  const over = p.best === null;
  return { status: "done", over, best: p.best, cells: p.cells, chance: p.chances[p.seat],
           chances: p.chances, team: (S.armies[p.seat].team === null ? [p.seat] : team).map((s) => names[s]),
           review: true };
}

/** @param {State} st */
export function setUpReview(st) {
  $("mistake-prev").addEventListener("click", () => jumpToMistake(st, -1));
  $("mistake-next").addEventListener("click", () => jumpToMistake(st, 1));
  $("zoom-in").addEventListener("click", () => zoom(st, 1));
  $("zoom-out").addEventListener("click", () => zoom(st, -1));
  $("review-start").addEventListener("click", () => followReview(st, true));
  $("learn-start").addEventListener("click", () => startLearn(st));
  $("learn-next").addEventListener("click", () => nextLearn(st));
  $("learn-stop").addEventListener("click", () => stopLearn(st));
  $("learn-form").addEventListener("submit", (event) => {
    event.preventDefault();
    tryLearn(st, $("learn-move").value.trim());
  });
  $("review-cancel").addEventListener("click", () => cancelReview(st));
  $("review-marks").addEventListener("click", (event) => {
    const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".review-jump"));
    if (button) showReviewed(st, Number(button.dataset.index) - 1);
  });
  $("review-graph").addEventListener("click", (event) => {
    const review = st.review;
    if (!review.length) return;
    const mark = /** @type {SVGElement | null} */ (/** @type {Element} */ (event.target).closest(".review-mark"));
    if (mark) { showReviewed(st, Number(mark.dataset.index) - 1); return; }
    const box = $("review-graph").getBoundingClientRect();       // (the whole graph, scrolled)
    const index = Math.round(review.length * (event.clientX - box.left) / box.width);
    showReviewed(st, Math.max(0, Math.min(review.length, index)));
  });
}
