// The victorus page, its second part (after app.js): the armies' marks and holds drawn as
// small pieces, the cells described (screen readers, tooltips), keyboard play, the result
// banner, the tab's title, sounds, and the analysis on request.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

// The seats played from this page, and their team mates (R33).
function personSeats() {
  if (!S || S.mode !== "play" || S.spectator) return [];
  return S.present.filter((s) => S.seats[s] === "person");
}

// The person's armies still in the game.
function activePeople() {
  return personSeats().filter((s) => S.armies[s].state !== "eliminated");
}

function allySeats() {
  const mine = personSeats();
  const teams = new Set(mine.map((s) => S.armies[s].team).filter((t) => t !== null));
  return S.present.filter((s) => !mine.includes(s) && teams.has(S.armies[s].team));
}

// -- marks and holds ------------------------------------------------------------------
function markSvg(seat, extra = "") {
  return `<svg viewBox="-1.2 -1.2 2.4 2.4" aria-hidden="true" ${extra}><circle r="1.15" fill="#fff" stroke="#000" stroke-width="0.15"/>` +
    `<path d="${MARKS[seat]}" fill="#000" transform="scale(0.7)"/></svg>`;
}

// The army's colour with its mark on it: the table and the legend tell armies apart
// without colour as the pieces do.
function swatchOf(seat) {
  const span = document.createElement("span");
  span.className = "swatch";
  span.style.background = SEAT_COLORS[seat];
  span.innerHTML = markSvg(seat, 'width="100%" height="100%"');
  return span;
}

function drawMarkLegend() {
  $("legend-marks").innerHTML = "";
  SEAT_NAMES.forEach((name, seat) => {
    const key = document.createElement("span");
    key.className = "mark-key";
    key.innerHTML = markSvg(seat);
    key.append(`${name} ${MARK_NAMES[seat]}`);
    $("legend-marks").appendChild(key);
  });
}

const SHIELD = "M-9,-10 H9 V1.3 Q9,9 0,11 Q-9,9 -9,1.3 Z";
const KIND_NAMES = { T: "Templar", U: "Teutonic", B: "Byzantine", X: "Excalibur", H: "Hospitaller", K: "King", Q: "Queen" };

// A held piece (seat, kind letter, + when royal) as a small shield in its army's colour,
// with its mark; King and Queen with their dashed rim.
function holdIcon(code, count) {
  const seat = Number(code[0]), kind = code[1];
  const royal = code.includes("+");
  const dash = "KQ".includes(kind) ? ' stroke-dasharray="4 3"' : "";
  const rim = dash ? "#fff" : "#777";
  const text = [0, 1, 2, 4].includes(seat) ? "#fff" : "#000";
  const span = document.createElement("span");
  span.className = "hold";
  const words = `${SEAT_NAMES[seat]} ${royal ? "royal " : ""}${KIND_NAMES[kind]} (${MARK_NAMES[seat]})`;
  span.title = count > 1 ? `${count} x ${words}` : words;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", span.title);
  span.dataset.code = code;
  span.innerHTML = `<svg viewBox="-11 -12 22 25" aria-hidden="true">` +
    `<path d="${SHIELD}" fill="${SEAT_COLORS[seat]}" stroke="${rim}" stroke-width="2.2"${dash}/>` +
    (dash ? `<path d="${SHIELD}" fill="none" stroke="#000" stroke-width="2.2" stroke-dasharray="4 4" stroke-dashoffset="4"/>` : "") +
    `<text y="3" font-size="11" font-weight="bold" text-anchor="middle" fill="${text}">${kind}</text>` +
    (royal ? `<text x="6" y="-3" font-size="9" fill="#ffd700" stroke="#000" stroke-width="0.4">&#9804;</text>` : "") +
    `<g transform="translate(6.5,8)"><circle r="4.3" fill="#fff" stroke="#000" stroke-width="0.6"/>` +
    `<path d="${MARKS[seat]}" fill="#000" transform="scale(2.7)"/></g></svg>`;
  if (count > 1) span.append(`${count}`);
  return span;
}

