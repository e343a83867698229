// The connection: told of each change by /api/socket (long polling /api/state while the
// socket is closed, and opening it again), the page asks for the state and hands it to
// the drawing (st.hooks). The server checks everything; the page only helps. After a
// server restart, the game's last record as the page knew it is offered.
import { $, pause } from "./state.js";
import { watchedOf, applyDelta, placementOf, vpnOf, positionLayer } from "./delta.js";
/** @typedef {import("./state.js").State} State */

/** @param {State} st */
export async function api(st, path, body) {
  const options = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json", "X-Victorus-Tab": st.tab }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// A call that changes the game: its error shown, else the page follows to the version it
// made (or, from a past position shown, back to the live game).
/** @param {State} st */
export async function send(st, path, body) {
  try {
    const answer = await api(st, path, body);
    $("error").textContent = "";
    if (path === "/api/new" || path === "/api/watch") st.restartedNotice = false;
    const wasBrowsing = st.browsing !== null;
    st.browsing = null;                  // an action, an undo, a new game: the live game
    // The change comes with the request waiting at the server (follow); a past position
    // shown is left for the game's own.
    if (wasBrowsing) await refresh(st, true);
    else await reached(st, answer.version);
    return true;
  } catch (e) {
    $("error").textContent = e.message;
    return false;
  }
}

// A promise of a version shown: resolved as soon as the page shows it, or a newer one.
/** @param {State} st */
export function reached(st, version) {
  if (st.S && st.S.version >= version) return Promise.resolve();
  return new Promise((resolve) => st.waiting.push({ version, resolve }));
}

/** @param {State} st */
function resolveReached(st, restarted) {
  const done = st.waiting.filter((w) => restarted || st.S.version >= w.version);
  st.waiting = st.waiting.filter((w) => !done.includes(w));
  for (const w of done) w.resolve();
}

// What the page shows besides the game's version: a state asked with other choices
// (another view, coordinates, a past position) is not drawn.
/** @param {State} st */
function shownChoices(st) {
  const labels = $("coordinates").checked ? 1 : 0;
  const at = st.browsing === null ? "" : `&at=${st.browsing}`;
  return `view=${$("view").value}&labels=${labels}${at}`;
}

// The state: in full, or (``wait`` seconds) once it differs from the one shown: the
// server holds the request until something changes (long polling). False on an error.
// The first answer after an outage is whole (a restarted server counts versions anew).
/** @param {State} st */
export async function refresh(st, full, wait = 0) {
  const choices = shownChoices(st);
  const S = st.S;
  const since = !full && !st.offline && S && st.shown === choices ? `&since=${S.version}&wait=${wait}` : "";
  const held = `&frame=${[...st.frames.keys()].join(",")}` +
    (st.logKey === null ? "" : `&log=${st.logKey}:${st.logTurns.length}`);
  let state;
  try {
    state = await api(st, `/api/state?${choices}${since}${held}&tab=${st.tab}${S === null || !S.spectator ? "&claim=1" : ""}`);
  } catch (e) {
    st.browsing = null;                  // (an undo may have taken the browsed action back)
    if (e instanceof TypeError) setOffline(st, true);    // no answer at all: the server is gone
    else $("error").textContent = `server: ${e.message}`;
    return false;
  }
  if ($("error").textContent.startsWith("server: ")) $("error").textContent = "";  // back again
  if (st.offline) setOffline(st, false);
  if (state.unchanged) { st.hooks.clock(state.clock); return true; }
  if (choices !== shownChoices(st)) return true;        // asked before the choices changed
  return show(st, state, choices);
}

// A whole state from the server, drawn. Versions only grow (on one server): a slow answer
// must not undo a newer state (and the piece picked).
/** @param {State} st */
function show(st, state, choices) {
  const S = st.S;
  const restarted = S !== null && state.instance !== S.instance;
  // A game played here is gone with the server that held it: its last record is offered.
  if (restarted && S.mode === "play" && st.logTurns.length) loseGame(st, st.keptRecord);
  else if (S === null) loseStoredGame(st, state.instance);
  if (S && !restarted &&
      (state.version < S.version || (state.version === S.version && st.shown === choices))) {
    return true;
  }
  if (state.frame !== null) {
    st.frames.delete(state.frame_key);
    st.frames.set(state.frame_key, state.frame);
    if (state.centres) st.centres.set(state.frame_key, state.centres);
    if (st.frames.size > st.meta.framesHeld) {
      const oldest = st.frames.keys().next().value;
      st.frames.delete(oldest);
      st.centres.delete(oldest);
    }
  } else if (!st.frames.has(state.frame_key)) {         // (dropped since it was asked for)
    return refresh(st, true);
  }
  st.viewFrames.set(`${state.view}:${choices.includes("labels=1") ? 1 : 0}`, state.frame_key);
  display(st, state, restarted, choices);
  st.W = state.browse ? null : watchedOf(state, st.logTurns);
  return true;
}

// A state drawn (whole, or made from a delta).
/** @param {State} st */
function display(st, state, restarted, choices) {
  const S = st.S;
  if (!S || restarted || S.version !== state.version || S.view !== state.view) st.selected = null;
  // (a tab watches a game whose person seats another tab plays: none, nothing to watch)
  if (state.spectator && !(state.mode === "play" && state.present.some((s) => state.seats[s] === "person"))) state.spectator = false;
  if (state.spectator) Object.assign(state, { person_to_act: false, legal: null, can_undo: false });
  st.S = state;
  st.version = state.version;
  st.shown = choices;
  if (state.frame_key !== st.frameKey) {
    st.frameKey = state.frame_key;
    st.hooks.frame(st.frames.get(state.frame_key));
  }
  st.hooks.position(state.position);
  st.hooks.log(state);
  keepRecord(st, state);
  st.redraw();
  st.hooks.shown();
  resolveReached(st, restarted);
}

// A socket's delta applied on the watched state, drawn as a whole state would be; false
// when it does not fit (the page then asks for the whole state).
/** @param {State} st */
function fromDelta(st, notice) {
  const W = st.W, S = st.S, view = $("view").value, labels = $("coordinates").checked ? 1 : 0;
  if (!W || !S || !st.shapes || st.browsing !== null || S.browse || st.catching ||
      W.version !== notice.base || W.instance !== notice.instance) return false;
  const centres = st.centres.get(st.frameKey);
  if (!centres) return false;
  const order = new Map(centres.map(([label], k) => [label, k]));
  const next = applyDelta(W, notice.delta, order);
  const seat = view === "turn" ? next.to_move : Number(view);
  const key = st.viewFrames.get(`${seat}:${labels}`);
  if (!key || !st.frames.has(key) || !st.centres.has(key)) return false;
  // the log's new turns (it grows at its end), or the whole log
  const slid = notice.delta.lists && notice.delta.lists.log;
  let from = next.log.length, turns = [];
  if (next.log_key !== W.log_key || (slid && slid[0] !== 0)) { from = 0; turns = next.log; }
  else if (slid) { from = slid[1]; turns = slid[2]; }
  const placement = placementOf(next);
  const state = { ...S, ...next, log: turns, log_from: from, placement, vpn: vpnOf(next, placement),
                  position: positionLayer(next, st.centres.get(key), st.shapes), frame_key: key,
                  frame: null, view: seat, clock: notice.clock, browse: null };
  display(st, state, false, shownChoices(st));
  st.W = next;
  st.deltas += 1;
  return true;
}

// The server is gone (no answer at all): said in words, moves off; the page retries each
// second, and once it answers again the game goes on (or, after a restart, its last
// record is offered) and the socket is opened again.
/** @param {State} st */
function setOffline(st, on) {
  st.offline = on;
  if (!on && st.retrySocket) st.retrySocket();        // the socket's next try is now
  document.body.classList.toggle("offline", on);
  if (st.S) st.hooks.offline();
}

// The seats' names in the selects, and the agents offered, as the server says.
/** @param {State} st */
async function loadMeta(st) {
  const meta = await api(st, "/api/meta");
  Object.assign(st.meta, {
    seatNames: meta.seat_names, seatColors: meta.seat_colors, marks: meta.army_marks,
    markNames: meta.army_mark_names, present: meta.present_seats,
    controllers: ["person", ...meta.agents], agents: meta.agents, teamGroups: meta.team_groups,
    alliedGroups: meta.allied_groups, framesHeld: meta.frames_held,
  });
  if (!st.shapes) st.shapes = await api(st, "/api/pieces");     // (the same for every game)
  st.hooks.meta();
}

// The socket said the game changed: ask for the state (one request at a time, the last
// change included); after an error, again each second until the server answers.
/** @param {State} st */
async function catchUp(st) {
  st.behind = true;
  if (st.catching) return;
  st.catching = true;
  while (st.behind) {
    st.behind = false;
    if (!(await refresh(st, false, 0))) { st.behind = true; await pause(1000); }
  }
  st.catching = false;
}

// The socket: a message {version, instance, clock} at once and at every change. Resolves
// once it is closed: whether it had opened. While it is open it is ``st.socket``, and the
// server counts this tab as alive (it holds its seats).
/** @param {State} st */
function openSocket(st) {
  return new Promise((resolve) => {
    let ws;
    try {
      ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/socket?tab=${st.tab}`);
    } catch (e) {
      resolve(false);
      return;
    }
    ws.onopen = () => { st.socket = ws; };
    ws.onmessage = (event) => {
      const notice = JSON.parse(event.data);
      if (!st.S || notice.instance !== st.S.instance || notice.version !== st.S.version) {
        if (!(notice.delta && fromDelta(st, notice))) catchUp(st);
      } else {
        st.hooks.clock(notice.clock);
      }
    };
    ws.onclose = () => {
      const opened = st.socket === ws;
      if (opened) st.socket = null;
      resolve(opened);
    };
  });
}

// While the socket is closed, one request waits at the server for the next change; after
// an error, ask again in a second without waiting, so that the page sees at once that the
// server is back. The first asks for the whole state: the server may have restarted.
/** @param {State} st */
async function poll(st) {
  st.polling = true;
  let full = true, wait = 0;
  while (st.socket === null) {
    if (await refresh(st, full, wait)) { full = false; wait = 20; continue; }
    wait = 0;
    await pause(1000);
  }
  st.polling = false;
}

// The socket's next try: after ``ms``, or at once when the server answers again.
/** @param {State} st */
function socketBackoff(st, ms) {
  return new Promise((resolve) => {
    st.retrySocket = resolve;
    setTimeout(resolve, ms);
  });
}

// The live connection: the socket, opened again whenever it closes (a server restarted,
// a network cut) after 1, 2, 4 ... up to 30 seconds, the page long-polling meanwhile.
/** @param {State} st */
export async function follow(st) {
  while (!(await loadMeta(st).then(() => true, (e) => { $("error").textContent = `server: ${e.message}`; return false; }))) {
    await pause(1000);
  }
  while (!(await refresh(st, true))) await pause(1000);
  let delay = 1000;
  for (;;) {
    if (await openSocket(st)) delay = 1000;
    if (!st.polling) poll(st);
    await socketBackoff(st, delay);
    delay = Math.min(2 * delay, 30000);
  }
}

// -- after a server restart: the game's last record, kept by the page --------------------
// The record of the game played as the page last knew it: the server's header
// (record_head: board, players, variant, start, agents, clock, resignation, result) and
// the log's turns, one line each, as victorus.record writes them. Kept in memory and in
// the browser's storage (a page opened after the restart still offers it).
const RECORD_KEY = "victorus-last-record";

/** @param {State} st */
function keepRecord(st, state) {
  st.keptRecord = state.mode === "play" && state.record_head ? {
    instance: state.instance, turns: st.logTurns.length,
    text: state.record_head + "\n\n" + st.logTurns.map((t) => `${t.turn} ${t.actions.join(" ")}\n`).join(""),
  } : null;
  try {        // (a game with no action yet keeps the last one stored: it may be the one lost)
    if (st.keptRecord && st.keptRecord.turns) localStorage.setItem(RECORD_KEY, JSON.stringify(st.keptRecord));
  } catch (e) { /* storage full or refused: the record stays in memory */ }
}

/** @param {State} st */
function loseGame(st, kept) {
  st.restartedNotice = true;
  st.lostRecord = kept && kept.turns ? kept : null;
  if (st.lostUrl) URL.revokeObjectURL(st.lostUrl);
  st.lostUrl = st.lostRecord ? URL.createObjectURL(new Blob([st.lostRecord.text], { type: "text/plain" })) : null;
}

// A page opened anew: a game kept from another server instance was lost with it.
/** @param {State} st */
function loseStoredGame(st, instance) {
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(RECORD_KEY)); } catch (e) { stored = null; }
  if (stored && stored.instance !== instance && stored.turns && typeof stored.text === "string") loseGame(st, stored);
}
