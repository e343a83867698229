// The page's state: one object, made here and handed to every module, which reads and
// changes only what it is given (no module keeps a variable another one reads). What is
// derived from it (the legal legs, the person's seats) is computed here, from it alone.
// Its fields are typed below (JSDoc, checked by tools/lint-js.sh).

/**
 * The page's elements by id, each with its tag, as index.html has them (tests/test_page_js.py
 * holds the two the same): `$` gives each id its element's type.
 * @typedef {{
 *   "new-game": "form", "new-board": "select", "new-players": "select", "new-variant": "input",
 *   "new-you": "select", "new-team": "input", "new-agent": "select", "new-time-limit": "input",
 *   "new-agent-delay": "input", "new-button": "button", "more": "div", "watch-simulation": "form",
 *   "sim-seed": "input", "sim-index": "input", "sim-button": "button", "watch-record": "form",
 *   "record-file": "input", "record-button": "button", "board-box": "section", "board": "div",
 *   "eval": "div", "banner": "div", "banner-title": "p", "banner-yours": "p", "rematch": "button",
 *   "banner-close": "button", "analysis-board": "section", "ab-close": "button",
 *   "ab-stop": "button", "ab-start": "button", "ab-stop-word": "button", "ab-end-word": "button",
 *   "ab-pass-word": "button", "ab-board": "div", "ab-side": "div", "ab-status": "div",
 *   "ab-engine": "div", "ab-chances": "div", "ab-moves": "div", "ab-vpn": "input",
 *   "ab-copy": "button", "ab-copied": "span", "ab-open": "form", "ab-vpn-in": "input",
 *   "ab-lines": "ol", "ab-promote": "button", "ab-delete": "button", "ab-link": "input",
 *   "ab-link-copy": "button", "ab-record": "form", "ab-record-in": "textarea",
 *   "ab-record-error": "span",
 *   "status": "div", "announce": "div", "lines": "div", "notice": "div", "take-seats": "button",
 *   "lost-record": "a", "clock": "div", "clocks": "table", "controls": "div",
 *   "play-controls": "div", "stop": "button", "end": "button", "pass": "button", "undo": "button",
 *   "resign": "button", "live": "button", "typed": "form", "typed-move": "input",
 *   "typed-moves": "datalist", "watch-controls": "div", "first": "button", "prev": "button",
 *   "playback": "button", "next": "button", "last": "button", "speed": "select", "scrub": "input",
 *   "watch-position": "span", "summary": "ol", "message": "div", "error": "div",
 *   "armies-box": "div", "armies": "table", "view": "select", "coordinates": "input",
 *   "sounds": "input", "live-eval": "input", "analyse": "button", "open-board": "button",
 *   "analysis": "div", "review": "section", "review-head": "div", "review-status": "span",
 *   "review-start": "button", "review-cancel": "button", "mistake-prev": "button",
 *   "mistake-next": "button", "zoom-out": "button", "zoom-in": "button", "review-counts": "div",
 *   "review-learn": "div", "learn-start": "button", "learn-words": "span", "learn-form": "form",
 *   "learn-move": "input", "learn-try": "button", "learn-next": "button", "learn-stop": "button",
 *   "review-body": "div", "review-scroll": "div", "review-graph": "svg", "review-marks": "ol",
 *   "log": "ul", "legend": "details", "legend-pieces": "span", "legend-marks": "span",
 *   "keys": "details", "shortcut-list": "dl", "rules": "details", "rules-phases": "ol",
 *   "rules-pieces": "div", "position-details": "details", "vpn": "code", "placement": "code",
 *   "download": "a"
 * }} PageTags
 * @typedef {HTMLElementTagNameMap & Pick<SVGElementTagNameMap, "svg">} Tags
 */

/** @type {<K extends keyof PageTags>(id: K) => Tags[PageTags[K]]} */
export const $ = (id) => /** @type {any} */ (document.getElementById(id));
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

/**
 * The server's state of the game shown (docs/serve.md, The API), whole or made from a
 * delta (delta.js); the page reads the fields below.
 * @typedef {object} ServerState
 * @property {string} instance
 * @property {number} version
 * @property {"play" | "watch"} mode
 * @property {number} game
 * @property {string} board
 * @property {string} variant_plain
 * @property {number} players
 * @property {number[]} present
 * @property {number} to_move
 * @property {string} to_move_name
 * @property {string} phase
 * @property {number} round
 * @property {boolean} over
 * @property {number[] | null} winners
 * @property {string | null} reason
 * @property {number | string} view
 * @property {any[]} armies
 * @property {Object<string, string>} pieces
 * @property {string} placement
 * @property {string | null} vpn
 * @property {string} message
 * @property {boolean} person_to_act
 * @property {{legs: string[][], words: string[]} | null} legal
 * @property {number | null} clock
 * @property {number | null} clock_seat
 * @property {any[] | null} army_clocks
 * @property {number | null} time_limit
 * @property {number} agent_delay
 * @property {string[]} seats
 * @property {any[]} log
 * @property {string} log_key
 * @property {number} log_from
 * @property {any[]} summary
 * @property {any} result
 * @property {string | null} watching
 * @property {boolean} can_undo
 * @property {{index: number, length: number, over: boolean} | null} browse
 * @property {{index: number, length: number, title: string} | null} watch
 * @property {string | null} premove
 * @property {number | null} premove_army
 * @property {boolean} spectator
 * @property {string | null} record_head
 * @property {string} frame_key
 * @property {string | null} frame
 * @property {string} position
 */

