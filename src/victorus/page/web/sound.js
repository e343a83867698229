// Sounds (off until the box is ticked, remembered by the browser): beeps made by the
// browser for a move, a capture, the person's turn and low time.
import { $, gameKey, actionCount } from "./state.js";
/** @typedef {import("./state.js").State} State */

const TONES = { move: [[520, 0.06]], capture: [[660, 0.07], [440, 0.09]], turn: [[660, 0.08], [880, 0.12]], low: [[300, 0.25]] };

/** @param {State} st */
export function beep(st, kind) {
  if (!$("sounds").checked) return;
  st.soundLog.push(kind);                   // the last few, for a look from outside
  if (st.soundLog.length > 20) st.soundLog.shift();
  try {
    st.audio = st.audio || new AudioContext();
    let at = st.audio.currentTime;
    for (const [freq, length] of TONES[kind]) {
      const osc = st.audio.createOscillator(), gain = st.audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(st.audio.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length;
    }
  } catch (e) { /* no audio on this machine: the page goes on silently */ }
}

// What the page last heard, to tell a new action, a capture, the person's turn.
/** @param {State} st */
export function listen(st) {
  const S = st.S;
  const now = { key: gameKey(st), actions: actionCount(st), turn: Boolean(S.person_to_act) };
  const heard = st.heard;
  if (heard && heard.key === now.key && S.mode === "play" && !S.browse) {
    if (now.actions > heard.actions) {
      const last = st.logTurns[st.logTurns.length - 1];
      beep(st, last && last.actions.length && last.actions[last.actions.length - 1].includes("x") ? "capture" : "move");
    }
    if (now.turn && (!heard.turn || now.actions > heard.actions)) beep(st, "turn");
  } else if (heard && heard.key !== now.key && now.turn && S.mode === "play") {
    beep(st, "turn");                       // a new game's first turn is the person's
  }
  st.heard = now;
}

export function setUpSounds() {
  $("sounds").checked = localStorage.getItem("victorus-sounds") === "on";
  $("sounds").addEventListener("change", () => {
    localStorage.setItem("victorus-sounds", $("sounds").checked ? "on" : "off");
  });
}
