// The victorus page: told of each change by /api/socket (long polling /api/state while the
// socket is closed, and opening it again), it asks for the state, draws what the server
// sends, and turns clicks into API calls. The server checks everything; this script only
// helps.
"use strict";

const $ = (id) => document.getElementById(id);
// From the server (/api/meta): the seats' names, colours and marks, the seats present per
// number of players, the agents offered, the frames held.
let SEAT_NAMES = [], SEAT_COLORS = [], MARKS = [], MARK_NAMES = [], PRESENT = {};
let CONTROLLERS = ["person"], FRAMES_HELD = 1, TEAM_GROUPS = {}, ALLIED_GROUPS = [];
let offline = false;     // the server does not answer: moves are off, the page retries
let S = null;            // the last full state from the server
let selected = null;     // the cell label of the piece picked to move
let playing = null;      // the watch mode's playback run (null when paused)
let sending = false;     // a click's request is on its way: further clicks wait for it
let browsing = null;     // in play, the number of actions of the past position shown

// This tab's name (kept over a reload): the server lets one tab play a game's person seats,
// the others watch until one takes them (play from this tab).
const TAB = (() => {
  let tab = null;
  try { tab = sessionStorage.getItem("victorus-tab"); } catch (e) { tab = null; }
  if (!tab || !/^[0-9a-f]{16}$/.test(tab)) {
    tab = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
    try { sessionStorage.setItem("victorus-tab", tab); } catch (e) { /* a tab of its own each load */ }
  }
  return tab;
})();