// A held piece counts once per army and kind (and royal): the icons of an army's holds
// fit two lines of its row, their list in words in the tooltip.
function drawHolds(td, held) {
  td.className = "held";
  if (!held.length) { td.textContent = "-"; td.title = "holds nothing"; return; }
  const counts = new Map();
  for (const code of held) {
    const key = code[0] + code[1] + (code.includes("+") ? "+" : "");
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const box = document.createElement("div");
  box.className = "held-box";
  for (const [code, count] of counts) box.appendChild(holdIcon(code, count));
  td.appendChild(box);
  td.title = [...box.children].map((icon) => icon.title).join("; ");
}

// -- the cells: described, own pieces marked ------------------------------------------
function describeCells() {
  const pieces = new Map([...$("board").querySelectorAll(".piece")]
    .map((piece) => [piece.dataset.cell, piece.querySelector("title").textContent]));
  for (const cell of $("board").querySelectorAll(".cell")) {
    const label = cell.dataset.cell;
    const states = [];
    if (cell.classList.contains("selected")) states.push("picked");
    else if (cell.classList.contains("origin")) states.push("can move");
    if (cell.classList.contains("capture")) states.push("can capture there");
    else if (cell.classList.contains("target")) states.push("can go there");
    const words = `${label}: ${pieces.get(label) || "empty"}${states.length ? "; " + states.join(", ") : ""}`;
    cell.setAttribute("aria-label", words);
    cell.setAttribute("role", "button");
    let title = cell.querySelector("title");
    if (!title) { title = document.createElementNS(SVG_NS, "title"); cell.appendChild(title); }
    if (title.textContent !== words) title.textContent = words;
    cell.tabIndex = label === cursor ? 0 : -1;       // (its ring: CSS .cell:focus-visible)
  }
}

function markOwnPieces() {
  const own = personSeats().map(String), allies = allySeats().map(String);
  for (const piece of $("board").querySelectorAll(".piece")) {
    piece.classList.toggle("own", own.includes(piece.dataset.army));
    piece.classList.toggle("ally", allies.includes(piece.dataset.army));
  }
}

// -- keyboard play ----------------------------------------------------------------------
let cursor = null;          // the cell the keyboard is on

function cellCentres() {
  const centres = new Map();
  for (const cell of $("board").querySelectorAll(".cell")) {
    const r = cell.getBoundingClientRect();
    centres.set(cell.dataset.cell, [r.left + r.width / 2, r.top + r.height / 2]);
  }
  return centres;
}

// The nearest cell in an arrow's direction on screen (the board may be turned): within
// 60 degrees of it, the nearer the better, the straighter the better among equals (up
// and down follow a column; left and right step to the next column).
function cellToward(from, dx, dy) {
  const centres = cellCentres();
  const [x0, y0] = centres.get(from);
  let best = null, bestScore = Infinity;
  for (const [label, [x, y]] of centres) {
    const along = (x - x0) * dx + (y - y0) * dy, across = Math.abs((x - x0) * dy - (y - y0) * dx);
    if (along <= 1 || across > along * 1.74) continue;
    const score = Math.hypot(along, across) * (1 + 0.1 * Math.atan2(across, along));
    if (score < bestScore - 0.01) { bestScore = score; best = label; }
  }
  return best;
}

function focusCursor() {
  const cell = $("board").querySelector(`.cell[data-cell="${cursor}"]`);
  if (cell) { describeCells(); cell.focus(); }
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

$("board").addEventListener("keydown", (event) => {
  // (A past position or a watched game: the arrows step through the game instead.)
  if (!S || !event.target.closest(".cell") || S.mode !== "play" || S.browse) return;
  if (event.key in ARROWS) {
    event.preventDefault();
    event.stopPropagation();                   // (the page's arrows browse the log)
    const next = cellToward(cursor, ...ARROWS[event.key]);
    if (next) { cursor = next; focusCursor(); }
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    event.stopPropagation();
    event.target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  } else if (event.key === "Escape" && selected !== null) {
    selected = null;
    draw();
  }
});

$("board").addEventListener("focusin", (event) => {
  const cell = event.target.closest(".cell");
  if (cell && cell.dataset.cell !== cursor) { cursor = cell.dataset.cell; describeCells(); }
});

// Tab reaches the board: the keyboard's cell starts on a piece that can move (or the
// first cell); Shift+Tab from a cell leaves the board.
$("board").addEventListener("focus", (event) => {
  if ($("board").contains(event.relatedTarget)) return;
  const first = $("board").querySelector(".cell.origin") || $("board").querySelector(".cell");
  if (!cursor && first) cursor = first.dataset.cell;
  setTimeout(focusCursor);               // (a focus moved inside a focus event is lost)
});

// The rotating board draws a new frame each turn: the keyboard stays on its cell.
let boardHadFocus = false;
$("board").addEventListener("focusin", () => { boardHadFocus = true; });
$("board").addEventListener("focusout", (event) => {
  boardHadFocus = event.relatedTarget === null || $("board").contains(event.relatedTarget);
});
new MutationObserver(() => {
  if (boardHadFocus && (document.activeElement === document.body || !document.activeElement)) focusCursor();
}).observe($("board"), { childList: true });

$("typed").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("typed-move").value.trim();
  if (!text) return;
  if (await send("/api/play", { action: text })) $("typed-move").value = "";
});

