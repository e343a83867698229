// The side panel beside the board: the status line, the buttons' states, the last turns
// in words, the armies table (marks, holds), the result banner, the notices, the header's
// form, the live region, and the rules help's pictures.
import { $, legs, personSeats, activePeople, gameKey, actionCount } from "./state.js";
import { premoveWords } from "./premove.js";
/** @typedef {import("./state.js").State} State */

// -- marks and holds ------------------------------------------------------------------
/** @param {State} st */
export function markSvg(st, seat, extra = "") {
  return `<svg viewBox="-1.2 -1.2 2.4 2.4" aria-hidden="true" ${extra}><circle r="1.15" fill="#fff" stroke="#000" stroke-width="0.15"/>` +
    `<path d="${st.meta.marks[seat]}" fill="#000" transform="scale(0.7)"/></svg>`;
}

// The army's colour with its mark on it: the table and the legend tell armies apart
// without colour as the pieces do.
/** @param {State} st */
export function swatchOf(st, seat) {
  const span = document.createElement("span");
  span.className = "swatch";
  span.style.background = st.meta.seatColors[seat];
  span.innerHTML = markSvg(st, seat, 'width="100%" height="100%"');
  return span;
}

/** @param {State} st */
export function drawMarkLegend(st) {
  $("legend-marks").innerHTML = "";
  st.meta.seatNames.forEach((name, seat) => {
    const key = document.createElement("span");
    key.className = "mark-key";
    key.innerHTML = markSvg(st, seat);
    key.append(`${name} ${st.meta.markNames[seat]}`);
    $("legend-marks").appendChild(key);
  });
}

const SHIELD = "M-9,-10 H9 V1.3 Q9,9 0,11 Q-9,9 -9,1.3 Z";
const KIND_NAMES = { T: "Templar", U: "Teutonic", B: "Byzantine", X: "Excalibur", H: "Hospitaller", K: "King", Q: "Queen" };

// A held piece (seat, kind letter, + when royal) as a small shield in its army's colour,
// with its mark; King and Queen with their dashed rim.
/** @param {State} st */
function holdIcon(st, code, count) {
  const { seatNames, seatColors, markNames, marks } = st.meta;
  const seat = Number(code[0]), kind = code[1];
  const royal = code.includes("+");
  const dash = "KQ".includes(kind) ? ' stroke-dasharray="4 3"' : "";
  const rim = dash ? "#fff" : "#777";
  const text = [0, 1, 2, 4].includes(seat) ? "#fff" : "#000";
  const span = document.createElement("span");
  span.className = "hold";
  const words = `${seatNames[seat]} ${royal ? "royal " : ""}${KIND_NAMES[kind]} (${markNames[seat]})`;
  span.title = count > 1 ? `${count} x ${words}` : words;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", span.title);
  span.dataset.code = code;
  span.innerHTML = `<svg viewBox="-11 -12 22 25" aria-hidden="true">` +
    `<path d="${SHIELD}" fill="${seatColors[seat]}" stroke="${rim}" stroke-width="2.2"${dash}/>` +
    (dash ? `<path d="${SHIELD}" fill="none" stroke="#000" stroke-width="2.2" stroke-dasharray="4 4" stroke-dashoffset="4"/>` : "") +
    `<text y="3" font-size="11" font-weight="bold" text-anchor="middle" fill="${text}">${kind}</text>` +
    (royal ? `<text x="6" y="-3" font-size="9" fill="#ffd700" stroke="#000" stroke-width="0.4">&#9804;</text>` : "") +
    `<g transform="translate(6.5,8)"><circle r="4.3" fill="#fff" stroke="#000" stroke-width="0.6"/>` +
    `<path d="${marks[seat]}" fill="#000" transform="scale(2.7)"/></g></svg>`;
  if (count > 1) span.append(`${count}`);
  return span;
}

