// The live evaluation: the engine's chances for the position shown, in a column of its
// own left of the board (never over it): one bar for two teams, a small bar per army for
// more. On by default for a finished game (the game's own end: a past position of it
// too) and a watched record; off by default for a game under way, whether played here
// (as lichess: no engine while you play) or watched (each action would start a search
// and send its answers); the box switches it (remembered for this tab's session).
import { $, pause } from "./state.js";
import { api } from "./connection.js";
/** @typedef {import("./state.js").State} State */

const KEY = "victorus-eval";

/** @param {State} st */
function wanted(st) {
  const S = st.S;
  if (!S || st.board) return false;
  if (st.live.on !== null) return st.live.on;
  return S.mode === "watch" || Boolean(S.browse ? S.browse.over : S.over);
}

// The seats of each team present (an army playing alone is a team of its own).
function teamsOf(S) {
  const teams = new Map();
  for (const seat of S.present) {
    const team = S.armies[seat].team ?? `s${seat}`;
    if (!teams.has(team)) teams.set(team, []);
    teams.get(team).push(seat);
  }
  return teams;
}


// The position shown, as the analysis knows it.
function positionKey(S) {
  return `${S.instance}:${S.mode}:${S.game}:${S.placement}:${S.to_move}:${S.phase}:${S.round}:` +
    `${S.browse ? S.browse.index : S.mode === "watch" ? S.watch.index : "live"}`;
}

/** @param {State} st */
export function followEval(st) {
  const S = st.S;
  const on = wanted(st);
  $("live-eval").checked = on;
  $("eval").hidden = !on;
  if (!on || !S) { st.live.key = null; return; }
  const key = positionKey(S);
  if (key === st.live.key) return;
  st.live.key = key;
  st.live.found = null;
  drawEval(st);
  evaluate(st, key);
}

/** @param {State} st */
async function evaluate(st, key) {
  const S = st.S;
  const body = S.mode === "watch" ? { at: S.watch.index } : S.browse ? { at: S.browse.index } : {};
  try {
    await api(st, "/api/analyse", body);
    let serial = -1;
    while (st.live.key === key) {
      const found = await api(st, "/api/analysis");
      if (st.live.key !== key) return;
      if (found.serial !== serial && found.chances && found.placement === st.S.placement) {
        serial = found.serial;
        st.live.found = found;
        drawEval(st);
      }
      if (found.status !== "running") return;
      await pause(300);
    }
  } catch (e) {
    if (st.live.key === key) { st.live.found = { error: e.message }; drawEval(st); }
  }
}

// The bars: two teams, one bar (the bottom team's share from below); more, one per army.
/** @param {State} st */
export function drawEval(st) {
  const box = $("eval"), S = st.S, found = st.live.found;
  box.replaceChildren();
  if (!S || !found) { box.setAttribute("aria-label", "evaluation: searching"); return; }
  if (found.error) { box.setAttribute("aria-label", `evaluation: ${found.error}`); return; }
  const names = st.meta.seatNames, colors = st.meta.seatColors;
  const teams = teamsOf(S);
  const chanceOf = (seats) => seats.map((s) => found.chances[s]).find((c) => c !== null && c !== undefined);
  if (teams.size === 2) {
    const [a, b] = [...teams.values()];
    const ca = chanceOf(a) ?? (1 - (chanceOf(b) ?? 0.5));
    const bar = document.createElement("div");
    bar.className = "eval-two";
    bar.innerHTML = `<span class="eval-top" style="background:${colors[b[0]]}"></span>` +
      `<span class="eval-bottom" style="height:${(100 * ca).toFixed(1)}%;background:${colors[a[0]]}"></span>`;
    box.appendChild(bar);
    const words = `evaluation: ${a.map((s) => names[s]).join(", ")} ${Math.round(100 * ca)}%, ` +
      `${b.map((s) => names[s]).join(", ")} ${Math.round(100 * (1 - ca))}%`;
    box.setAttribute("aria-label", words);
    box.title = words;
    return;
  }
  const parts = [];
  for (const seat of S.present) {
    const c = found.chances[seat];
    const bar = document.createElement("div");
    bar.className = "eval-army";
    bar.dataset.seat = String(seat);
    bar.innerHTML = `<span style="height:${c === null ? 0 : (100 * c).toFixed(1)}%;background:${colors[seat]}"></span>`;
    box.appendChild(bar);
    parts.push(`${names[seat]} ${c === null ? "?" : `${Math.round(100 * c)}%`}`);
  }
  box.setAttribute("aria-label", `evaluation: ${parts.join(", ")}`);
  box.title = box.getAttribute("aria-label");
}

/** @param {State} st */
export function setUpEval(st) {
  let stored = null;
  try { stored = sessionStorage.getItem(KEY); } catch (e) { stored = null; }
  st.live.on = stored === "on" ? true : stored === "off" ? false : null;
  $("live-eval").addEventListener("change", () => {
    st.live.on = $("live-eval").checked;
    try { sessionStorage.setItem(KEY, st.live.on ? "on" : "off"); } catch (e) { /* this page only */ }
    st.live.key = null;
    followEval(st);
  });
}