// -- the end, the tab's title, sounds ----------------------------------------------------
let bannerClosed = null;

function gameKey() { return S ? `${S.instance}:${S.mode}:${S.game}:${S.watch ? S.watch.title : ""}` : ""; }

function drawOutcome() {
  const result = S.browse ? null : S.result;
  $("banner").hidden = !result || bannerClosed === gameKey();
  if (result) {
    $("banner-title").textContent = result.title[0].toUpperCase() + result.title.slice(1);
    $("banner-yours").textContent = result.yours || "";
  }
  drawNotice();
  document.title = S.person_to_act ? "your turn - VICTORUS" : S.over ? "game over - VICTORUS" : "VICTORUS";
}
$("banner-close").addEventListener("click", () => { bannerClosed = gameKey(); $("banner").hidden = true; });

// What the page last heard, to tell a new action, a capture, the person's turn.
let heard = null;
function listen() {
  const actions = logTurns.reduce((sum, turn) => sum + turn.actions.length, 0);
  const now = { key: gameKey(), actions, turn: Boolean(S.person_to_act) };
  if (heard && heard.key === now.key && S.mode === "play" && !S.browse) {
    if (now.actions > heard.actions) {
      const last = logTurns[logTurns.length - 1];
      beep(last && last.actions.length && last.actions[last.actions.length - 1].includes("x") ? "capture" : "move");
    }
    if (now.turn && (!heard.turn || now.actions > heard.actions)) beep("turn");
  } else if (heard && heard.key !== now.key && now.turn && S.mode === "play") {
    beep("turn");                        // a new game's first turn is the person's
  }
  heard = now;
}

const TONES = { move: [[520, 0.06]], capture: [[660, 0.07], [440, 0.09]], turn: [[660, 0.08], [880, 0.12]], low: [[300, 0.25]] };
let audio = null;
const soundLog = [];           // the sounds played (the last few), for a look from outside

function beep(kind) {
  if (!$("sounds").checked) return;
  soundLog.push(kind);
  if (soundLog.length > 20) soundLog.shift();
  try {
    audio = audio || new AudioContext();
    let at = audio.currentTime;
    for (const [freq, length] of TONES[kind]) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length;
    }
  } catch (e) { /* no audio on this machine: the page goes on silently */ }
}

$("sounds").checked = localStorage.getItem("victorus-sounds") === "on";
$("sounds").addEventListener("change", () => {
  localStorage.setItem("victorus-sounds", $("sounds").checked ? "on" : "off");
});

