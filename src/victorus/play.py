"""Play in the terminal: people at some seats, agents at the others (``victorus play``).

Commands at the prompt: an action in R38 notation (``h3-h7``, ``f3xk8``, ``stop``,
``end``, ``pass``), ``legal [CELL]``, ``board``, ``undo``, ``save FILE``,
``load FILE``, ``help``, ``quit``.

With a time limit (the rulebook's Time Management), a person who has not played
the first action of a turn in time forfeits the turn ([`Game.forfeit`][victorus.game.Game.forfeit],
recorded as ``pass``).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable, Collection, Sequence
from typing import TextIO

from . import record
from .checks import shown, shown_path
from .errors import VictorusError
from .files import check_writable, os_error_line
from .game import Game
from .geometry import SEAT_NAMES
from .render import text_board
from .session import PERSON, Session
from .tournament import play_agent

#: When the board is printed: once at the start of each of a person's turns (and at the
#: end), after every turn, or after every action.
BOARDS = ("mine", "turns", "all")

HELP = """commands:
  <action>     play an action in R38 notation: a leg CELL-CELL (quiet) or CELLxCELL
               (a capture), stop, end, pass; one legal now: {example}
  legal [CELL] list the legal actions (of the piece on CELL)
  board        show the board
  undo         take back your last action (and the agents' replies)
  save FILE    write the game record to FILE
  load FILE    continue the game recorded in FILE
  help         this text
  quit         leave the game"""


def help_text(game: Game) -> str:
    """HELP with an action legal in ``game`` as its example (a leg if there is one)."""
    actions = game.legal_actions()
    legs = [action for action in actions if action.is_leg]
    return HELP.format(example=(legs or actions)[0] if actions else "none, the game is over")


class TerminalSession(Session):
    """One terminal game (seats, agents, clock and undo: victorus.session); ``run()``
    reads commands from ``stdin`` until the end."""

    def __init__(self, game: Game, controllers: Sequence[object], color: bool,
                 stdin: TextIO | None = None, stdout: TextIO | None = None,
                 time_limit: float | None = None, seed: int = 0,
                 now: Callable[[], float] = time.monotonic, boards: str = "mine") -> None:
        super().__init__(game, controllers, time_limit, seed, now)
        if boards not in BOARDS:
            raise VictorusError(f"boards must be one of {', '.join(BOARDS)}, got {shown(boards, 60)}")
        self.boards = boards
        self._shown: int | None = None             # the ply whose board was printed last
        self.color = color
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self._lines: queue.Queue[str] | None = None     # filled by a reader thread when on a clock

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def show_board(self) -> None:
        self.say(text_board(self.game, self.color))
        self._shown = self.game.ply

    def _after_action(self) -> None:
        """The board after an action, as often as ``boards`` asks (always at the end)."""
        if self.game.is_over or self.boards == "all" or (
                self.boards == "turns" and self.game.phase == "start"):
            self.show_board()

    def run(self) -> int:
        self.show_board()
        self.say("type 'help' for the commands")
        while not self.game.is_over:
            seat = self.game.to_move
            agent = self.agent_to_act()
            if agent is not None:
                action = play_agent(agent, self.game)     # on a copy; AgentError names it
                self.say(f"{SEAT_NAMES[seat]} ({agent.name}) plays {action}")
                self._after_action()
                continue
            if self.boards == "mine" and self.game.phase == "start" and self._shown != self.game.ply:
                self.show_board()                # once at the start of each of your turns
            left = self.clock.remaining(self.game)
            clock = "" if left is None else f", {left:.0f} s to start"
            prompt = f"{SEAT_NAMES[seat]} [round {self.game.round}, {self.game.phase}{clock}]> "
            self.stdout.write(prompt)
            self.stdout.flush()
            line = self._read_line()
            if line is None:                     # no action in time: the turn is forfeited
                self.forfeit()
                self.say(f"\n{SEAT_NAMES[seat]} did not start the turn within "
                         f"{self.time_limit:g} s and forfeits it (pass)")
                continue
            if not line:                         # end of input
                self.say("\ninput ended; game left unfinished")
                return 1
            if self.command(line.strip()) == "quit":    # asked for: not a failure
                self.say("game left unfinished")
                return 0
        self.say(f"game over: {self.game.result_reason}; winners: "
                 f"{', '.join(SEAT_NAMES[s] for s in self.game.winners or ()) or 'none (draw)'}")
        return 0

    def _read_line(self) -> str | None:
        """The next input line ('' at its end); None if the clock runs out first."""
        if self.time_limit is None:
            return self.stdin.readline()
        if self._lines is None:
            self._lines = queue.Queue()
            threading.Thread(target=self._reader, daemon=True).start()
        while True:
            left = self.clock.remaining(self.game)
            try:                                 # short waits: the clock's time source rules
                return self._lines.get(timeout=None if left is None else min(left, 0.1))
            except queue.Empty:
                if self.clock.expired(self.game):
                    return None

    def _reader(self) -> None:
        assert self._lines is not None
        while True:
            line = self.stdin.readline()
            self._lines.put(line)
            if not line:
                return

    def command(self, line: str) -> str | None:
        word, _, arg = line.partition(" ")
        arg = arg.strip()
        try:
            if not line:
                return None
            if word == "quit":
                return "quit"
            if word == "help":
                self.say(help_text(self.game))
            elif word == "board":
                self.show_board()
            elif word == "legal":
                actions = [str(a) for a in self.game.legal_actions()]
                if arg:
                    self.game.board.cell(arg)                   # NotationError if unknown
                    actions = [a for a in actions if a.replace("x", "-").split("-")[0] == arg]
                self.say(" ".join(actions) or f"no legal action from {arg}")
            elif word == "undo":
                self.undo()
            elif word == "save":
                if not arg:
                    raise VictorusError("save needs a file name: save FILE")
                check_writable(arg)                # a missing folder, named, not an errno
                record.save(self.game, arg, agents=self.controllers,
                            time_limit=self.time_limit)
                self.say(f"saved to {shown_path(arg, quoted=False)}")
            elif word == "load":
                if not arg:
                    raise VictorusError("load needs a file name: load FILE")
                self.replace_game(record.load(arg))
                self.show_board()
            else:
                self.game.play(line)
                self._after_action()
        except (VictorusError, OSError) as exc:
            self.say(f"error: {os_error_line(exc) if isinstance(exc, OSError) else exc}")
        return None

    def undo(self) -> None:
        """Take back actions until a person's last action is undone (victorus.session)."""
        super().undo()
        self.show_board()


def session(board: str = "standard", players: int | None = None, variant: str = "standard",
            humans: Collection[int] = (0,), agent: str = "greedy", seed: int = 0,
            color: bool = False, stdin: TextIO | None = None, stdout: TextIO | None = None,
            time_limit: float | None = None, now: Callable[[], float] = time.monotonic,
            boards: str = "mine") -> TerminalSession:
    """A terminal game with people at ``humans`` and ``agent`` (a spec) at the other seats;
    ``time_limit``: seconds a person has to start each turn (None: no clock); ``now``: the
    clock's time source; ``boards``: when the board is printed (`BOARDS`)."""
    game = Game(board=board, players=players, variant=variant)
    controllers = [PERSON if s in humans else agent for s in range(6)]
    return TerminalSession(game, controllers, color, stdin, stdout, time_limit, seed, now, boards)
