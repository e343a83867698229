// The socket's deltas (docs/serve.md, The page's HTTP API): the page keeps the watched
// state W (the state's fields that depend on neither the view nor the tab), applies each
// delta the socket sends on it, and makes the state it draws from W: the placement, the
// VPN and the position layer derived from the cells, the frame of its view held. When a
// delta does not fit (a version missed, a frame not held, a past position shown) the
// page asks for the whole state instead.

//: The fields of a whole state that are not watched (per view, per tab).
const NOT_WATCHED = ["svg", "frame", "frame_key", "position", "centres", "view", "vpn", "placement",
                     "log_from", "clock", "browse", "spectator"];

// W from a whole state shown; its log whole (the turns the page holds).
export function watchedOf(state, logTurns) {
  const W = {};
  for (const [key, value] of Object.entries(state)) if (!NOT_WATCHED.includes(key)) W[key] = value;
  W.log = logTurns.slice();
  return W;
}

// W with ``change`` applied (a new object): set, cells, lists, items, in this order.
// ``order``: each label's place on the board (cells are kept in board order).
export function applyDelta(old, change, order) {
  const W = { ...old, ...(change.set || {}) };
  if (change.cells) {
    const cells = { ...W.cells };
    for (const [label, code] of Object.entries(change.cells)) {
      if (code === null) delete cells[label];
      else cells[label] = code;
    }
    W.cells = Object.fromEntries(Object.entries(cells).sort((a, b) => order.get(a[0]) - order.get(b[0])));
  }
  for (const [key, [drop, keep, add]] of Object.entries(change.lists || {})) {
    W[key] = W[key].slice(drop, drop + keep).concat(add);
  }
  for (const [key, items] of Object.entries(change.items || {})) {
    W[key] = W[key].slice();
    for (const [index, value] of Object.entries(items)) W[key][Number(index)] = { ...W[key][Number(index)], ...value };
  }
  return W;
}

export function placementOf(W) {
  const entries = Object.entries(W.cells).map(([label, code]) => `${label}:${code}`);
  return entries.length ? entries.join(",") : "-";
}

export function vpnOf(W, placement) {
  if (W.phase !== "start" || W.over) return null;
  const round = W.passes ? `${W.round}/${W.passes}` : `${W.round}`;
  return `${W.board} ${placement} ${W.to_move} ${W.vpn_armies} ${round} ${W.variant}`;
}

// The position layer from W's cells (the server's recipe): the last leg's rings and line,
// then each piece in board order.
export function positionLayer(W, centres, shapes) {
  const where = new Map(centres.map(([label, x, y]) => [label, [x, y]]));
  const size = shapes.size, colour = shapes.last_move, out = [];
  if (W.last && where.has(W.last[0]) && where.has(W.last[1])) {
    const [[x1, y1], [x2, y2]] = [where.get(W.last[0]), where.get(W.last[1])];
    for (const [cx, cy] of [[x1, y1], [x2, y2]]) {
      const points = [0, 60, 120, 180, 240, 300].map((a) => {
        const r = (a * Math.PI) / 180;
        return `${(cx + 0.9 * size * Math.cos(r)).toFixed(1)},${(cy + 0.9 * size * Math.sin(r)).toFixed(1)}`;
      }).join(" ");
      out.push(`<polygon points="${points}" fill="none" stroke="${colour}" stroke-width="${(size / 8).toFixed(1)}"/>`);
    }
    out.push(`<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" ` +
             `stroke="${colour}" stroke-width="${(size / 10).toFixed(1)}" opacity="0.8"/>`);
  }
  const frozen = new Set(W.frozen || []);
  for (const [label, x, y] of centres) {
    const code = W.cells[label];
    if (code === undefined) continue;
    out.push(`<g class="piece" data-cell="${label}" data-army="${code[0]}" transform="translate(${x.toFixed(1)},${y.toFixed(1)})">` +
             `${shapes.shapes[code + (frozen.has(label) ? "*" : "")] || ""}</g>`);
  }
  return out.join("\n");
}