// The legend is open on the first visit, then as the player left it.
$("legend").open = localStorage.getItem("victorus-legend") !== "closed";
$("legend").addEventListener("toggle", () => {
  localStorage.setItem("victorus-legend", $("legend").open ? "open" : "closed");
});

// -- the header's form: the game shown, and only the seats present --------------------
let formFor = null;
function syncForm() {
  if (S.mode !== "play" || formFor === gameKey()) return;
  formFor = gameKey();
  $("new-board").value = S.board;
  $("new-players").value = String(S.players);
  $("new-variant").value = S.variant_plain;
  const people = personSeats();
  $("new-you").value = people.length ? String(people[0]) : "none";
  // The opponent chosen (by the server's --agent, or a seat's spec not in the menu) stays
  // chosen: offered by its name, for New game and rematch.
  const agent = S.present.map((s) => S.seats[s]).find((c) => c !== "person");
  if (agent && ![...$("new-agent").options].some((o) => o.value === agent)) $("new-agent").add(new Option(agent, agent));
  if (agent) $("new-agent").value = agent;
  $("new-time-limit").value = S.time_limit === null ? "" : String(S.time_limit);
  $("new-agent-delay").value = String(S.agent_delay);
  offerPresentSeats();
}

function offerPresentSeats() {
  const present = PRESENT[$("new-players").value] || [];
  for (const option of $("new-you").options) {
    option.disabled = option.value !== "none" && !present.includes(Number(option.value));
  }
  if ($("new-you").selectedOptions[0]?.disabled) $("new-you").value = String(present[0]);
}
$("new-players").addEventListener("change", offerPresentSeats);

// -- resign ---------------------------------------------------------------------------
$("resign").addEventListener("click", () => {
  const seat = activePeople()[0];
  if (seat === undefined) return;
  if (!confirm(`Resign? ${SEAT_NAMES[seat]} gives up this game; the other team wins.`)) return;
  send("/api/resign", { seat });
});

// -- analysis on request ------------------------------------------------------------------
let analysis = null;

$("analyse").addEventListener("click", () => analyse());

// The analysis of the position on the board: the live one, a past one browsed, a watched
// game's, a finished game's.
async function analyse() {
  if (!S) return;
  reviewPoint = null;
  analysis = { status: "running" };
  $("analysis").textContent = "analysing...";
  try {
    await api("/api/analyse", S && S.browse ? { at: S.browse.index } : {});
    let state = await api("/api/analysis");
    while (state.status === "running") {
      await pause(250);
      state = await api("/api/analysis");
    }
    analysis = state;
  } catch (e) {
    analysis = { status: "error", error: e.message };
  }
  drawAnalysis();
}

// Whether an analysis (or a review's point) is of the position shown.
function ofShown(found) {
  return found.placement === S.placement && found.to_move === S.to_move && found.phase === S.phase &&
    found.round === S.round;
}

function chanceWords(found) {
  if (found.over) {
    const won = S.present.filter((s) => found.chances[s] === 1).map((s) => SEAT_NAMES[s]);
    return won.length ? `game over: ${won.join(", ")} won` : "game over: a draw";
  }
  const team = found.team.join(", ");
  const others = found.chances.some((c, s) => c !== null && !found.team.includes(SEAT_NAMES[s]));
  return `${team}: ${Math.round(100 * found.chance)}% to win` +
    (others ? `; others ${Math.round(100 * (1 - found.chance))}%` : "") + `; best: ${found.best}`;
}

