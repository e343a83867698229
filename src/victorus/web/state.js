// The page's state: one object, made here and handed to every module, which reads and
// changes only what it is given (no module keeps a variable another one reads). What is
// derived from it (the legal legs, the person's seats) is computed here, from it alone.

export const $ = (id) => document.getElementById(id);
export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const SVG_NS = "http://www.w3.org/2000/svg";

// This tab's name (kept over a reload): the server lets one tab play a game's person seats,
// the others watch until one takes them (play from this tab).
function tabName() {
  let tab = null;
  try { tab = sessionStorage.getItem("victorus-tab"); } catch (e) { tab = null; }
  if (!tab || !/^[0-9a-f]{16}$/.test(tab)) {
    tab = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
    try { sessionStorage.setItem("victorus-tab", tab); } catch (e) { /* a tab of its own each load */ }
  }
  return tab;
}

export function createState() {
  return {
    tab: tabName(),
    // From the server (/api/meta): the seats' names, colours and marks, the seats present
    // per number of players, the agents offered, the frames held.
    meta: { seatNames: [], seatColors: [], marks: [], markNames: [], present: {},
            controllers: ["person"], framesHeld: 1, teamGroups: {}, alliedGroups: [] },
    S: null,               // the last full state from the server
    version: 0,            // its version, or the newest version applied as a delta
    offline: false,        // the server does not answer: moves are off, the page retries
    selected: null,        // the cell label of the piece picked to move
    sending: false,        // a click's request is on its way: further clicks wait for it
    browsing: null,        // in play, the number of actions of the past position shown
    playing: null,         // the watch mode's playback run (null when paused)
    waiting: [],           // promises of a version shown: {version, resolve}
    // The board's frames by key (the oldest first) and the log the page holds: the
    // server sends only what differs.
    frames: new Map(), centres: new Map(), frameKey: "", logKey: null, logTurns: [], shown: null,
    shapes: null,          // the pieces' shapes (GET /api/pieces), fetched once
    W: null,               // the watched state the socket's deltas apply to (delta.js)
    viewFrames: new Map(), // the frame key of each view ("seat:labels") last sent
    deltas: 0,             // the deltas applied (a count, for a look from outside)
    // After a server restart: the game's last record (record.js).
    restartedNotice: false, keptRecord: null, lostRecord: null, lostUrl: null,
    // The clocks (panel.js).
    clock: { left: null, at: 0, lowWarned: null, drawnFor: null },
    // Input (input.js): the keyboard's cell, a drag under way, a drop's click to ignore.
    cursor: null, drag: null, dropped: false, boardHadFocus: false,
    premove: null,         // {action}: a premove on its way to the server (premove.js)
    preselected: null,     // the piece picked for a premove, before its destination
    // What the page last told (sounds, the live region, the glide, the banner, the form).
    heard: null, announced: null, glided: null, bannerClosed: null, formFor: null,
    rulesAsked: false, soundLog: [], audio: null,
    // The analysis on request, the analysis board, the live evaluation.
    analysis: null, board: null, live: { on: null, found: null, key: null, asked: null },
    // The review of a finished or watched game (review.js).
    review: { key: null, game: null, points: [], marks: [], status: "none", length: 0 },
    reviewing: null, reviewPoint: null, reviewDeclined: null, mistakeAt: null,
    zoom: 1, zoomFollow: null,   // the review graph's zoom (1: the whole game in its box)
    movesMarked: null,     // what the move list's marks were drawn for
    // The connection (connection.js).
    socket: null, polling: false, catching: false, behind: false, retrySocket: null,
    // Set by main.js: draw the whole page from the state; the hooks the modules call.
    redraw: () => {},
    hooks: {},
  };
}

// -- derived from the state ---------------------------------------------------------
export function legs(st) { return st.S && st.S.legal ? st.S.legal.legs : []; }

// The seats played from this page.
export function personSeats(st) {
  const S = st.S;
  if (!S || S.mode !== "play" || S.spectator) return [];
  return S.present.filter((s) => S.seats[s] === "person");
}

// The person's armies still in the game.
export function activePeople(st) {
  return personSeats(st).filter((s) => st.S.armies[s].state !== "eliminated");
}

// Their team mates (R33).
export function allySeats(st) {
  const S = st.S, mine = personSeats(st);
  const teams = new Set(mine.map((s) => S.armies[s].team).filter((t) => t !== null));
  return S.present.filter((s) => !mine.includes(s) && teams.has(S.armies[s].team));
}

export function gameKey(st) {
  const S = st.S;
  return S ? `${S.instance}:${S.mode}:${S.game}:${S.watch ? S.watch.title : ""}` : "";
}

export function actionCount(st) {
  return st.logTurns.reduce((sum, turn) => sum + turn.actions.length, 0);
}

// The index of the position shown (actions played before it), or null for the live game.
export function shownIndex(st) {
  const S = st.S;
  if (!S) return null;
  if (S.mode === "watch") return S.watch.index;
  if (S.browse) return S.browse.index;
  return null;
}
