// Moving through a game: a past position of the game played (browsed, read only, while
// the game goes on), and a watched game's steps, by hand or played back.
import { $ } from "./state.js";
import { refresh, send } from "./connection.js";
/** @typedef {import("./state.js").State} State */

// Browse the game being played: a past position, read only; the game goes on meanwhile.
/** @param {State} st */
export function browse(st, index) {
  st.browsing = index === null ? null : Math.max(0, index);
  st.selected = null;
  return refresh(st, true);
}

// A watched game's step to action ``index`` (bounded).
/** @param {State} st */
export function stepTo(st, index) {
  const S = st.S;
  if (!S || S.mode !== "watch") return Promise.resolve(false);
  const bounded = Math.max(0, Math.min(S.watch.length, index));
  if (bounded === S.watch.index) return Promise.resolve(false);
  return send(st, "/api/step", { index: bounded });
}

// The position after action ``index`` of the game shown, whichever its kind: a watched
// game's step, a past position of the game played (its end: the live game).
/** @param {State} st */
export function showIndex(st, index) {
  const S = st.S;
  if (!S) return Promise.resolve(false);
  if (S.mode === "watch") return stepTo(st, index);
  const length = S.browse ? S.browse.length : st.logTurns.reduce((n, t) => n + t.actions.length, 0);
  return browse(st, index >= length ? null : index);
}

/** @param {State} st */
export function stopPlayback(st) {
  st.playing = null;
  $("playback").textContent = "play";
}

// Playback keeps time: at ``speed`` actions a second the game is at action
// from + speed * seconds, and each step shows the action due (several at once when a
// step takes longer than 1/speed s). A step made by hand meanwhile restarts the count.
/** @param {State} st */
export function startPlayback(st) {
  stopPlayback(st);
  $("playback").textContent = "pause";
  const run = {};
  st.playing = run;
  const speed = Number($("speed").value);
  let start = performance.now(), from = st.S.watch.index, shown = from;
  (async () => {
    while (st.playing === run) {
      const S = st.S;
      if (!S || S.mode !== "watch" || S.watch.index >= S.watch.length) { stopPlayback(st); return; }
      if (S.watch.index !== shown) { start = performance.now(); from = shown = S.watch.index; }
      const due = from + Math.floor((performance.now() - start) * speed / 1000);
      if (due > S.watch.index) {
        if (!(await stepTo(st, Math.min(due, S.watch.length)))) { stopPlayback(st); return; }  // error shown
        shown = st.S.watch.index;
      } else {
        const next = start + (due + 1 - from) * 1000 / speed;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
      }
    }
  })();
}