function drawAnalysis() {
  const board = $("board").querySelector("svg");
  board?.querySelector(".analysis-layer")?.remove();
  const found = reviewAnalysis() || analysis;
  if (!found) { $("analysis").textContent = ""; return; }
  if (found.status === "error") { $("analysis").textContent = found.error; return; }
  if (found.status !== "done") return;
  if (!found.review && !ofShown(found)) {
    $("analysis").textContent = "the position shown is not the one analysed: analyse again (a)";
    return;
  }
  $("analysis").textContent = (found.review ? "review: " : "") + chanceWords(found);
  if (found.cells.length !== 2 || !board) return;
  const [from, to] = found.cells.map((label) => board.querySelector(`.cell[data-cell="${label}"]`).getBBox());
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "analysis-layer");
  layer.innerHTML = `<defs><marker id="analysis-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto">` +
    `<path d="M0,0 L10,5 L0,10 Z" fill="#c2185b"/></marker></defs>` +
    `<line class="analysis-arrow" x1="${from.x + from.width / 2}" y1="${from.y + from.height / 2}" ` +
    `x2="${to.x + to.width / 2}" y2="${to.y + to.height / 2}"/>`;
  board.appendChild(layer);
}

// -- after a server restart: the game's last record, kept by the page --------------------
// The record of the game played as the page last knew it: the server's header
// (record_head: board, players, variant, start, agents, clock, resignation, result) and
// the log's turns, one line each, as victorus.record writes them. Kept in memory and in
// the browser's storage (a page opened after the restart still offers it).
let keptRecord = null, lostRecord = null, lostUrl = null;
const RECORD_KEY = "victorus-last-record";

function keepRecord(state) {
  keptRecord = state.mode === "play" && state.record_head ? {
    instance: state.instance, turns: logTurns.length,
    text: state.record_head + "\n\n" + logTurns.map((t) => `${t.turn} ${t.actions.join(" ")}\n`).join(""),
  } : null;
  try {        // (a game with no action yet keeps the last one stored: it may be the one lost)
    if (keptRecord && keptRecord.turns) localStorage.setItem(RECORD_KEY, JSON.stringify(keptRecord));
  } catch (e) { /* storage full or refused: the record stays in memory */ }
}

function loseGame(kept) {
  restartedNotice = true;
  lostRecord = kept && kept.turns ? kept : null;
  if (lostUrl) URL.revokeObjectURL(lostUrl);
  lostUrl = lostRecord ? URL.createObjectURL(new Blob([lostRecord.text], { type: "text/plain" })) : null;
}

// A page opened anew: a game kept from another server instance was lost with it.
function loseStoredGame(instance) {
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(RECORD_KEY)); } catch (e) { stored = null; }
  if (stored && stored.instance !== instance && stored.turns && typeof stored.text === "string") loseGame(stored);
}

function drawNotice() {
  const text = offline ? "The server is not answering (stopped or restarting): moves are off, trying again every second" :
    restartedNotice ? (lostUrl ? "The server restarted and this game was lost; its record is kept:" : "The server restarted: the game shown before was lost") :
    S.spectator ? "This tab watches: the game is played in another tab" :
    (S.watching && !S.browse ? S.watching : "");
  if ($("notice").textContent !== text) $("notice").textContent = text;
  $("take-seats").hidden = !(S.spectator && !offline);
  const link = $("lost-record");
  link.hidden = !(restartedNotice && lostUrl);
  if (lostUrl && link.getAttribute("href") !== lostUrl) link.href = lostUrl;
}

// -- every army's clock -------------------------------------------------------------------
// The game played's clocks (the live game's, even while a past position is shown): the
// army to act's time left to start its turn, the others' whole limit when their turn
// comes, and each army's turns forfeited on time; an army's cell turns red when its time
// runs low.
function lowTime(left) { return left <= Math.min(5, 0.25 * (S.time_limit || 20)); }

