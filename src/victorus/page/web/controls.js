// The page's controls beside the board: the buttons (stop, end, pass, undo, resign, back
// to the game, take the seats), the header's forms (new game, watch a simulation or a
// record), the watch mode's controls, the log's clicks, and the keys: the shortcuts and
// the arrows that step through a past position or a watched game.
import { $, activePeople, gameKey } from "./state.js";
import { api, send, refresh } from "./connection.js";
import { browse, stepTo, startPlayback, stopPlayback } from "./watch.js";
import { teamOf, offerPresentSeats, syncForm, loadRules } from "./panel.js";
import { cancelPremove } from "./premove.js";
import { focusCursor } from "./input.js";
/** @typedef {import("./state.js").State} State */

/** @param {State} st */
function newGame(st, event) {
  event.preventDefault();
  const S = st.S;
  if (S && S.mode === "play" && !S.over && st.logTurns.length &&
      !confirm("A game is on: start a new game and leave this one?")) return;
  const you = $("new-you").value;
  const agent = $("new-agent").value;
  const players = Number($("new-players").value);
  const mine = you === "none" ? [] : $("new-team").checked ? teamOf(st, Number(you), players, $("new-variant").value) : [Number(you)];
  const seats = [0, 1, 2, 3, 4, 5].map((s) => (mine.includes(s) ? "person" : agent));
  const body = { board: $("new-board").value, players, variant: $("new-variant").value.trim() || "standard", seats };
  const limit = $("new-time-limit").value.trim();
  if (limit !== "") body.time_limit = Number(limit);
  const delay = $("new-agent-delay").value.trim();
  if (delay !== "") body.agent_delay = Number(delay);
  send(st, "/api/new", body).then((ok) => {   // (on a phone the form is below the board)
    if (ok && $("board").getBoundingClientRect().top < 0) $("board").scrollIntoView();
  });
}

// Shortcut keys (listed in the help): true if the key was one. ``extra`` adds the keys of
// other modules (the analysis board, the mistakes).
/** @param {State} st */
function shortcut(st, event, extra) {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  const click = (id) => { if (!$(id).disabled && !$(id).closest("[hidden]")) $(id).click(); };
  const keys = {
    s: () => click("stop"), e: () => click("end"), p: () => click("pass"),
    u: () => click("undo"), m: () => $("typed-move").focus(), b: () => focusCursor(st),
    "?": () => { $("keys").open = true; $("keys").scrollIntoView({ block: "nearest" }); },
    Escape: () => cancelPremove(st),
    ...extra,
  };
  if (!(event.key in keys) || event.target.closest("#board .cell") && event.key === " ") return false;
  if (event.key === "Escape" && !st.premove && !st.S.premove && st.preselected === null) return false;
  event.preventDefault();
  keys[event.key]();
  return true;
}

// A key meant for a box being typed in or a menu (not a checkbox or a button): no shortcut.
function typing(target) {
  const box = target.closest("input, select, textarea");
  if (!box) return false;
  if (box.tagName !== "INPUT") return true;
  return !["checkbox", "radio", "button", "submit", "reset"].includes(box.type);
}

/** @param {State} st */
function pageKey(st, event, extra) {
  const S = st.S;
  if (!S || typing(event.target) || event.target.closest("#analysis-board")) return;
  if (shortcut(st, event, extra)) return;
  if (S.browse) {
    const to = { ArrowLeft: S.browse.index - 1, ArrowRight: S.browse.index + 1, Home: 0, End: null };
    if (event.key in to) {
      event.preventDefault();
      browse(st, to[event.key] === null || to[event.key] >= S.browse.length ? null : to[event.key]);
    }
    return;
  }
  if (S.mode !== "watch") {
    // During play, Left (or Home) from the live game shows the position before the last
    // action (the start).
    const length = st.logTurns.reduce((n, t) => n + t.actions.length, 0);
    if (S.mode === "play" && length && (event.key === "ArrowLeft" || event.key === "Home") &&
        !event.target.closest("#board .cell")) {
      event.preventDefault();
      browse(st, event.key === "Home" ? 0 : length - 1);
    }
    return;
  }
  const moves = { ArrowLeft: S.watch.index - 1, ArrowRight: S.watch.index + 1, Home: 0, End: S.watch.length };
  if (event.key in moves) { event.preventDefault(); stepTo(st, moves[event.key]); }
}