// A held piece counts once per army and kind (and royal): the icons of an army's holds
// fit two lines of its row, their list in words in the tooltip.
/** @param {State} st */
function drawHolds(st, td, held) {
  td.className = "held";
  if (!held.length) { td.textContent = "-"; td.title = "holds nothing"; return; }
  const counts = new Map();
  for (const code of held) {
    const key = code[0] + code[1] + (code.includes("+") ? "+" : "");
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const box = document.createElement("div");
  box.className = "held-box";
  for (const [code, count] of counts) box.appendChild(holdIcon(st, code, count));
  td.appendChild(box);
  td.title = [...box.children].map((icon) => /** @type {HTMLElement} */ (icon).title).join("; ");
}

// -- the status line and the buttons ----------------------------------------------------
// Where the turn is, in words (R15, R16, R22).
function phaseWords(S) {
  if (S.phase === "start") return "start of the turn";
  if (S.phase === "move") return "second leg of the move" + (S.legal && S.legal.words.includes("stop") ? ", or press stop" : "");
  return "bonus move: move a piece or press end";
}

/** @param {State} st */
export function drawStatus(st) {
  const S = st.S, { seatNames } = st.meta;
  const name = S.to_move_name;
  let text;
  if (S.browse) {
    text = `The position after action ${S.browse.index} of ${S.browse.length} ` +
      (S.browse.over ? "(the game is over)" : "(the game goes on)");
  } else if (S.over) {
    const winners = S.winners.map((s) => seatNames[s]).join(", ");
    text = S.winners.length ? `Game over (${S.reason}): ${winners} ${S.winners.length > 1 ? "win" : "wins"}`
      : S.reason === "unfinished" ? "Game stopped unfinished at the page's cap of actions" : `Game over (${S.reason}): a draw`;
  } else {
    text = `${name[0].toUpperCase()}${name.slice(1)} to act, round ${S.round}: ${phaseWords(S)}`;
    if (S.mode === "play" && !S.person_to_act) text += ` (${S.seats[S.to_move]})`;
  }
  $("status").textContent = text;
  $("message").textContent = premoveWords(st) || S.message || "";
  $("message").title = $("message").textContent;
  const words = S.legal ? S.legal.words : [];
  for (const word of /** @type {const} */ (["stop", "end", "pass"])) $(word).disabled = !words.includes(word) || st.offline;
  // (undo and resign are a player's: not once the player's armies are out)
  const playing = activePeople(st).length > 0;
  $("undo").disabled = !S.can_undo || !playing || st.offline;
  $("resign").disabled = !(S.mode === "play" && !S.over && !S.browse && playing) || st.offline;
  $("typed-move").disabled = !S.person_to_act || st.offline;
  const typed = $("typed-moves");
  typed.innerHTML = "";
  for (const text of [...legs(st).map((l) => l[2]), ...words]) typed.appendChild(new Option(text));
  $("play-controls").hidden = S.mode !== "play";
  $("live").hidden = !S.browse;
  $("watch-controls").hidden = S.mode !== "watch";
  if (S.mode === "watch") {
    $("scrub").max = String(S.watch.length);
    $("scrub").value = String(S.watch.index);
    $("watch-position").textContent = `${S.watch.title}: action ${S.watch.index} of ${S.watch.length}`;
  }
}

// -- the last turns in words ------------------------------------------------------------
// The last turns with what they did (a rescue, a promotion, an army out), the newest last
// and marked on the board; the list keeps its height and scrolls to the newest.
/** @param {State} st */
export function drawSummary(st) {
  const list = $("summary");
  list.innerHTML = "";
  for (const turn of st.S.summary || []) {
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
  list.scrollTop = newest ? /** @type {HTMLElement} */ (newest).offsetTop : 0;
}

// A turn's events, one line each; the pieces frozen after a capture (R24) folded into one
// line under it, opened on a click.
export const FROZEN = " is frozen for the rest of the turn";
export function appendEvents(li, events) {
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

// -- the armies table -------------------------------------------------------------------
function lapWords(laps) {
  if (laps === null) return "-";
  return laps < 0 ? `${-laps} back` : String(laps);
}

/** @param {State} st */
export function drawArmies(st, onSeats) {
  const S = st.S, { markNames, controllers } = st.meta;
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
    name.prepend(swatchOf(st, a.seat));
    if (a.team) {                     // the team on a line of its own: the name is never cut
      const team = document.createElement("small");
      team.className = "team";
      team.textContent = `team ${a.team}`;
      name.appendChild(team);
    }
    name.title = `${a.name}: its pieces carry the ${markNames[a.seat]} mark`;
    const who = cell("");
    if (present && S.mode === "play") {
      const select = document.createElement("select");
      select.className = "controller";
      select.dataset.seat = a.seat;
      select.setAttribute("aria-label", `who plays ${a.name}`);
      const options = controllers.includes(S.seats[a.seat]) ? controllers : [...controllers, S.seats[a.seat]];
      for (const c of options) select.add(new Option(c, c, false, c === S.seats[a.seat]));
      select.addEventListener("change", () => {
        const seats = st.S.seats.slice();
        seats[a.seat] = select.value;
        onSeats(seats);
      });
      who.appendChild(select);
    } else {
      who.textContent = present ? S.seats[a.seat] : "absent";
    }
    cell(a.state === "eliminated" ? "out" : a.state).title = a.state;
    drawHolds(st, cell(""), a.held);
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

// -- the end, the notices, the tab's title ------------------------------------------------
/** @param {State} st */
export function drawOutcome(st) {
  const S = st.S;
  const result = S.browse ? null : S.result;
  $("banner").hidden = !result || st.bannerClosed === gameKey(st);
  if (result) {
    $("banner-title").textContent = result.title[0].toUpperCase() + result.title.slice(1);
    $("banner-yours").textContent = result.yours || "";
  }
  drawNotice(st);
  document.title = S.person_to_act ? "your turn - VICTORUS" : S.over ? "game over - VICTORUS" : "VICTORUS";
}

/** @param {State} st */
export function drawNotice(st) {
  const S = st.S;
  const text = st.offline ? "The server is not answering (stopped or restarting): moves are off, trying again every second" :
    st.restartedNotice ? (st.lostUrl ? "The server restarted and this game was lost; its record is kept:" : "The server restarted: the game shown before was lost") :
    S.spectator ? "This tab watches: the game is played in another tab" :
    (S.watching && !S.browse ? S.watching : "");
  if ($("notice").textContent !== text) $("notice").textContent = text;
  $("take-seats").hidden = !(S.spectator && !st.offline);
  const link = $("lost-record");
  link.hidden = !(st.restartedNotice && st.lostUrl);
  if (st.lostUrl && link.getAttribute("href") !== st.lostUrl) link.href = st.lostUrl;
}

// -- the header's form: the game shown, and only the seats present --------------------
/** @param {State} st */
export function syncForm(st) {
  const S = st.S;
  if (S.mode !== "play" || st.formFor === gameKey(st)) return;
  st.formFor = gameKey(st);
  $("new-board").value = S.board;
  $("new-players").value = String(S.players);
  $("new-variant").value = S.variant_plain;
  const people = personSeats(st);
  $("new-you").value = people.length ? String(people[0]) : "none";
  // The opponent chosen (by the server's --agent, or a seat's spec not in the menu) stays
  // chosen: offered by its name, for New game and rematch.
  const agent = S.present.map((s) => S.seats[s]).find((c) => c !== "person");
  if (agent && ![...$("new-agent").options].some((o) => o.value === agent)) $("new-agent").add(new Option(agent, agent));
  if (agent) $("new-agent").value = agent;
  $("new-time-limit").value = S.time_limit === null ? "" : String(S.time_limit);
  $("new-agent-delay").value = String(S.agent_delay);
  offerPresentSeats(st);
}

/** @param {State} st */
export function offerPresentSeats(st) {
  const present = st.meta.present[$("new-players").value] || [];
  for (const option of $("new-you").options) {
    option.disabled = option.value !== "none" && !present.includes(Number(option.value));
  }
  if ($("new-you").selectedOptions[0]?.disabled) $("new-you").value = String(present[0]);
}

// The seats' names in the form's and the view's menus, the agents offered.
/** @param {State} st */
export function fillMenus(st) {
  st.meta.seatNames.forEach((name, seat) => {
    $("new-you").add(new Option(name, String(seat), seat === 0, seat === 0), seat);
    $("view").add(new Option(name, String(seat), seat === 0, seat === 0), seat);
  });
  for (const agent of st.meta.agents) $("new-agent").add(new Option(agent, agent));
  drawMarkLegend(st);
  offerPresentSeats(st);
}

// The seats of ``seat``'s team (R33; the allied variant's teams when the variant says so).
/** @param {State} st */
export function teamOf(st, seat, players, variant) {
  const groups = /allied/.test(variant) && players === 6 ? st.meta.alliedGroups : st.meta.teamGroups[players] || [];
  return groups.find((g) => g.includes(seat)) || [seat];
}

// -- a live region: each new action, and what followed, told to screen readers ------------
/** @param {State} st */
export function announce(st) {
  const S = st.S;
  const key = `${gameKey(st)}:${S.mode === "watch" ? S.watch.index : actionCount(st)}`;
  if (st.announced === null || S.browse) { st.announced = key; return; }
  if (key === st.announced) return;
  st.announced = key;
  const newest = (S.summary || []).at(-1);
  if (!newest) return;
  const events = (newest.events || []).filter((e) => !e.endsWith(FROZEN));
  $("announce").textContent = [newest.text, ...events].join(". ");
}

// -- the rules help's pieces, drawn by the server on a small patch of the board ----------
/** @param {State} st */
export async function loadRules(st, api) {
  if (!$("rules").open || st.rulesAsked) return;
  st.rulesAsked = true;
  try {
    const { panels } = await api(st, "/api/rules");
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
    st.rulesAsked = false;
    $("rules-pieces").textContent = `the pieces' pictures did not come: ${e.message}`;
  }
}
