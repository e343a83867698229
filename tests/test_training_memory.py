"""What a round keeps of the rounds before it and what its labels are made of: AdamW's decay
toward an anchor (the best network so far) instead of toward 0, on every decayed array and
on the first layer's touched rows only; and self-play's deep (labelling) search with a root
noise of its own, so that its visits, the policy label, are the search's choice."""

import numpy as np
import pytest

from victorus.training.selfplay import Play, _agents
from victorus.training.step import Adam


def arrays_of(value: float) -> dict[str, np.ndarray]:
    return {"w1": np.full((4, 2), value, np.float32), "wd": np.full((3, 2), value, np.float32),
            "b1": np.full(2, value, np.float32), "w2": np.full((2, 2), value, np.float32),
            "b2": np.full(2, value, np.float32), "w3": np.full((2, 6), value, np.float32),
            "b3": np.full(6, value, np.float32), "skip": np.full(3, value, np.float32)}


def zero_gradients(arrays: dict[str, np.ndarray], rows: list[int]) -> dict:
    """Gradients of 0 (Adam's step is then the decay alone), the first layer's ``rows``
    touched."""
    grads = {k: np.zeros_like(v, np.float64) for k, v in arrays.items() if k != "w1"}
    grads["w1"] = (np.array(rows, np.intp), np.zeros((len(rows), 2)))
    return grads


@pytest.mark.parametrize("anchor_value", [None, 0.5, -2.0])
def test_the_decay_pulls_toward_the_anchor(anchor_value):
    arrays = arrays_of(1.0)
    anchor = None if anchor_value is None else arrays_of(anchor_value)
    adam = Adam(arrays, rate=0.1, decay=2.0, anchor=anchor)
    adam.step(arrays, zero_gradients(arrays, [1, 3]))
    toward = 0.0 if anchor_value is None else anchor_value
    moved = toward + (1 - 0.1 * 2.0) * (1.0 - toward)       # 20% of the way to the anchor
    for name in Adam.DECAYED:
        if name in arrays and name != "w1":
            assert arrays[name] == pytest.approx(np.full_like(arrays[name], moved)), name
    for name in ("b1", "b2", "b3", "skip"):                  # biases and skip are not decayed
        assert arrays[name] == pytest.approx(np.ones_like(arrays[name])), name
    assert arrays["w1"][[1, 3]] == pytest.approx(np.full((2, 2), moved))   # touched rows
    assert arrays["w1"][[0, 2]] == pytest.approx(np.ones((2, 2)))          # the others not


def test_the_anchor_can_change_between_steps():
    arrays = arrays_of(1.0)
    adam = Adam(arrays, rate=0.5, decay=1.0)
    adam.anchor = arrays_of(3.0)
    adam.step(arrays, zero_gradients(arrays, [0]))
    assert arrays["w2"] == pytest.approx(np.full((2, 2), 2.0))   # halfway from 1 to 3
    adam.anchor = None
    adam.step(arrays, zero_gradients(arrays, [0]))
    assert arrays["w2"] == pytest.approx(np.full((2, 2), 1.0))   # halfway from 2 to 0


@pytest.mark.parametrize("label_noise, deep", [(None, 0.25), (0.0, 0.0), (0.1, 0.1)])
def test_the_deep_search_has_a_root_noise_of_its_own(label_noise, deep):
    play = Play(iterations=4, opening=0, max_actions=10, blend=0.5, label_iterations=8,
                label_share=0.5, noise=0.25, label_noise=label_noise)
    fast, labelling = _agents(7, None, play)
    assert (fast.noise_fraction, labelling.noise_fraction) == (0.25, deep)
    assert (fast.iterations, labelling.iterations) == (4, 8)