/** @param {State} st */
export function setUpControls(st, extraKeys) {
  for (const word of /** @type {const} */ (["stop", "end", "pass"])) {
    $(word).addEventListener("click", () => send(st, "/api/play", { action: word }));
  }
  $("undo").addEventListener("click", () => send(st, "/api/undo", {}));
  $("view").addEventListener("change", () => refresh(st, true));
  $("coordinates").addEventListener("change", () => refresh(st, true));
  $("new-game").addEventListener("submit", (event) => newGame(st, event));
  $("new-players").addEventListener("change", () => offerPresentSeats(st));
  $("watch-simulation").addEventListener("submit", (event) => {
    event.preventDefault();
    const simulate = {
      // The seed as its digits: 64 bits, more than a JavaScript number holds exactly.
      seed: $("sim-seed").value.trim() || "0", index: Number($("sim-index").value),
      board: $("new-board").value, players: Number($("new-players").value),
      variant: $("new-variant").value.trim() || "standard",
    };
    send(st, "/api/watch", { simulate });
  });
  $("watch-record").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = $("record-file").files[0];
    if (!file) { $("error").textContent = "choose a record file (.vrec) first"; return; }
    send(st, "/api/watch", { record: await file.text() });
  });
  // the watch mode's controls
  $("first").addEventListener("click", () => stepTo(st, 0));
  $("prev").addEventListener("click", () => stepTo(st, st.S.watch.index - 1));
  $("next").addEventListener("click", () => stepTo(st, st.S.watch.index + 1));
  $("last").addEventListener("click", () => stepTo(st, st.S.watch.length));
  $("playback").addEventListener("click", () => (st.playing ? stopPlayback(st) : startPlayback(st)));
  $("speed").addEventListener("change", () => { if (st.playing) startPlayback(st); });
  $("scrub").addEventListener("change", () => stepTo(st, Number($("scrub").value)));
  $("log").addEventListener("click", (event) => {
    const act = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".act"));
    if (!act || !st.S) return;
    if (st.S.mode === "watch") stepTo(st, Number(act.dataset.index));
    else browse(st, Number(act.dataset.index));
  });
  $("live").addEventListener("click", () => browse(st, null));
  $("take-seats").addEventListener("click", () => send(st, "/api/take", {}));
  $("resign").addEventListener("click", () => {
    const seat = activePeople(st)[0];
    if (seat === undefined) return;
    if (!confirm(`Resign? ${st.meta.seatNames[seat]} gives up this game; the other team wins.`)) return;
    send(st, "/api/resign", { seat });
  });
  $("rematch").addEventListener("click", () => {
    st.formFor = null;
    syncForm(st);                          // the game's own settings, its opponents included
    $("new-game").requestSubmit();
  });
  $("banner-close").addEventListener("click", () => { st.bannerClosed = gameKey(st); $("banner").hidden = true; });
  $("typed").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("typed-move").value.trim();
    if (!text) return;
    if (await send(st, "/api/play", { action: text })) $("typed-move").value = "";
  });
  // The legend is open on the first visit, then as the player left it.
  $("legend").open = localStorage.getItem("victorus-legend") !== "closed";
  $("legend").addEventListener("toggle", () => {
    localStorage.setItem("victorus-legend", $("legend").open ? "open" : "closed");
  });
  $("rules").addEventListener("toggle", () => loadRules(st, api));
  document.addEventListener("keydown", (event) => pageKey(st, event, extraKeys));
}