let clocksFor = null;
function drawClocks(left) {
  const row = $("clocks").rows[0];
  const clocks = S && S.mode === "play" ? S.army_clocks : null;
  const present = clocks ? clocks.filter((c) => c.state !== "absent") : [];
  const key = present.map((c) => c.seat).join(",");
  if (key !== clocksFor) {
    clocksFor = key;
    row.replaceChildren();
    for (const c of present) {
      const td = row.insertCell();
      td.dataset.seat = c.seat;
      td.append(swatchOf(c.seat), document.createElement("span"));
    }
  }
  present.forEach((c, k) => {
    const td = row.cells[k];
    const time = c.state === "acting" && left !== null ? `${left.toFixed(1)} s` :
      c.state === "waiting" ? `${S.time_limit} s` : c.state === "started" ? "started" : c.state === "out" ? "out" : "-";
    const lost = c.forfeits ? ` \u2717${c.forfeits}` : "";
    const text = time + lost;
    if (td.lastChild.textContent !== text) td.lastChild.textContent = text;
    td.className = `clock-${c.state}`;
    td.classList.toggle("low", c.state === "acting" && left !== null && lowTime(left));
    const words = c.state === "acting" ? `${time} left to start the turn` : c.state === "waiting" ?
      `${time} to start its next turn` : c.state === "started" ? "its turn has started: the clock stopped" : c.state;
    td.title = `${SEAT_NAMES[c.seat]}: ${words}; ${c.forfeits} turn${c.forfeits === 1 ? "" : "s"} forfeited on time`;
  });
}

// -- the rules help's pieces, drawn by the server on a small patch of the board ----------
let rulesAsked = false;
$("rules").addEventListener("toggle", async () => {
  if (!$("rules").open || rulesAsked) return;
  rulesAsked = true;
  try {
    const { panels } = await api("/api/rules");
    for (const panel of panels) {
      const figure = document.createElement("figure");
      figure.className = "rule-piece";
      figure.dataset.piece = panel.name;
      figure.innerHTML = panel.svg;
      figure.querySelector("svg").setAttribute("aria-label", `${panel.name} on ${panel.cell}: its moves`);
      const caption = document.createElement("figcaption");
      const name = document.createElement("b");
      name.textContent = panel.name;
      caption.append(name, `: ${panel.words}`);
      figure.appendChild(caption);
      $("rules-pieces").appendChild(figure);
    }
  } catch (e) {
    rulesAsked = false;
    $("rules-pieces").textContent = `the pieces' pictures did not come: ${e.message}`;
  }
});

// -- the review of a finished game: each army's chance to win, action by action ----------
// Once a game is over (or a game is watched), the server searches every position in the
// background (a bounded time each); the page draws the chances as they come, a line per
// army, and marks the actions where a team's chance fell most, each a click away.
let review = { key: null, game: null, points: [], marks: [], status: "none", length: 0 };
let reviewing = null;          // the game (gameKey) whose review the page follows
let reviewPoint = null;        // a review point shown as the analysis of its position

// A finished game played here is reviewed at once; a watched game when asked (its steps
// then share the machine with the searches).
function reviewWanted() {
  return S && S.mode === "play" && S.over;
}

let reviewDeclined = null;     // the game whose review was stopped: not started again unasked
async function followReview(asked = false) {
  if (!asked && (!reviewWanted() || reviewDeclined === gameKey())) return;
  if (reviewing === gameKey()) return;
  const game = gameKey();
  reviewing = game;
  review = { key: null, game, points: [], marks: [], status: "running", length: 0 };
  drawReview();
  try {
    await api("/api/review", {});
    let state = await api("/api/review?from=0");
    for (;;) {
      if (reviewing !== game) return;
      if (state.key !== review.key) review.points = [];
      review.key = state.key;
      review.points.push(...state.points);
      Object.assign(review, { status: state.status, marks: state.marks, length: state.length,
                              total: state.total, error: state.error });
      drawReview();
      if (state.status !== "running") return;
      await pause(400);
      state = await api(`/api/review?from=${review.points.length}`);
    }
  } catch (e) {
    if (reviewing === game) { review.status = "error"; review.error = e.message; drawReview(); }
  }
}

$("review-start").addEventListener("click", () => followReview(true));

$("review-cancel").addEventListener("click", async () => {
  try { await api("/api/review", { cancel: true }); } catch (e) { /* shown below */ }
  review.status = "cancelled";
  reviewDeclined = reviewing;
  reviewing = null;
  drawReview();
});

