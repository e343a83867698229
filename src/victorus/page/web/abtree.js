// The analysis board's tree, without the page: its nodes (the line it was opened on, the
// variations beside it), what the server is asked for a node, an action applied to a
// position on the page (drawn at once, before the server's answer replaces it), the
// promotion and deletion of a variation, and the links that name a node.

// The most actions of a link's ``moves`` (the server's bound on a variation).
export const MAX_LINK_MOVES = 200;
const LEG = /^([a-z]\d{1,2})([-x])([a-z]\d{1,2})$/;
const ACTION = /^(?:[a-z]\d{1,2}[-x][a-z]\d{1,2}|stop|end|pass)$/;
const PLACED = /^[a-z]\d{1,2}:[0-5](?:K|Q|[TUBXH][wb][+1]?)$/;

/**
 * A node: its action from its parent, its position once known (the server's analysis
 * state, or ``provisional`` one drawn on the page), ``game`` its index on the line the
 * board was opened on (actions from that line's start), or null in a variation.
 * @typedef {{id: number, action: string | null, parent: TreeNode | null, children: TreeNode[],
 *   position: any, game: number | null}} TreeNode
 * @typedef {object} Tree
 * @property {"shown" | "vpn" | "record"} kind  the game shown (asked by ``at``), or a
 *   position or a record (asked by the VPN of a turn's start and the actions since)
 * @property {[number, string][]} starts  (vpn, record) each turn's start: [index, VPN]
 * @property {string[]} line  the actions of the line opened (the game's moves)
 * @property {TreeNode[]} nodes  every node by id (a deleted one stays here, out of the tree)
 * @property {TreeNode} at  the node shown
 * @property {string | null} picked
 * @property {any} found
 * @property {number} asked
 * @property {boolean} running
 * @property {string} error
 * @property {number} shape  one more at every change of the tree's shape
 * @property {boolean} later  the panel beside the board is to be drawn once the frame is
 *   painted (and the node shown asked for, if ``askDue``)
 * @property {boolean} askDue
 */

/**
 * A tree on ``line`` (its root at index ``base`` of the game), the node at ``at`` shown.
 * @param {"shown" | "vpn" | "record"} kind
 * @param {string[]} line
 * @param {[number, string][]} starts
 * @returns {Tree}
 */
export function newTree(kind, line, starts, at, base = 0) {
  const known = new Map(starts);         // (each turn's start drawn at once from its VPN)
  const root = { id: 0, action: null, parent: null, children: [], position: vpnPosition(known.get(base)), game: base };
  const tree = { kind, starts, line, nodes: [root], at: root, picked: null, found: null, asked: 0,
                 running: false, error: "", shape: 0, later: false, askDue: false };
  let node = root;
  for (const [k, action] of line.entries()) {
    node = addNode(tree, node, action, base + k + 1);
    node.position = vpnPosition(known.get(base + k + 1));
  }
  tree.at = lineNode(tree, at) || root;
  return tree;
}

// The position a VPN names, as the page can tell it at once (R39: board, placement, army
// to act, armies, round, variant; a turn's start), provisional; null without a VPN.
export function vpnPosition(vpn) {
  const fields = vpn ? vpn.trim().split(/\s+/) : [];
  if (fields.length < 5 || !(fields[1] === "-" || fields[1].split(",").every((c) => PLACED.test(c)))) return null;
  return { placement: fields[1], to_move: Number(fields[2]), phase: "start", round: Number(fields[4]),
           over: false, vpn: null, legal: null, provisional: true };
}

/** @param {Tree} tree @param {TreeNode} parent @param {string} action @returns {TreeNode} */
export function addNode(tree, parent, action, game = null) {
  const node = { id: tree.nodes.length, action, parent, children: [], position: null, game };
  parent.children.push(node);
  tree.nodes.push(node);
  tree.shape += 1;
  return node;
}

// The node of the line opened at index ``index``, or null.
/** @param {Tree} tree @returns {TreeNode | null} */
export function lineNode(tree, index) {
  for (let n = tree.nodes[0]; n; n = n.children.find((c) => c.game !== null)) {
    if (n.game === index) return n;
  }
  return null;
}

// What /api/analyse is asked for ``node``: {at, moves} on the game shown, else the VPN
// of the turn's start before it and the actions since.
/** @param {Tree} tree @param {TreeNode} node */
export function address(tree, node) {
  const moves = [];
  let n = node;
  for (; n.game === null; n = n.parent) moves.unshift(n.action);
  if (tree.kind === "shown") return { at: n.game, moves };
  const index = n.game;
  const [from, vpn] = tree.starts.filter(([i]) => i <= index).at(-1);
  return { vpn, moves: tree.line.slice(from, index).concat(moves) };
}

