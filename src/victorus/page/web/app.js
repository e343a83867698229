// The victorus page, put together: one state object (state.js) made here and handed to
// each module; the connection tells the drawing of each new state through st.hooks, and
// st.redraw draws the whole page from the state.
import { $, createState } from "./state.js";
import { follow, api } from "./connection.js";
import { showFrame, showPosition, drawBoard, drawCoordinates, fitCells, glide } from "./board.js";
import { drawStatus, drawSummary, drawArmies, drawOutcome, drawNotice, syncForm, announce, fillMenus } from "./panel.js";
import { updateLog, drawLog, drawMoveMarks } from "./movelist.js";
import { stopPlayback } from "./watch.js";
import { showClock, tickClock } from "./clock.js";
import { listen, setUpSounds } from "./sound.js";
import { drawReview, followReview, setUpReview, reviewMarks, jumpToMistake, MARK_NAMES } from "./review.js";
import { analyse, drawAnalysis } from "./analysis.js";
import { setUpBoardInput } from "./input.js";
import { setUpBoard, openBoard, openLinked } from "./analysisboard.js";
import { setUpEval, followEval } from "./liveeval.js";
import { setUpControls } from "./controls.js";
import { followPremove } from "./premove.js";
import { send } from "./connection.js";

const st = createState();

function render() {
  const S = st.S;
  if (!S) return;
  document.body.classList.toggle("watching", S.mode === "watch");
  if (S.mode !== "watch" && st.playing) stopPlayback(st);
  drawBoard(st);
  drawAnalysis(st);
  $("legend-pieces").textContent = Object.entries(S.pieces).map(([l, n]) => `${l} ${n}`).join(", ");
  drawStatus(st);
  drawOutcome(st);
  syncForm(st);
  drawSummary(st);
  drawArmies(st, (seats) => send(st, "/api/seats", { seats }));
  drawLog(st);
  drawReview(st);
  drawMoveMarks(st, reviewMarks(st), MARK_NAMES);
  followReview(st);
  announce(st);
  glide(st);
  $("vpn").textContent = S.vpn || "(only at the start of a running turn)";
  $("placement").textContent = S.placement;
  showClock(st, S.clock);
  followEval(st);
}

st.redraw = render;
st.hooks = {
  frame: (svg) => showFrame(st, $("board"), svg),
  position: (html) => { showPosition($("board"), html); drawCoordinates($("board"), $("coordinates").checked); },
  log: (state) => updateLog(st, state),
  shown: () => { listen(st); followPremove(st); openLinked(st); },
  clock: (clock) => showClock(st, clock),
  offline: () => { drawStatus(st); drawNotice(st); },
  meta: () => fillMenus(st),
  marks: () => drawMoveMarks(st, reviewMarks(st), MARK_NAMES),
};

setUpSounds();
setUpBoardInput(st);
setUpReview(st);
setUpBoard(st);
setUpEval(st);
setUpControls(st, { a: () => analyse(st), v: () => openBoard(st), n: () => jumpToMistake(st, 1), N: () => jumpToMistake(st, -1) });
$("analyse").addEventListener("click", () => analyse(st));
window.addEventListener("resize", () => fitCells($("board")));
setInterval(() => tickClock(st), 100);

// For the browser tests and the console: the state by name (read only; nothing on the
// page reads these).
/** @type {any} */ (window).victorus = { st, render, api: (path, body) => api(st, path, body), drawStatus: () => drawStatus(st) };
for (const name of ["S", "review", "analysis", "logTurns", "soundLog", "keptRecord", "lostRecord", "frameKey"]) {
  Object.defineProperty(window, name, { get: () => st[name], configurable: true });
}

follow(st);