// The review's index of the position shown, or null.
function shownIndex() {
  if (!S) return null;
  if (S.mode === "watch") return S.watch.index;
  if (S.browse) return S.browse.index;
  return S.over ? review.length : null;       // (a finished game's end)
}

function reviewY(chance) { return 58 - 56 * chance; }

function drawReview() {
  const graph = $("review-graph"), list = $("review-marks");
  const ours = review.game === gameKey() && review.game !== null;
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
    if (path) svg += `<polyline class="review-line" data-seat="${seat}" stroke="${SEAT_COLORS[seat]}" points="${path}"/>`;
  }
  const at = shownIndex();
  if (at !== null) svg += `<line class="review-now" x1="${x(at)}" x2="${x(at)}" y1="0" y2="60"/>`;
  for (const m of review.marks) {
    svg += `<circle class="review-mark" data-index="${m.index}" cx="${x(m.index)}" cy="${reviewY(m.after).toFixed(1)}" r="2.6" fill="${SEAT_COLORS[m.seat]}"/>`;
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
function showReviewed(index) {
  const point = review.points.find((p) => p.index === index);
  reviewPoint = point ? { ...point, index } : null;
  analysis = null;
  if (S.mode === "watch") stepTo(index);
  else browse(index === review.length ? null : index);
}

$("review-marks").addEventListener("click", (event) => {
  const button = event.target.closest(".review-jump");
  if (button) showReviewed(Number(button.dataset.index) - 1);
});
$("review-graph").addEventListener("click", (event) => {
  if (!review.length) return;
  const mark = event.target.closest(".review-mark");
  if (mark) { showReviewed(Number(mark.dataset.index) - 1); return; }
  const box = $("review-graph").getBoundingClientRect();
  const index = Math.round(review.length * (event.clientX - box.left) / box.width);
  showReviewed(Math.max(0, Math.min(review.length, index)));
});

// A review point as the analysis of the position shown (its index must be the one shown).
function reviewAnalysis() {
  if (!reviewPoint || shownIndex() !== reviewPoint.index || reviewing !== gameKey()) return null;
  const p = reviewPoint;
  const team = S.present.filter((s) => S.armies[s].team === S.armies[p.seat].team || s === p.seat);
  const over = p.best === null;
  return { status: "done", over, best: p.best, cells: p.cells, chance: p.chances[p.seat],
           chances: p.chances, team: (S.armies[p.seat].team === null ? [p.seat] : team).map((s) => SEAT_NAMES[s]),
           review: true };
}

// -- a live region: each new action, and what followed, told to screen readers ------------
let announced = null;
function announce() {
  const actions = logTurns.reduce((sum, turn) => sum + turn.actions.length, 0);
  const key = `${gameKey()}:${S.mode === "watch" ? S.watch.index : actions}`;
  if (announced === null || S.browse) { announced = key; return; }
  if (key === announced) return;
  announced = key;
  const newest = (S.summary || []).at(-1);
  if (!newest) return;
  const events = (newest.events || []).filter((e) => !e.endsWith(FROZEN));
  $("announce").textContent = [newest.text, ...events].join(". ");
}

$("rematch").addEventListener("click", () => {
  formFor = null;
  syncForm();                            // the game's own settings, its opponents included
  $("new-game").requestSubmit();
});

// -- drag and drop, and the last move drawn as a short glide -----------------------------
// A piece that can move may be dragged to its destination (the click-click way stays):
// the piece follows the pointer, and the leg is played where it is let go.
let drag = null;               // {from, piece, origin [x, y], start [x, y], moved}

function pieceAt(label) { return $("board").querySelector(`.piece[data-cell="${label}"]`); }

function translateOf(piece) {
  const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(piece.getAttribute("transform") || "");
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

$("board").addEventListener("pointerdown", (event) => {
  const cell = event.target.closest(".cell");
  if (!cell || !S || !S.person_to_act || S.browse || offline || event.button !== 0) return;
  if (!cell.classList.contains("origin")) return;
  const piece = pieceAt(cell.dataset.cell);
  if (!piece) return;
  drag = { from: cell.dataset.cell, piece, origin: translateOf(piece), start: [event.clientX, event.clientY], moved: false };
});

window.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const dx = event.clientX - drag.start[0], dy = event.clientY - drag.start[1];
  if (!drag.moved && Math.hypot(dx, dy) < 6) return;
  if (!drag.moved) {
    drag.moved = true;
    selected = drag.from;
    draw();                                      // its destinations light up
    drag.piece = pieceAt(drag.from) || drag.piece;
    drag.piece.classList.add("dragged");
  }
  const ctm = $("board").querySelector("svg").getScreenCTM();
  const scale = ctm ? ctm.a : 1;
  drag.piece.setAttribute("transform", `translate(${drag.origin[0] + dx / scale},${drag.origin[1] + dy / scale})`);
});

