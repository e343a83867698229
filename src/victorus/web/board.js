// The victorus page, its second part (after app.js): the armies' marks and holds drawn as
// small pieces, the cells described (screen readers, tooltips), keyboard play, the result
// banner, the tab's title, sounds, and the analysis on request.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

// The seats played from this page, and their team mates (R33).
function personSeats() {
  if (!S || S.mode !== "play") return [];
  return S.present.filter((s) => S.seats[s] === "person");
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
  const agent = S.present.map((s) => S.seats[s]).find((c) => c !== "person");
  if (agent && [...$("new-agent").options].some((o) => o.value === agent)) $("new-agent").value = agent;
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
  const seat = personSeats()[0];
  if (seat === undefined) return;
  if (!confirm(`Resign? ${SEAT_NAMES[seat]} gives up this game; the other team wins.`)) return;
  send("/api/resign", { seat });
});

// -- analysis on request ------------------------------------------------------------------
let analysis = null;

$("analyse").addEventListener("click", async () => {
  $("analysis").textContent = "analysing...";
  try {
    await api("/api/analyse", {});
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
});

function drawAnalysis() {
  const board = $("board").querySelector("svg");
  board?.querySelector(".analysis-layer")?.remove();
  if (!analysis) return;
  if (analysis.status === "error") { $("analysis").textContent = analysis.error; return; }
  if (analysis.status !== "done") return;
  if (analysis.version !== S.version) {
    $("analysis").textContent = "the position changed since the analysis: analyse again";
    return;
  }
  const team = analysis.team.join(", ");
  $("analysis").textContent = `${team}: ${Math.round(100 * analysis.chance)}% to win; ` +
    `others ${Math.round(100 * (1 - analysis.chance))}%; best: ${analysis.best}`;
  if (analysis.cells.length !== 2 || !board) return;
  const [from, to] = analysis.cells.map((label) => board.querySelector(`.cell[data-cell="${label}"]`).getBBox());
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
  $("notice").textContent = restartedNotice ? "the server restarted: your game was lost" :
    (S.watching && !S.browse ? S.watching : "");
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