async function api(path, body) {
  const options = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json", "X-Victorus-Tab": TAB }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

async function send(path, body) {
  try {
    const answer = await api(path, body);
    $("error").textContent = "";
    if (path === "/api/new" || path === "/api/watch") restartedNotice = false;
    const wasBrowsing = browsing !== null;
    browsing = null;                     // an action, an undo, a new game: the live game
    // The change comes with the request waiting at the server (follow); a past position
    // shown is left for the game's own.
    if (wasBrowsing) await refresh(true);
    else await reached(answer.version);
    return true;
  } catch (e) {
    $("error").textContent = e.message;
    return false;
  }
}

// Promises of a version shown: resolved as soon as the page shows it, or a newer one.
let waiting = [];

function reached(version) {
  if (S && S.version >= version) return Promise.resolve();
  return new Promise((resolve) => waiting.push({ version, resolve }));
}

function resolveReached(restarted) {
  const done = waiting.filter((w) => restarted || S.version >= w.version);
  waiting = waiting.filter((w) => !done.includes(w));
  for (const w of done) w.resolve();
}

// What the page shows besides the game's version: a state asked with other choices
// (another view, coordinates, a past position) is not drawn.
function shownChoices() {
  const labels = $("coordinates").checked ? 1 : 0;
  const at = browsing === null ? "" : `&at=${browsing}`;
  return `view=${$("view").value}&labels=${labels}${at}`;
}

// The board's frame and the log the page holds: the server sends only what differs.
// Frames by key, the oldest first (one per view: the rotating board turns every turn).
const heldFrames = new Map();
let frameKey = "", logKey = null, logTurns = [], shown = null;

// The state: in full, or (``wait`` seconds) once it differs from the one shown: the
// server holds the request until something changes (long polling). False on an error.
// The first answer after an outage is whole (a restarted server counts versions anew).
async function refresh(full, wait = 0) {
  const choices = shownChoices();
  const since = !full && !offline && S && shown === choices ? `&since=${S.version}&wait=${wait}` : "";
  const held = `&frame=${[...heldFrames.keys()].join(",")}` +
    (logKey === null ? "" : `&log=${logKey}:${logTurns.length}`);
  let state;
  try {
    state = await api(`/api/state?${choices}${since}${held}&tab=${TAB}${S === null || !S.spectator ? "&claim=1" : ""}`);
  } catch (e) {
    browsing = null;                     // (an undo may have taken the browsed action back)
    if (e instanceof TypeError) setOffline(true);        // no answer at all: the server is gone
    else $("error").textContent = `server: ${e.message}`;
    return false;
  }
  if ($("error").textContent.startsWith("server: ")) $("error").textContent = "";  // back again
  if (offline) setOffline(false);
  if (state.unchanged) { showClock(state.clock); return true; }
  if (choices !== shownChoices()) return true;          // asked before the choices changed
  // Versions only grow (on one server): a slow answer must not undo a newer state (and
  // the piece picked).
  const restarted = S !== null && state.instance !== S.instance;
  // A game played here is gone with the server that held it: its last record is offered.
  if (restarted && S.mode === "play" && logTurns.length) loseGame(keptRecord);
  else if (S === null) loseStoredGame(state.instance);
  if (S && !restarted &&
      (state.version < S.version || (state.version === S.version && shown === choices))) {
    return true;
  }
  if (state.frame !== null) {
    heldFrames.delete(state.frame_key);
    heldFrames.set(state.frame_key, state.frame);
    if (heldFrames.size > FRAMES_HELD) heldFrames.delete(heldFrames.keys().next().value);
  } else if (!heldFrames.has(state.frame_key)) {      // (dropped since it was asked for)
    return refresh(true);
  }
  if (!S || restarted || S.version !== state.version || S.view !== state.view) selected = null;
  // (a tab watches a game whose person seats another tab plays: none, nothing to watch)
  if (state.spectator && !(state.mode === "play" && state.present.some((s) => state.seats[s] === "person"))) state.spectator = false;
  if (state.spectator) Object.assign(state, { person_to_act: false, legal: null, can_undo: false });
  S = state;
  shown = choices;
  if (state.frame_key !== frameKey) {
    $("board").innerHTML = heldFrames.get(state.frame_key);
    frameKey = state.frame_key;
    fitCells();
  }
  $("board").querySelector(".position").innerHTML = state.position;
  drawCoordinates();
  updateLog(state);
  keepRecord(state);
  draw();
  listen();
  resolveReached(restarted);
  return true;
}
let restartedNotice = false;

function legs() { return S && S.legal ? S.legal.legs : []; }

function draw() {
  document.body.classList.toggle("watching", S.mode === "watch");
  const armies = new Map([...$("board").querySelectorAll(".piece")]
    .map((piece) => [piece.dataset.cell, piece.dataset.army]));
  const origins = new Set(legs().map((l) => l[0]));
  if (!selected && S.phase !== "start" && origins.size === 1) selected = [...origins][0];
  const mine = legs().filter((l) => l[0] === selected);
  const targets = new Set(mine.map((l) => l[1]));
  const captures = new Set(mine.filter((l) => l[2].includes("x")).map((l) => l[1]));
  const summary = S.summary || [];
  const recent = new Set(summary.length ? summary[summary.length - 1].cells : []);
  for (const cell of $("board").querySelectorAll(".cell")) {
    const label = cell.dataset.cell;
    if (armies.has(label)) cell.dataset.army = armies.get(label);
    else delete cell.dataset.army;
    cell.classList.toggle("recent", recent.has(label));
    cell.classList.toggle("origin", origins.has(label));
    cell.classList.toggle("selected", label === selected);
    cell.classList.toggle("target", targets.has(label));
    cell.classList.toggle("capture", captures.has(label));
  }
  describeCells();
  markOwnPieces();
  drawAnalysis();
  $("legend-pieces").textContent = Object.entries(S.pieces).map(([l, n]) => `${l} ${n}`).join(", ");
  drawStatus();
  drawOutcome();
  syncForm();
  drawSummary(summary);
  drawArmies();
  drawLog();
  drawReview();
  followReview();
  announce();
  glide();
  $("vpn").textContent = S.vpn || "(only at the start of a running turn)";
  $("placement").textContent = S.placement;
  showClock(S.clock);
}

// Where the turn is, in words (R15, R16, R22).
function phaseWords() {
  if (S.phase === "start") return "start of the turn";
  if (S.phase === "move") return "second leg of the move" + (S.legal && S.legal.words.includes("stop") ? ", or press stop" : "");
  return "bonus move: move a piece or press end";
}

function drawStatus() {
  const name = S.to_move_name;
  let text;
  if (S.browse) {
    text = `The position after action ${S.browse.index} of ${S.browse.length} ` +
      (S.browse.over ? "(the game is over)" : "(the game goes on)");
  } else if (S.over) {
    const winners = S.winners.map((s) => SEAT_NAMES[s]).join(", ");
    text = S.winners.length ? `Game over (${S.reason}): ${winners} ${S.winners.length > 1 ? "win" : "wins"}`
      : `Game over (${S.reason}): a draw`;
  } else {
    text = `${name[0].toUpperCase()}${name.slice(1)} to act, round ${S.round}: ${phaseWords()}`;
    if (S.mode === "play" && !S.person_to_act) text += ` (${S.seats[S.to_move]})`;
  }
  $("status").textContent = text;
  $("message").textContent = S.message || "";
  $("message").title = S.message || "";
  const words = S.legal ? S.legal.words : [];
  for (const word of ["stop", "end", "pass"]) $(word).disabled = !words.includes(word);
  // (undo and resign are a player's: not once the player's armies are out)
  const playing = activePeople().length > 0;
  $("undo").disabled = !S.can_undo || !playing || offline;
  $("resign").disabled = !(S.mode === "play" && !S.over && !S.browse && playing) || offline;
  $("typed-move").disabled = !S.person_to_act || offline;
  if (offline) for (const word of ["stop", "end", "pass"]) $(word).disabled = true;
  const typed = $("typed-moves");
  typed.innerHTML = "";
  for (const text of [...legs().map((l) => l[2]), ...words]) typed.appendChild(new Option(text));
  $("play-controls").hidden = S.mode !== "play";
  $("live").hidden = !S.browse;
  $("watch-controls").hidden = S.mode !== "watch";
  if (S.mode === "watch") {
    $("scrub").max = S.watch.length;
    $("scrub").value = S.watch.index;
    $("watch-position").textContent = `${S.watch.title}: action ${S.watch.index} of ${S.watch.length}`;
  } else if (playing) {
    stopPlayback();
  }
}

// The last turns in words, with what they did (a rescue, a promotion, an army out), the
// newest last and marked on the board; the list keeps its height and scrolls to the newest.
function drawSummary(summary) {
  const list = $("summary");
  list.innerHTML = "";
  for (const turn of summary) {
    const li = document.createElement("li");
    li.className = `seat-${turn.seat}`;
    const words = document.createElement("span");
    words.className = "words";
    words.textContent = turn.text;
    li.appendChild(words);
    appendEvents(li, turn.events || []);
    list.appendChild(li);
  }
  // The newest turn's first line (who acted, and what) at the top of the box's view: its
  // events below it may be scrolled to.
  const newest = list.lastElementChild;
  list.scrollTop = newest ? newest.offsetTop : 0;
}

// A turn's events, one line each; the pieces frozen after a capture (R24) folded into one
// line under it, opened on a click.
const FROZEN = " is frozen for the rest of the turn";
function appendEvents(li, events) {
  const frozen = events.filter((e) => e.endsWith(FROZEN));
  for (const event of events.filter((e) => !e.endsWith(FROZEN))) {
    const line = document.createElement("span");
    line.className = "event";
    line.textContent = event;
    li.appendChild(line);
  }
  if (!frozen.length) return;
  const fold = document.createElement("details");
  fold.className = "event frozen";
  const head = document.createElement("summary");
  head.textContent = `frozen for the rest of the turn: ${frozen.map((e) => e.slice(0, -FROZEN.length).replace(/^.*? (\S+ on \S+)$/, "$1")).join(", ")}`;
  fold.appendChild(head);
  for (const event of frozen) {
    const line = document.createElement("span");
    line.className = "event";
    line.textContent = event;
    fold.appendChild(line);
  }
  li.appendChild(fold);
}

function drawArmies() {
  const body = $("armies").querySelector("tbody");
  body.innerHTML = "";
  for (const a of S.armies) {
    const present = S.present.includes(a.seat);
    const row = document.createElement("tr");
    row.id = `army-${a.seat}`;
    row.classList.toggle("to-move", a.seat === S.to_move && !S.over);
    row.classList.toggle("absent", !present);
    const cell = (text) => { const td = document.createElement("td"); td.textContent = text; row.appendChild(td); return td; };
    const name = cell(a.name);
    name.prepend(swatchOf(a.seat));
    if (a.team) {                     // the team on a line of its own: the name is never cut
      const team = document.createElement("small");
      team.className = "team";
      team.textContent = `team ${a.team}`;
      name.appendChild(team);
    }
    name.title = `${a.name}: its pieces carry the ${MARK_NAMES[a.seat]} mark`;
    const who = cell("");
    if (present && S.mode === "play") {
      const select = document.createElement("select");
      select.className = "controller";
      select.dataset.seat = a.seat;
      select.setAttribute("aria-label", `who plays ${a.name}`);
      const options = CONTROLLERS.includes(S.seats[a.seat]) ? CONTROLLERS : [...CONTROLLERS, S.seats[a.seat]];
      for (const c of options) select.add(new Option(c, c, false, c === S.seats[a.seat]));
      select.addEventListener("change", () => {
        const seats = S.seats.slice();
        seats[a.seat] = select.value;
        send("/api/seats", { seats });
      });
      who.appendChild(select);
    } else {
      who.textContent = present ? S.seats[a.seat] : "absent";
    }
    cell(a.state === "eliminated" ? "out" : a.state).title = a.state;
    drawHolds(cell(""), a.held);
    cell(String(a.points));
    cell(String(a.knight_captures));
    const card = [...a.promotion];
    if (a.royal_knights) card.push(`${a.royal_knights} royal`);
    cell(card.join(", ") || "-").className = "promotion";
    cell(lapWords(a.king_laps)).className = "king-laps";
    cell(lapWords(a.queen_laps)).className = "queen-laps";
    body.appendChild(row);
  }
}

// The log grows by the turns the server sends: from turn ``log_from`` on (the last turn
// held may have grown), or in full when the log changed otherwise (undo, a new game).
function updateLog(state) {
  const log = $("log");
  const from = state.log_key === logKey ? state.log_from : 0;
  logKey = state.log_key;
  logTurns.length = from;
  while (log.children.length > from) log.lastElementChild.remove();
  let index = logTurns.reduce((sum, turn) => sum + turn.actions.length, 0);
  for (const turn of state.log) {
    logTurns.push(turn);
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
      span.dataset.index = index;
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
function drawLog() {
  const log = $("log");
  const current = S.mode === "watch" ? String(S.watch.index) : S.browse ? String(S.browse.index) : null;
  for (const act of log.querySelectorAll(".act.current")) {
    if (act.dataset.index !== current) act.classList.remove("current");
  }
  if (current !== null) log.querySelector(`.act[data-index="${current}"]`)?.classList.add("current");
  const mark = log.querySelector(".act.current") || (S.mode === "play" ? log.lastElementChild : null);
  if (mark) requestAnimationFrame(() => scrollLogTo(mark));   // with the frame's own layout
}

// Bring a log entry into the log's own view; the window never moves (a player reading the
// board or the header must not see the page creep while agents play).
function scrollLogTo(mark) {
  const log = $("log");
  const top = mark.offsetTop, bottom = top + mark.offsetHeight;    // #log is positioned
  if (top < log.scrollTop) log.scrollTop = top;
  // (a turn taller than the box shows its first line: who acted)
  else if (bottom > log.scrollTop + log.clientHeight) log.scrollTop = Math.min(top, bottom - log.clientHeight);
}

// The clock counts down in the page between the server's answers.
let clockLeft = null, clockAt = 0;

function showClock(clock) {
  clockLeft = clock === undefined ? null : clock;
  clockAt = performance.now();
  tickClock();
}

// The clock is the live game's, even while a past position is shown; under a quarter of
// the time limit (or five seconds) it turns red, and warns once with a sound.
let lowWarned = null;
function tickClock() {
  const clock = $("clock");
  const left = clockLeft === null ? null : Math.max(0, clockLeft - (performance.now() - clockAt) / 1000);
  drawClocks(left);
  if (left === null || !S || S.over) { clock.textContent = ""; clock.classList.remove("low"); return; }
  const seat = S.clock_seat === undefined ? S.to_move : S.clock_seat;
  const who = personSeats().includes(seat) ? "you have" : `${SEAT_NAMES[seat]} has`;
  clock.textContent = `${who} ${left.toFixed(1)} s to start the turn`;
  const low = lowTime(left);
  clock.classList.toggle("low", low);
  const turn = `${S.game}:${logTurns.length}`;
  if (low && personSeats().includes(seat) && lowWarned !== turn) { lowWarned = turn; beep("low"); }
}

// -- clicks on the board -------------------------------------------------------------
$("board").addEventListener("click", (event) => {
  const cell = event.target.closest(".cell");
  if (!cell || !S || sending || dropped) return;
  if (offline) { $("error").textContent = "the server is not answering: moves wait until it is back"; return; }
  if (S.spectator) { $("error").textContent = "this tab watches: the game is played in another tab (play from this tab to take it)"; return; }
  const label = cell.dataset.cell;
  if (S.mode !== "play") return;
  if (S.browse) { $("error").textContent = "this is a past position: back to the game to play"; return; }
  if (!S.person_to_act) {
    $("error").textContent = S.over ? "the game is over; start a new game" :
      `it is ${S.to_move_name}'s turn, played by ${S.seats[S.to_move]}`;
    return;
  }
  const origins = new Set(legs().map((l) => l[0]));
  if (selected === null || label === selected) {
    if (label === selected) { selected = null; draw(); return; }
    if (origins.has(label)) { selected = label; $("error").textContent = ""; draw(); return; }
    $("error").textContent = `no legal leg starts on ${label}; the pieces that can move have a blue ring`;
    return;
  }
  const leg = legs().find((l) => l[0] === selected && l[1] === label);
  if (leg) { playFromBoard(leg[2]); return; }
  if (origins.has(label)) { selected = label; $("error").textContent = ""; draw(); return; }
  // Not a legal destination: ask the server anyway, which explains what is legal.
  const text = `${selected}${cell.dataset.army !== undefined ? "x" : "-"}${label}`;
  playFromBoard(text);
});

async function playFromBoard(action) {
  sending = true;
  try { await send("/api/play", { action }); } finally { sending = false; }
}

for (const word of ["stop", "end", "pass"]) {
  $(word).addEventListener("click", () => send("/api/play", { action: word }));
}
$("undo").addEventListener("click", () => send("/api/undo", {}));
$("view").addEventListener("change", () => refresh(true));
$("coordinates").addEventListener("change", () => refresh(true));

$("new-game").addEventListener("submit", (event) => {
  event.preventDefault();
  if (S && S.mode === "play" && !S.over && logTurns.length &&
      !confirm("A game is on: start a new game and leave this one?")) return;
  const you = $("new-you").value;
  const agent = $("new-agent").value;
  const players = Number($("new-players").value);
  const mine = you === "none" ? [] : $("new-team").checked ? teamOf(Number(you), players, $("new-variant").value) : [Number(you)];
  const seats = [0, 1, 2, 3, 4, 5].map((s) => (mine.includes(s) ? "person" : agent));
  const body = { board: $("new-board").value, players, variant: $("new-variant").value.trim() || "standard", seats };
  const limit = $("new-time-limit").value.trim();
  if (limit !== "") body.time_limit = Number(limit);
  const delay = $("new-agent-delay").value.trim();
  if (delay !== "") body.agent_delay = Number(delay);
  send("/api/new", body).then((ok) => {   // (on a phone the form is below the board)
    if (ok && $("board").getBoundingClientRect().top < 0) $("board").scrollIntoView();
  });
});

$("watch-simulation").addEventListener("submit", (event) => {
  event.preventDefault();
  const simulate = {
    // The seed as its digits: 64 bits, more than a JavaScript number holds exactly.
    seed: $("sim-seed").value.trim() || "0", index: Number($("sim-index").value),
    board: $("new-board").value, players: Number($("new-players").value),
    variant: $("new-variant").value.trim() || "standard",
  };
  send("/api/watch", { simulate });
});

$("watch-record").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("record-file").files[0];
  if (!file) { $("error").textContent = "choose a record file (.vrec) first"; return; }
  send("/api/watch", { record: await file.text() });
});

// -- the watch mode's controls ---------------------------------------------------------
function stepTo(index) {
  if (!S || S.mode !== "watch") return Promise.resolve(false);
  const bounded = Math.max(0, Math.min(S.watch.length, index));
  if (bounded === S.watch.index) return Promise.resolve(false);
  return send("/api/step", { index: bounded });
}

function stopPlayback() {
  playing = null;
  $("playback").textContent = "play";
}

// Playback keeps time: at ``speed`` actions a second the game is at action
// from + speed * seconds, and each step shows the action due (several at once when a
// step takes longer than 1/speed s). A step made by hand meanwhile restarts the count.
function startPlayback() {
  stopPlayback();
  $("playback").textContent = "pause";
  const run = {};
  playing = run;
  const speed = Number($("speed").value);
  let start = performance.now(), from = S.watch.index, shownIndex = from;
  (async () => {
    while (playing === run) {
      if (!S || S.mode !== "watch" || S.watch.index >= S.watch.length) { stopPlayback(); return; }
      if (S.watch.index !== shownIndex) { start = performance.now(); from = shownIndex = S.watch.index; }
      const due = from + Math.floor((performance.now() - start) * speed / 1000);
      if (due > S.watch.index) {
        if (!(await stepTo(Math.min(due, S.watch.length)))) { stopPlayback(); return; }  // error shown
        shownIndex = S.watch.index;
      } else {
        const next = start + (due + 1 - from) * 1000 / speed;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
      }
    }
  })();
}

$("first").addEventListener("click", () => stepTo(0));
$("prev").addEventListener("click", () => stepTo(S.watch.index - 1));
$("next").addEventListener("click", () => stepTo(S.watch.index + 1));
$("last").addEventListener("click", () => stepTo(S.watch.length));
$("playback").addEventListener("click", () => (playing ? stopPlayback() : startPlayback()));
$("speed").addEventListener("change", () => { if (playing) startPlayback(); });
$("scrub").addEventListener("change", () => stepTo(Number($("scrub").value)));
$("log").addEventListener("click", (event) => {
  const act = event.target.closest(".act");
  if (!act || !S) return;
  if (S.mode === "watch") stepTo(Number(act.dataset.index));
  else browse(Number(act.dataset.index));
});

// Browse the game being played: a past position, read only; the game goes on meanwhile.
function browse(index) {
  browsing = index === null ? null : Math.max(0, index);
  selected = null;
  refresh(true);
}
$("live").addEventListener("click", () => browse(null));
$("take-seats").addEventListener("click", () => send("/api/take", {}));

document.addEventListener("keydown", (event) => {
  if (!S || event.target.closest("input, select, textarea")) return;
  if (shortcut(event)) return;
  if (S.browse) {
    const to = { ArrowLeft: S.browse.index - 1, ArrowRight: S.browse.index + 1, Home: 0, End: null };
    if (event.key in to) {
      event.preventDefault();
      browse(to[event.key] === null || to[event.key] >= S.browse.length ? null : to[event.key]);
    }
    return;
  }
  if (S.mode !== "watch") return;
  const moves = { ArrowLeft: S.watch.index - 1, ArrowRight: S.watch.index + 1, Home: 0, End: S.watch.length };
  if (event.key in moves) { event.preventDefault(); stepTo(moves[event.key]); }
});

// Shortcut keys (listed in the help): true if the key was one.
function shortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  const click = (id) => { if (!$(id).disabled && !$(id).closest("[hidden]")) $(id).click(); };
  const keys = {
    a: () => analyse(), s: () => click("stop"), e: () => click("end"), p: () => click("pass"),
    u: () => click("undo"), m: () => $("typed-move").focus(), b: () => $("board").focus(),
    "?": () => { $("keys").open = true; $("keys").scrollIntoView({ block: "nearest" }); },
  };
  if (!(event.key in keys) || event.target.closest("#board .cell") && event.key === " ") return false;
  event.preventDefault();
  keys[event.key]();
  return true;
}