let dropped = false;           // a drop's pointerup is not also a click
window.addEventListener("pointerup", (event) => {
  if (!drag) return;
  const { from, piece, origin, moved } = drag;
  drag = null;
  if (!moved) return;                            // a click: the click handler has it
  dropped = true;
  setTimeout(() => { dropped = false; });
  piece.classList.remove("dragged");
  piece.setAttribute("transform", `translate(${origin[0]},${origin[1]})`);
  const cell = document.elementFromPoint(event.clientX, event.clientY)?.closest(".cell");
  if (!cell || cell.dataset.cell === from) return;
  const leg = legs().find((l) => l[0] === from && l[1] === cell.dataset.cell);
  if (leg) { playFromBoard(leg[2]); return; }
  $("error").textContent = `${from} cannot go to ${cell.dataset.cell}: drop it on a green cell`;
});

// A drag the browser took over (a touch that scrolls the board): the piece goes back.
window.addEventListener("pointercancel", () => {
  if (!drag) return;
  drag.piece.classList.remove("dragged");
  drag.piece.setAttribute("transform", `translate(${drag.origin[0]},${drag.origin[1]})`);
  drag = null;
});

// The last move's piece glides from where it was to its cell (160 ms), unless the system
// asks for reduced motion.
let glided = null;
function glide() {
  const key = `${gameKey()}:${logTurns.reduce((sum, turn) => sum + turn.actions.length, 0)}`;
  const first = glided === null;
  if (key === glided) return;
  glided = key;
  if (first || S.browse || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const newest = (S.summary || []).at(-1);
  const turn = logTurns[logTurns.length - 1];
  const lastAction = turn && turn.actions.length ? turn.actions[turn.actions.length - 1] : "";
  if (!newest || newest.cells.length < 2 || !/[-x]/.test(lastAction)) return;
  const [from, to] = newest.cells.slice(-2);
  const piece = pieceAt(to), fromCell = $("board").querySelector(`.cell[data-cell="${from}"]`);
  const toCell = $("board").querySelector(`.cell[data-cell="${to}"]`);
  if (!piece || !fromCell || !toCell) return;
  const a = fromCell.getBBox(), b = toCell.getBBox();
  const [x, y] = translateOf(piece);
  const dx = a.x + a.width / 2 - (b.x + b.width / 2), dy = a.y + a.height / 2 - (b.y + b.height / 2);
  const start = performance.now();
  piece.classList.add("gliding");
  const step = (now) => {
    const t = Math.min(1, (now - start) / 160), left = 1 - t * (2 - t);      // ease out
    piece.setAttribute("transform", `translate(${x + dx * left},${y + dy * left})`);
    if (t < 1 && piece.isConnected) requestAnimationFrame(step);
    else piece.classList.remove("gliding");
  };
  piece.setAttribute("transform", `translate(${x + dx},${y + dy})`);
  requestAnimationFrame(step);
}
