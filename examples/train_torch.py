"""Train the learned evaluation in PyTorch from a training run's dataset, and write a
``.vnet`` file that every search of victorus plays.

The model is the network of victorus.evaluation (the numpy twin's arithmetic, written in
torch): a sum of first-layer rows (an EmbeddingBag) plus the dense inputs, two clipped-ReLU
layers, a raw value per seat plus the heuristic terms through ``skip``, a team's share of the
win by a softmax over the present teams, and the policy head's logits (origin row + target
row + the pair term of the target and the moving piece's kind, or a word's row, plus
``policy_capture`` x the capture prior's log). Its loss is the
training loop's: the value's mean squared error over present seats plus ``policy_weight`` x
the policy's cross-entropy against the search's visit distribution.

    python examples/train_torch.py RUN/positions-[0-9]*.npz --out torch.vnet
    victorus match "best-net(torch.vnet):200" "best-net:200" --games 100
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping

import numpy as np
import torch

from victorus.evaluation.network import Network, network_from
from victorus.evaluation.twin import VALUE_BOUND, Batch
from victorus.training.dataset import read_dataset
from victorus.training.step import stack


class TorchNet(torch.nn.Module):
    """A victorus network's arrays as torch parameters (float64: its gradients are the
    numpy twin's to rounding)."""

    def __init__(self, arrays: Mapping[str, np.ndarray]) -> None:
        super().__init__()
        self.names = list(arrays)
        for name, value in arrays.items():
            self.register_parameter(name, torch.nn.Parameter(torch.tensor(np.asarray(value, np.float64))))

    def arrays(self) -> dict[str, np.ndarray]:
        """The parameters as a network's arrays (float32)."""
        return {name: getattr(self, name).detach().numpy().astype(np.float32) for name in self.names}

    def forward(self, batch: Batch) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor]:
        """The value per seat [B, 6], the actions' logits [A] (None: no policy head) and
        the first layer [B, hidden]."""
        offsets = torch.tensor(batch.starts)
        sums = torch.nn.functional.embedding_bag(torch.tensor(batch.rows), self.w1, offsets, mode="sum")
        acc = self.b1 + torch.tensor(batch.dense, dtype=torch.float64) @ self.wd + sums
        h1 = acc.clamp(0, 1)
        h2 = (h1 @ self.w2 + self.b2).clamp(0, 1)
        terms = torch.tensor(batch.terms, dtype=torch.float64)
        raw = h2 @ self.w3 + self.b3 + torch.einsum("k,bki->bi", self.skip, terms)
        matrices = torch.tensor(batch.matrices, dtype=torch.float64)
        score = torch.einsum("bij,bj->bi", matrices, raw)        # each seat's team's score
        present = torch.tensor(batch.present)
        weight = torch.diagonal(matrices, dim1=1, dim2=2)          # 1 / the seat's team size
        masked = score.masked_fill(~present, -torch.inf)
        e = torch.exp(masked - masked.max(dim=1, keepdim=True).values)
        share = e / (e * weight).sum(dim=1, keepdim=True)
        value = VALUE_BOUND * (2 * share - 1) * present
        if "policy_from" not in self.names:
            return value, None, h1
        h = torch.cat([h1, torch.ones(len(h1), 1, dtype=h1.dtype)], dim=1)[torch.tensor(batch.owner)]
        origin, target = torch.tensor(batch.origin), torch.tensor(batch.target)
        leg = origin >= 0
        words = self.policy_word.shape[0] - 1
        legs = (h * self.policy_from[origin.clamp(min=0)]).sum(1) \
            + (h * self.policy_to[torch.where(leg, target, 0)]).sum(1)
        if "policy_pair" in self.names:
            legs = legs + self.policy_pair[torch.where(leg, target, 0),
                                           torch.tensor(batch.kind).clamp(min=0)]
        word = (h * self.policy_word[target.clamp(max=words)]).sum(1)
        logits = torch.where(leg, legs, word) \
            + self.policy_capture[0] * torch.tensor(batch.capture, dtype=torch.float64)
        return value, logits, h1

    def loss(self, batch: Batch, targets: np.ndarray, policy: np.ndarray | None = None,
             policy_weight: float = 1.0) -> torch.Tensor:
        """The training loop's loss (victorus.evaluation.twin.loss_and_gradients)."""
        value, logits, _ = self(batch)
        present = torch.tensor(batch.present)
        error = (value - torch.tensor(targets, dtype=torch.float64)) * present
        loss = (error ** 2).sum() / max(int(present.sum()), 1)
        if policy is None or logits is None:
            return loss
        owner = torch.tensor(batch.owner)
        top = torch.full((len(batch),), -torch.inf, dtype=logits.dtype).scatter_reduce(
            0, owner, logits, "amax")
        e = torch.exp(logits - top[owner])
        prior = e / torch.zeros(len(batch), dtype=e.dtype).index_add(0, owner, e)[owner]
        p = torch.tensor(policy, dtype=torch.float64)
        mass = torch.zeros(len(batch), dtype=p.dtype).index_add(0, owner, p)
        count = max(int((mass > 0).sum()), 1)
        cross = -(p * torch.log(prior.clamp(min=1e-30))).sum() / count
        return loss + policy_weight * cross


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="+",
                        help="dataset files (a run's positions-<n>.npz; positions-holdout.npz is "
                             "its held-out set)")
    parser.add_argument("--start", default="default", help="the network trained from")
    parser.add_argument("--out", required=True, help="the .vnet file written")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--policy-weight", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = network_from(args.start).with_policy()
    samples = [s for path in args.datasets for s in read_dataset(path).samples]
    if not samples:
        print("the datasets hold no position", file=sys.stderr)
        return 1
    batch, targets, policy = stack(samples)
    model = TorchNet(start.arrays)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.0)
    rng = np.random.default_rng(args.seed)
    for epoch in range(args.epochs):
        order, total = rng.permutation(len(batch)), 0.0
        for k in range(0, len(batch), args.batch):
            index = order[k:k + args.batch]
            loss = model.loss(batch.take(index), targets[index],
                              policy[batch.action_index(index)], args.policy_weight)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(index)
        print(f"epoch {epoch + 1}: loss {total / len(batch):.4f} over {len(batch)} positions")
    Network(model.arrays(), start.trained, {"trained_by": "examples/train_torch.py"}).save(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
