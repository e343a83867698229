// The clocks: the army to act's seconds left to start its turn, counted down in the page
// between the server's answers, and every army's clock in a table (the live game's, even
// while a past position is shown). Under a quarter of the limit (or five seconds) they
// turn red, and the person's warns once with a sound.
import { $, personSeats } from "./state.js";
import { swatchOf } from "./panel.js";
import { beep } from "./sound.js";
/** @typedef {import("./state.js").State} State */

/** @param {State} st */
export function showClock(st, clock) {
  st.clock.left = clock === undefined ? null : clock;
  st.clock.at = performance.now();
  tickClock(st);
}

/** @param {State} st */
function lowTime(st, left) { return left <= Math.min(5, 0.25 * (st.S.time_limit || 20)); }

/** @param {State} st */
export function tickClock(st) {
  const S = st.S, line = $("clock");
  const left = st.clock.left === null ? null : Math.max(0, st.clock.left - (performance.now() - st.clock.at) / 1000);
  drawClocks(st, left);
  const paused = S && S.mode === "play" && !S.over && S.army_clocks ? S.army_clocks.find((c) => c.state === "paused") : null;
  if (paused) {           // (a whole round forfeited on time: the clock waits for an action)
    const who = personSeats(st).includes(paused.seat) ? "you play" : `${st.meta.seatNames[paused.seat]} plays`;
    line.textContent = `clock paused (a whole round forfeited on time) until ${who}`;
    line.classList.remove("low");
    return;
  }
  if (left === null || !S || S.over) { line.textContent = ""; line.classList.remove("low"); return; }
  const seat = S.clock_seat === undefined ? S.to_move : S.clock_seat;
  const who = personSeats(st).includes(seat) ? "you have" : `${st.meta.seatNames[seat]} has`;
  line.textContent = `${who} ${left.toFixed(1)} s to start the turn`;
  const low = lowTime(st, left);
  line.classList.toggle("low", low);
  const turn = `${S.game}:${st.logTurns.length}`;
  if (low && personSeats(st).includes(seat) && st.clock.lowWarned !== turn) { st.clock.lowWarned = turn; beep(st, "low"); }
}

// Every army's clock: its time left while it acts, the whole limit when its turn comes,
// "started" once its turn has begun, "paused" once a whole round was forfeited on time,
// and its turns forfeited on time. Without a time
// limit the table is empty, and hidden from screen readers (it keeps its height).
/** @param {State} st */
function drawClocks(st, left) {
  const S = st.S, table = $("clocks"), row = table.rows[0];
  const clocks = S && S.mode === "play" ? S.army_clocks : null;
  const present = clocks ? clocks.filter((c) => c.state !== "absent") : [];
  const key = present.map((c) => c.seat).join(",");
  if (key !== st.clock.drawnFor) {
    st.clock.drawnFor = key;
    row.replaceChildren();
    for (const c of present) {
      const td = row.insertCell();
      td.dataset.seat = c.seat;
      td.append(swatchOf(st, c.seat), document.createElement("span"));
    }
  }
  const empty = present.length === 0;
  if (table.getAttribute("aria-hidden") !== String(empty)) table.setAttribute("aria-hidden", String(empty));
  table.classList.toggle("empty", empty);
  present.forEach((c, k) => {
    const td = row.cells[k];
    const time = c.state === "acting" && left !== null ? `${left.toFixed(1)} s` :
      c.state === "waiting" ? `${S.time_limit} s` : c.state === "started" ? "started" :
      c.state === "paused" ? "paused" : c.state === "out" ? "out" : "-";
    const lost = c.forfeits ? ` \u2717${c.forfeits}` : "";
    const text = time + lost;
    if (td.lastChild.textContent !== text) td.lastChild.textContent = text;
    td.className = `clock-${c.state}`;
    td.classList.toggle("low", c.state === "acting" && left !== null && lowTime(st, left));
    const words = c.state === "acting" ? `${time} left to start the turn` : c.state === "waiting" ?
      `${time} to start its next turn` : c.state === "started" ? "its turn has started: the clock stopped" :
      c.state === "paused" ? "a whole round was forfeited on time: the clock waits for its first action" : c.state;
    td.title = `${st.meta.seatNames[c.seat]}: ${words}; ${c.forfeits} turn${c.forfeits === 1 ? "" : "s"} forfeited on time`;
  });
}