// Whether the analysis state ``found`` is the answer for the address ``asked``.
export function answers(found, asked) {
  const source = found && found.source;
  if (!source || JSON.stringify(source.moves) !== JSON.stringify(asked.moves)) return false;
  return "vpn" in asked ? source.vpn === asked.vpn : source.at === asked.at;
}

// The cells of a position: {label: code}.
export function cellsOf(position) {
  const cells = {};
  if (!position || !position.placement || position.placement === "-") return cells;
  for (const entry of position.placement.split(",")) {
    const [label, code] = entry.split(":");
    cells[label] = code;
  }
  return cells;
}

// A position's legal legs as the board draws them: [origin, target, "-" or "x"].
export function legalLegs(position) {
  const legs = [];
  for (const text of (position && position.legal) || []) {
    const m = LEG.exec(text);
    if (m) legs.push([m[1], m[3], m[2]]);
  }
  return legs;
}

// ``position`` after ``action`` as the page can tell it at once: a leg's piece moved from
// its origin to its target (what it took gone); a word changes no cell. Provisional: the
// server's answer replaces it (turn, phase and every rule's effect).
export function applyLocal(position, action) {
  const cells = cellsOf(position);
  const m = LEG.exec(action || "");
  if (m && cells[m[1]]) {
    cells[m[3]] = cells[m[1]];
    delete cells[m[1]];
  }
  const placement = Object.entries(cells).map(([l, c]) => `${l}:${c}`).join(",") || "-";
  return { placement, to_move: position.to_move, phase: position.phase, round: position.round,
           over: false, vpn: null, legal: null, provisional: true };
}

// The position drawn for ``node``: the server's, else its parent's with its action
// applied on the page (kept on the node until the server's answer replaces it).
/** @param {TreeNode} node */
export function positionOf(node) {
  if (node.position || !node.parent) return node.position;
  const before = positionOf(node.parent);
  if (before) node.position = applyLocal(before, node.action);
  return node.position;
}

// Promote the variation ``node`` is in: its branch becomes its parent's first child (the
// line that continues), one level at a time as lichess's does.
/** @param {Tree} tree @param {TreeNode} node */
export function promote(tree, node) {
  let n = node;
  while (n.parent && n.parent.children[0] === n) n = n.parent;
  if (!n.parent) return false;
  const siblings = n.parent.children;
  siblings.splice(siblings.indexOf(n), 1);
  siblings.unshift(n);
  tree.shape += 1;
  return true;
}

// Whether ``node`` is in a variation (not on the line that runs from the root).
/** @param {TreeNode} node */
export function inVariation(node) {
  for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return true;
  return false;
}

// Delete ``node`` and what follows it; the node shown goes to its parent if it was in it.
/** @param {Tree} tree @param {TreeNode} node */
export function remove(tree, node) {
  if (!node.parent) return false;
  const siblings = node.parent.children;
  siblings.splice(siblings.indexOf(node), 1);
  for (let n = tree.at; n; n = n.parent) if (n === node) { tree.at = node.parent; break; }
  tree.shape += 1;
  return true;
}

// The page's URL query naming ``node`` (?at=&moves= on the game shown, ?vpn=&moves=).
/** @param {Tree} tree @param {TreeNode} node */
export function linkOf(tree, node) {
  const asked = address(tree, node), query = new URLSearchParams();
  if ("vpn" in asked) query.set("vpn", asked.vpn);
  else query.set("at", String(asked.at));
  if (asked.moves.length) query.set("moves", asked.moves.join(","));
  return `?${query}`;
}

// What a URL query asks the board to open: null (nothing), {error} (one line), or
// {at, moves} (the game shown at action ``at``, then ``moves``) or {vpn, moves}.
export function readLink(search) {
  const query = new URLSearchParams(search);
  const at = query.get("at"), vpn = query.get("vpn"), movesText = query.get("moves");
  if (at === null && vpn === null) return null;
  if (at !== null && vpn !== null) return { error: "the link names both 'at' and 'vpn': give one (a number of actions of the game shown, or a position)" };
  const moves = movesText ? movesText.split(",") : [];
  const bad = moves.find((m) => !ACTION.test(m));
  if (bad !== undefined || moves.length > MAX_LINK_MOVES) {
    return { error: `the link's 'moves' must be at most ${MAX_LINK_MOVES} actions in R38 notation, comma-separated, got ${JSON.stringify((bad ?? movesText).slice(0, 40))}` };
  }
  if (at !== null) {
    if (!/^\d{1,9}$/.test(at)) return { error: `the link's 'at' must be a number of actions of the game shown, got ${JSON.stringify(at.slice(0, 40))}` };
    return { at: Number(at), moves };
  }
  if (!vpn.trim() || vpn.length > 4096) return { error: "the link's 'vpn' must be a position in R39 notation (at most 4,096 characters)" };
  return { vpn, moves };
}
