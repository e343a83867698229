"""A slow, obviously-correct PUCT over the public API (victorus.Game), the reference
for the C search of victorus.search._puct: the same selection (virtual loss, first-play
urgency, exact values of proven nodes), expansion, backup and proofs, one leaf of a
batch at a time. Evaluators take a Game and return (priors over legal_actions(),
values per seat)."""

from __future__ import annotations

import math


class Node:
    def __init__(self, parent, action, prior):
        self.parent, self.action, self.prior = parent, action, prior
        self.children = None                     # list once expanded
        self.visits = self.pending = 0
        self.value = [0.0] * 6
        self.seat = -1
        self.proof = None                        # itself (finished) or a child
        self.queued = False

    def exact(self, seat):
        node = self
        while node.proof is not node:
            node = node.proof
        return node.value[seat] / node.visits


def select(node, c_puct, fpu_reduction):
    seat = node.seat
    sqrt_n = math.sqrt(node.visits + node.pending)
    fpu = (node.value[seat] / node.visits if node.visits else 0.0) - fpu_reduction
    best, best_score = node.children[0], -math.inf
    for child in node.children:
        n = child.visits + child.pending
        if child.proof is not None:
            q = child.exact(seat)
        elif n == 0:
            q = fpu
        else:
            q = (child.value[seat] - child.pending) / n
        score = q + c_puct * child.prior * sqrt_n / (1 + n)
        if score > best_score:
            best, best_score = child, score
    return best


def backup(node, value, pending):
    while node is not None:
        node.visits += 1
        node.pending -= pending
        for a in range(6):
            node.value[a] += value[a]
        node = node.parent


def prove_up(node):
    while node.parent is not None:
        parent = node.parent
        if parent.proof is not None:
            return
        proven = [c for c in parent.children if c.proof is not None]
        if not proven:
            return
        best = max(proven, key=lambda c: c.exact(parent.seat))    # first of equals
        ties = [c for c in proven if c.exact(parent.seat) == best.exact(parent.seat)]
        agree = all(c.exact(a) == best.exact(a) for c in ties for a in range(6))
        if best.exact(parent.seat) >= 1.0 or (len(proven) == len(parent.children) and agree):
            parent.proof = best
            node = parent
        else:
            return


def gather(root, game, want, c_puct, fpu_reduction):
    """(leaves [(node, game)], backups done without evaluation)."""
    leaves, done = [], 0
    while len(leaves) < want and root.proof is None:
        node, sim = root, game.copy(history=False)
        while node.children is not None and node.proof is None:
            node = select(node, c_puct, fpu_reduction)
            sim.play(node.action)
        if node.queued:
            break
        if node.proof is None and sim.is_over:
            node.seat = sim.to_move
            backup(node, list(sim.share_returns()), 0)
            node.proof = node
            prove_up(node)
        elif node.proof is not None:
            backup(node, [node.exact(a) for a in range(6)], 0)
        else:
            node.seat, node.queued = sim.to_move, True
            leaves.append((node, sim))
            walk = node
            while walk is not None:
                walk.pending += 1
                walk = walk.parent
            continue
        done += 1
        want -= 1
    return leaves, done


def search(game, evaluate, iterations, batch_size=1, c_puct=1.5, fpu_reduction=0.0):
    """The root after ``iterations`` backups."""
    root, done = Node(None, None, 1.0), 0
    while done < iterations and root.proof is None:
        leaves, backed = gather(root, game, min(batch_size, iterations - done), c_puct,
                                fpu_reduction)
        done += backed
        for node, sim in leaves:
            priors, value = evaluate(sim)
            actions = sim.legal_actions()
            total = sum(priors)
            node.queued = False
            node.children = [Node(node, a, p / total if total > 0 else 1.0 / len(actions))
                             for a, p in zip(actions, priors)]
            backup(node, value, 1)
        done += len(leaves)
    return root