/**
 * The analysis board (analysisboard.js): its tree of variations, the node shown (abtree.js).
 * @typedef {import("./abtree.js").Tree} Tree
 */

/**
 * The page's state, shared by every module (made by createState).
 * @typedef {object} State
 * @property {string} tab
 * @property {{seatNames: string[], seatColors: string[], marks: string[], markNames: string[],
 *   present: Object<string, number[]>, controllers: string[], agents?: string[], framesHeld: number,
 *   teamGroups: Object<string, any>, alliedGroups: any[]}} meta
 * @property {ServerState | null} S
 * @property {number} version
 * @property {boolean} offline
 * @property {string | null} selected
 * @property {boolean} sending
 * @property {number | null} browsing
 * @property {object | null} playing
 * @property {{version: number, resolve: (value?: unknown) => void}[]} waiting
 * @property {Map<string, string>} frames
 * @property {Map<string, [string, number, number][]>} centres
 * @property {string} frameKey
 * @property {string | null} logKey
 * @property {{turn: string, seat: number, actions: string[], forfeit: boolean, events: string[]}[]} logTurns
 * @property {string | null} shown
 * @property {{size: number, last_move: string, shapes: Object<string, string>} | null} shapes
 * @property {Object<string, any> | null} W
 * @property {Map<string, string>} viewFrames
 * @property {number} deltas
 * @property {boolean} restartedNotice
 * @property {{instance: string, turns: number, text: string} | null} keptRecord
 * @property {{instance: string, turns: number, text: string} | null} lostRecord
 * @property {string | null} lostUrl
 * @property {{left: number | null, at: number, lowWarned: string | null, drawnFor: string | null}} clock
 * @property {string | null} cursor
 * @property {{from: string, piece: Element, origin: number[], start: number[], moved: boolean} | null} drag
 * @property {boolean} dropped
 * @property {boolean} boardHadFocus
 * @property {{action: string} | null} premove
 * @property {string | null} preselected
 * @property {{key: string, actions: number, turn: boolean} | null} heard
 * @property {string | null} announced
 * @property {string | null} glided
 * @property {string | null} bannerClosed
 * @property {string | null} formFor
 * @property {boolean} rulesAsked
 * @property {string[]} soundLog
 * @property {AudioContext | null} audio
 * @property {any} analysis
 * @property {Tree | null} board
 * @property {boolean} linked
 * @property {{on: boolean | null, found: any, key: string | null, asked: any}} live
 * @property {{key: string | null, game: string | null, points: any[], marks: any[], forfeits?: any[],
 *   status: string, length: number, total?: number, error?: string, counts?: any, thresholds?: any,
 *   accuracy?: (number | null)[]}} review
 * @property {string | null} reviewing
 * @property {any} reviewPoint
 * @property {string | null} reviewDeclined
 * @property {{game: string, marks: any[], k: number, busy: boolean, result: any, error: string} | null} learn
 * @property {number} zoom
 * @property {number | boolean | null} zoomFollow
 * @property {string | null} movesMarked
 * @property {WebSocket | null} socket
 * @property {boolean} polling
 * @property {boolean} catching
 * @property {boolean} behind
 * @property {((value?: unknown) => void) | null} retrySocket
 * @property {() => void} redraw
 * @property {Object<string, (...args: any[]) => void>} hooks
 */

/** @returns {State} */
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
    analysis: null, board: null, linked: false, live: { on: null, found: null, key: null, asked: null },
    // The review of a finished or watched game (review.js).
    review: { key: null, game: null, points: [], marks: [], status: "none", length: 0 },
    reviewing: null, reviewPoint: null, reviewDeclined: null,
    learn: null,           // the "learn from your mistakes" pass under way (review.js)
    zoom: 1, zoomFollow: null,   // the review graph's zoom (1: the whole game in its box)
    movesMarked: null,     // what the move list's marks were drawn for
    // The connection (connection.js).
    socket: null, polling: false, catching: false, behind: false, retrySocket: null,
    // Set by app.js: draw the whole page from the state; the hooks the modules call.
    redraw: () => {},
    hooks: {},
  };
}

// -- derived from the state ---------------------------------------------------------
/** @param {State} st */
export function legs(st) { return st.S && st.S.legal ? st.S.legal.legs : []; }

// The seats played from this page.
/** @param {State} st */
export function personSeats(st) {
  const S = st.S;
  if (!S || S.mode !== "play" || S.spectator) return [];
  return S.present.filter((s) => S.seats[s] === "person");
}

// The person's armies still in the game.
/** @param {State} st */
export function activePeople(st) {
  return personSeats(st).filter((s) => st.S.armies[s].state !== "eliminated");
}

// Their team mates (R33).
/** @param {State} st */
export function allySeats(st) {
  const S = st.S, mine = personSeats(st);
  const teams = new Set(mine.map((s) => S.armies[s].team).filter((t) => t !== null));
  return S.present.filter((s) => !mine.includes(s) && teams.has(S.armies[s].team));
}

/** @param {State} st */
export function gameKey(st) {
  const S = st.S;
  return S ? `${S.instance}:${S.mode}:${S.game}:${S.watch ? S.watch.title : ""}` : "";
}

/** @param {State} st */
export function actionCount(st) {
  return st.logTurns.reduce((sum, turn) => sum + turn.actions.length, 0);
}

// The index of the position shown (actions played before it), or null for the live game.
/** @param {State} st */
export function shownIndex(st) {
  const S = st.S;
  if (!S) return null;
  if (S.mode === "watch") return S.watch.index;
  if (S.browse) return S.browse.index;
  return null;
}
