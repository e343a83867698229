"""Training the learned evaluation, its value and its policy head, from the engine's own
deeper search: ``victorus train`` or `train` (docs/training.md tells the recipe). Its
folder's modules:

- `victorus.training.run`: the loop (self-play, training, the gate, a checkpoint a
  round), resuming, the run folder's lock and `read_run`;
- `victorus.training.settings`: what a run does (`Settings`) and the configurations its
  games are dealt over (`MIX`);
- `victorus.training.selfplay`: the games and their labelled positions;
- `victorus.training.step`: batches of positions, AdamW and `fit`;
- `victorus.training.gating`: the acceptance test and its matches (victorus.match);
- `victorus.training.sprt`: the test's statistics (a game's score, the GSPRT);
- `victorus.training.ladder`: every round's network rated from the run's matches;
- `victorus.training.checkpoint`: the run's files, written and checked when read back;
- `victorus.training.plot`: the curve's picture (``curve.svg``, ``victorus curve``).

The names users import are handed on here.
"""

from ..evaluation.network import default_network
from .run import Point, format_point, game_tasks, read_run, run_files, train
from .selfplay import play_game
from .settings import BACKENDS, MIX, Settings
from .step import Adam, fit, stack

__all__ = ["BACKENDS", "MIX", "Adam", "Point", "Settings", "default_network", "fit", "format_point",
           "game_tasks", "play_game", "read_run", "run_files", "stack", "train"]
