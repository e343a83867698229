// The move list (the game log): one line per turn, its actions and events; the action
// shown marked and kept in the log's own view; a click on an action shows the position
// after it (browsed during play, stepped to in a watched game).
import { $ } from "./state.js";
import { appendEvents } from "./panel.js";
/** @typedef {import("./state.js").State} State */

// The log grows by the turns the server sends: from turn ``log_from`` on (the last turn
// held may have grown), or in full when the log changed otherwise (undo, a new game).
/** @param {State} st */
export function updateLog(st, state) {
  const log = $("log");
  const from = state.log_key === st.logKey ? state.log_from : 0;
  st.logKey = state.log_key;
  st.logTurns.length = from;
  while (log.children.length > from) log.lastElementChild.remove();
  let index = st.logTurns.reduce((sum, turn) => sum + turn.actions.length, 0);
  for (const turn of state.log) {
    st.logTurns.push(turn);
    const li = document.createElement("li");
    li.className = `turn seat-${turn.seat}`;
    const id = document.createElement("span");
    id.className = "turn-id";
    id.textContent = turn.turn;
    li.append(id, " ");
    for (const action of turn.actions) {
      index += 1;
      const span = document.createElement("span");
      span.className = "act";
      span.dataset.index = String(index);
      span.dataset.seat = turn.seat;
      span.textContent = action;
      li.append(span, " ");
    }
    if (turn.forfeit) {
      const note = document.createElement("span");
      note.className = "forfeit";
      note.textContent = "(forfeited on time)";
      li.appendChild(note);
    }
    appendEvents(li, turn.events || []);
    log.appendChild(li);
  }
}

// The action shown marked in the log, and in the log's view.
/** @param {State} st */
export function drawLog(st) {
  const S = st.S, log = $("log");
  const current = S.mode === "watch" ? String(S.watch.index) : S.browse ? String(S.browse.index) : null;
  for (const act of log.querySelectorAll(".act.current")) {
    if (/** @type {HTMLElement} */ (act).dataset.index !== current) act.classList.remove("current");
  }
  if (current !== null) log.querySelector(`.act[data-index="${current}"]`)?.classList.add("current");
  const mark = log.querySelector(".act.current") || (S.mode === "play" ? log.lastElementChild : null);
  if (mark) requestAnimationFrame(() => scrollLogTo(mark));   // with the frame's own layout
}

// Bring a log entry into the log's own view; the window never moves (a player reading the
// board or the header must not see the page creep while agents play).
export function scrollLogTo(mark) {
  const log = $("log");
  const top = mark.offsetTop, bottom = top + mark.offsetHeight;    // #log is positioned
  if (top < log.scrollTop) log.scrollTop = top;
  // (a turn taller than the box shows its first line: who acted)
  else if (bottom > log.scrollTop + log.clientHeight) log.scrollTop = Math.min(top, bottom - log.clientHeight);
}

// The review's marks after their actions in the list (?!, ?, ??), drawn again when the
// review or the log changed.
/** @param {State} st */
export function drawMoveMarks(st, marks, names) {
  const log = $("log");
  const key = `${st.logKey}:${st.logTurns.length}:${marks.map((m) => m.index + m.mark).join(",")}`;
  if (key === st.movesMarked) return;
  st.movesMarked = key;
  for (const old of log.querySelectorAll(".mark")) old.remove();
  for (const m of marks) {
    const act = log.querySelector(`.act[data-index="${m.index}"]`);
    if (!act) continue;
    const span = document.createElement("span");
    span.className = `mark mark-${names[m.mark]}`;
    span.textContent = m.mark;
    span.title = `${names[m.mark]}: ${Math.round(100 * m.before)}% \u2192 ${Math.round(100 * m.after)}%` +
      (m.best ? `, best was ${m.best}` : "");
    act.after(span);
  }
}