// The seats of ``seat``'s team (R33; the allied variant's teams when the variant says so).
function teamOf(seat, players, variant) {
  const groups = /allied/.test(variant) && players === 6 ? ALLIED_GROUPS : TEAM_GROUPS[players] || [];
  return groups.find((g) => g.includes(seat)) || [seat];
}

// The server is gone (no answer at all): said in words, moves off; the page retries each
// second, and once it answers again the game goes on (or, after a restart, its last
// record is offered) and the socket is opened again.
function setOffline(on) {
  offline = on;
  if (!on && retrySocket) retrySocket();              // the socket's next try is now
  document.body.classList.toggle("offline", on);
  if (S) { drawStatus(); drawNotice(); }
}

// With coordinates on, the cells under a piece get their label over it (a small corner
// text with a white halo: the frame's own label is hidden by the piece).
function drawCoordinates() {
  const svg = $("board").querySelector("svg");
  svg?.querySelector(".coord-layer")?.remove();
  if (!svg || !$("coordinates").checked) return;
  const layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
  layer.setAttribute("class", "coord-layer");
  layer.setAttribute("aria-hidden", "true");
  for (const piece of svg.querySelectorAll(".piece")) {
    const cell = svg.querySelector(`.cell[data-cell="${piece.dataset.cell}"]`);
    if (!cell) continue;
    const box = cell.getBBox();
    const text = document.createElementNS("http://www.w3.org/2000/svg", "text");
    text.setAttribute("x", (box.x + box.width * 0.5).toFixed(1));
    text.setAttribute("y", (box.y + box.height * 0.2).toFixed(1));
    text.setAttribute("text-anchor", "middle");
    text.textContent = piece.dataset.cell;
    layer.appendChild(text);
  }
  svg.appendChild(layer);
}

