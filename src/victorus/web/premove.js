// Premoves: during the agents' turns the player may queue one leg (a turn's first, or any
// leg the turn will want) by picking one of their pieces and a cell, as on their own turn.
// When the player's turn comes it is played at once if it is legal then, else dropped
// with a note; a click on the board or Escape cancels it. The turn's clock starts after
// the premove is tried (the server holds it when it offers premoves: see docs/serve.md).
import { $, legs, activePeople } from "./state.js";
import { send } from "./connection.js";

// Whether the page may queue a premove now: a game played here, not the player's turn,
// one of the player's armies still in it.
export function premoveOpen(st) {
  const S = st.S;
  return Boolean(S && S.mode === "play" && !S.over && !S.browse && !S.spectator &&
                 !S.person_to_act && activePeople(st).length && !st.offline);
}

// A click on the board during the agents' turns: pick one of the player's pieces, then a
// cell (the premove); a click with a premove queued cancels it. True if the click was one.
export function premoveClick(st, label) {
  if (st.premove) { cancelPremove(st, "premove cancelled"); return true; }
  if (!premoveOpen(st)) return false;
  const board = $("board");
  const army = board.querySelector(`.piece[data-cell="${label}"]`)?.dataset.army;
  const own = army !== undefined && activePeople(st).includes(Number(army));
  if (st.preselected === null || st.preselected === label) {
    if (st.preselected === label) { st.preselected = null; st.redraw(); return true; }
    if (!own) return false;
    st.preselected = label;
    $("error").textContent = "";
    setNote(st, `premove: ${label} picked; click where it goes (a click again, or Escape, cancels)`);
    st.redraw();
    return true;
  }
  if (own) { st.preselected = label; st.redraw(); return true; }
  const from = st.preselected;
  const capture = army !== undefined;
  st.premove = { action: `${from}${capture ? "x" : "-"}${label}`, cells: [from, label] };
  st.preselected = null;
  setNote(st, `premove queued: ${st.premove.action} (played at once on your turn if legal; Escape cancels)`);
  st.redraw();
  return true;
}

export function cancelPremove(st, why) {
  if (!st.premove && st.preselected === null) return false;
  st.premove = null;
  st.preselected = null;
  setNote(st, why);
  st.redraw();
  return true;
}

function setNote(st, text) {
  st.note = text;
  $("message").textContent = text;
  $("message").title = text;
}

// A new state shown: on the player's turn, the premove is tried. The leg legal now with
// the same cells is played (a capture or not, as the position says); else it is dropped
// with a note.
export function tryPremove(st) {
  const S = st.S;
  if (!st.premove && st.preselected !== null && !premoveOpen(st)) st.preselected = null;
  if (!st.premove || !S || S.mode !== "play" || S.browse) return;
  if (S.over || S.spectator) { cancelPremove(st, ""); return; }
  if (!S.person_to_act) return;
  const [from, to] = st.premove.cells, wanted = st.premove.action;
  st.premove = null;
  const leg = legs(st).find((l) => l[0] === from && l[1] === to);
  if (!leg) {
    setNote(st, `premove ${wanted} dropped: not legal now`);
    st.redraw();
    return;
  }
  setNote(st, `premove played: ${leg[2]}`);
  st.sending = true;
  send(st, "/api/play", { action: leg[2] }).finally(() => { st.sending = false; });
}