function lapWords(laps) {
  if (laps === null) return "-";
  return laps < 0 ? `${-laps} back` : String(laps);
}

// The header's height (it wraps on narrow windows) bounds the board's and the panel's.
function fitBoard() {
  const top = document.querySelector("main").getBoundingClientRect().top + window.scrollY;
  document.documentElement.style.setProperty("--board-top", `${top}px`);
}
window.addEventListener("resize", () => { fitBoard(); fitCells(); });

// On a phone the board is at least wide enough for cells of TOUCH_PX (a finger's size): a
// wider board scrolls sideways in its box, centred at first.
const TOUCH_PX = 44;
function fitCells() {
  const svg = $("board").querySelector("svg"), box = $("board-box");
  if (!svg) return;
  svg.style.width = "";
  if (!matchMedia("(max-width: 700px)").matches) return;
  const cell = svg.querySelector(".cell");
  if (!cell) return;
  const r = cell.getBoundingClientRect(), small = Math.min(r.width, r.height);
  if (small <= 0 || small >= TOUCH_PX) return;
  svg.style.width = `${Math.ceil(svg.getBoundingClientRect().width * TOUCH_PX / small) + 1}px`;
  box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
}
fitBoard();

// The seats' names in the selects, and the agents offered, as the server says.
async function loadMeta() {
  const meta = await api("/api/meta");
  SEAT_NAMES = meta.seat_names;
  SEAT_COLORS = meta.seat_colors;
  MARKS = meta.army_marks;
  MARK_NAMES = meta.army_mark_names;
  PRESENT = meta.present_seats;
  CONTROLLERS = ["person", ...meta.agents];
  TEAM_GROUPS = meta.team_groups;
  ALLIED_GROUPS = meta.allied_groups;
  FRAMES_HELD = meta.frames_held;
  SEAT_NAMES.forEach((name, seat) => {
    $("new-you").add(new Option(name, String(seat), seat === 0, seat === 0), seat);
    $("view").add(new Option(name, String(seat), seat === 0, seat === 0), seat);
  });
  for (const agent of meta.agents) $("new-agent").add(new Option(agent, agent));
  drawMarkLegend();
  offerPresentSeats();
  fitBoard();                            // the header may have grown
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The socket said the game changed: ask for the state (one request at a time, the last
// change included); after an error, again each second until the server answers.
let catching = false, behind = false;
async function catchUp() {
  behind = true;
  if (catching) return;
  catching = true;
  while (behind) {
    behind = false;
    if (!(await refresh(false, 0))) { behind = true; await pause(1000); }
  }
  catching = false;
}

// The socket: a message {version, instance, clock} at once and at every change. Resolves
// once it is closed: whether it had opened. While it is open it is ``socket``, and the
// server counts this tab as alive (it holds its seats).
let socket = null;
function openSocket() {
  return new Promise((resolve) => {
    let ws;
    try {
      ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/socket?tab=${TAB}`);
    } catch (e) {
      resolve(false);
      return;
    }
    ws.onopen = () => { socket = ws; };
    ws.onmessage = (event) => {
      const notice = JSON.parse(event.data);
      if (!S || notice.instance !== S.instance || notice.version !== S.version) catchUp();
      else showClock(notice.clock);
    };
    ws.onclose = () => {
      const opened = socket === ws;
      if (opened) socket = null;
      resolve(opened);
    };
  });
}

// While the socket is closed, one request waits at the server for the next change; after
// an error, ask again in a second without waiting, so that the page sees at once that the
// server is back. The first asks for the whole state: the server may have restarted.
let polling = false;
async function poll() {
  polling = true;
  let full = true, wait = 0;
  while (socket === null) {
    if (await refresh(full, wait)) { full = false; wait = 20; continue; }
    wait = 0;
    await pause(1000);
  }
  polling = false;
}

// The socket's next try: after ``ms``, or at once when the server answers again.
let retrySocket = null;
function socketBackoff(ms) {
  return new Promise((resolve) => {
    retrySocket = resolve;
    setTimeout(resolve, ms);
  });
}

// The live connection: the socket, opened again whenever it closes (a server restarted,
// a network cut) after 1, 2, 4 ... up to 30 seconds, the page long-polling meanwhile.
async function follow() {
  while (!(await loadMeta().then(() => true, (e) => { $("error").textContent = `server: ${e.message}`; return false; }))) {
    await pause(1000);
  }
  while (!(await refresh(true))) await pause(1000);
  let delay = 1000;
  for (;;) {
    if (await openSocket()) delay = 1000;
    if (!polling) poll();
    await socketBackoff(delay);
    delay = Math.min(2 * delay, 30000);
  }
}
setInterval(tickClock, 100);
// (board.js, loaded after this script, draws the marks, plays by keyboard and sound.)
document.addEventListener("DOMContentLoaded", follow);
