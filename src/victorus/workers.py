"""Process parallelism for every command with ``--workers`` (training, tournaments,
simulation on Ray): tasks dealt to worker processes, and a worker that dies is an error.

`process_map` starts its workers afresh ('spawn': safe beside threads), gives each a pipe
of its own and waits on the pipes and on the processes together, so that a worker killed
by the out-of-memory killer, a container's limit or ``kill -9`` stops the call at once
with a `WorkerLost` naming the process, how it ended and the task it held, where
``multiprocessing.Pool`` would wait forever. `ray_map` is the same contract on Ray: a
lost task or worker is a `WorkerLost`, never retried behind the caller's back. The results
finished before a loss have been handed to the caller, which keeps them.

A worker never outlives its parent: on Linux the kernel kills it when its parent dies
(``PR_SET_PDEATHSIG``), and everywhere a watchdog thread in the worker ends it quietly
within `PARENT_SECONDS` of its parent's death (SIGKILL, the out-of-memory killer, a
``kill`` the parent does not handle), even in the middle of a long task: no result, no
traceback, no output.
"""

from __future__ import annotations

import collections
import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for
from multiprocessing.context import SpawnContext
from multiprocessing.reduction import ForkingPickler
from typing import Any, TypeVar

from .errors import WorkerLost, optional_imports
from .progress import hold_standard_fds

#: How long a worker that was told to stop may take before it is terminated.
STOP_SECONDS = 5.0

#: The most seconds between two looks of a worker's watchdog for its parent.
PARENT_SECONDS = 0.5

#: prctl(2)'s option: the signal a process gets when its parent dies (Linux).
_PR_SET_PDEATHSIG = 1

_Shared = TypeVar("_Shared")
_Task = TypeVar("_Task")
_Result = TypeVar("_Result")


def how_it_ended(exitcode: int | None) -> str:
    """A worker's exit status in words.

    Args:
        exitcode: The process's exit code (negative: the signal that ended it; None: it
            has not ended).

    Returns:
        How it ended, like ``"killed by SIGKILL (kill -9, or the out-of-memory killer)"``.
    """
    if exitcode is None:
        return "it stopped answering"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        why = " (kill -9, or the out-of-memory killer)" if name == "SIGKILL" else ""
        return f"killed by {name}{why}"
    return f"exited with status {exitcode}"


def _serve(function: Callable[[Any, Any], Any], conn: Connection, parent: int) -> None:
    """A worker of process ``parent``: read the shared data, then answer each (index, task)
    sent on ``conn`` with (index, ok, result or exception) until told to stop (None) or the
    parent goes (then it ends quietly, its task or not)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the parent's to handle
    _end_with(parent)
    try:
        shared = conn.recv()
    except (EOFError, OSError):
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, task = message
        try:
            answer = (index, True, function(shared, task))
        except Exception as exc:                       # the caller's to see, as raised
            answer = (index, False, _travelling(exc))
        try:
            data = ForkingPickler.dumps(answer)
        except Exception as exc:                       # a result that won't pickle
            data = ForkingPickler.dumps((index, False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        try:
            conn.send_bytes(data)
        except OSError:                                # the parent is gone: so is its answer
            return


def _end_with(parent: int) -> None:
    """This worker's end tied to its parent's (process ``parent``): on Linux the kernel
    kills it when the parent dies (``PR_SET_PDEATHSIG``; "the parent" is the thread that
    started the worker, which is the one that maps), and a watchdog thread ends it within
    `PARENT_SECONDS` everywhere. A parent already gone (before the kernel was told) ends
    it here."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None)
            libc.prctl(_PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGKILL), ctypes.c_ulong(0),
                       ctypes.c_ulong(0), ctypes.c_ulong(0))
        except (OSError, AttributeError):             # no C library to ask: the watchdog
            pass
    if not _parent_alive(parent):
        os._exit(0)
    threading.Thread(target=_watch, args=(parent,), name="victorus-parent-watch",
                     daemon=True).start()


def _parent_alive(parent: int) -> bool:
    """Whether process ``parent`` is still this worker's parent: this process's parent pid
    still ``parent`` (an orphan gets another on POSIX) and the parent's sentinel
    (multiprocessing's pipe or process handle, ready once the parent has ended) not ready."""
    process = multiprocessing.parent_process()
    return os.getppid() == parent and (process is None or process.is_alive())


def _watch(parent: int) -> None:
    """The watchdog: a look for the parent every PARENT_SECONDS, and the worker ended at
    once (``os._exit``: no cleanup, no output) when it is gone."""
    while _parent_alive(parent):
        time.sleep(PARENT_SECONDS)
    os._exit(0)


def _travelling(exc: Exception) -> Exception:
    """``exc`` if it comes back whole from a pickle (as the parent will read it), else a
    RuntimeError with its type and words: an exception that does not pickle, or does not
    unpickle (an ``__init__`` of other arguments), never hides what went wrong."""
    try:
        if type(pickle.loads(pickle.dumps(exc))) is type(exc):
            return exc
    except Exception:
        pass
    return RuntimeError(f"{type(exc).__name__}: {exc}")


class _Worker:
    """A worker process and the parent's end of its pipe. ``shared`` is sent on the pipe,
    not with the process: spawn writes a new process's arguments to a pipe that the parent
    itself holds open until the write ends, so a worker killed while reading a large one
    (over the pipe's 64 KiB) would leave that write blocked forever."""

    def __init__(self, context: SpawnContext, function: Callable[[Any, Any], Any], number: int) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(function, child, os.getpid()),
                                       name=f"victorus-worker-{number}", daemon=True)
        self.process.start()
        child.close()
        self.holding: int | None = None               # the index of the task it works on
        self.tasks_given = 0

    def lost(self, tasks: Sequence[Any], describe: Callable[[Any], str]) -> WorkerLost:
        self.process.join(1.0)
        held = (f"while {describe(tasks[self.holding])}" if self.holding is not None
                else "between two tasks" if self.tasks_given else "before its first task")
        return WorkerLost(f"worker process {self.process.pid} died "
                          f"({how_it_ended(self.process.exitcode)}) {held}")


def process_map(function: Callable[[_Shared, _Task], _Result], shared: _Shared,
                tasks: Sequence[_Task], workers: int,
                describe: Callable[[_Task], str] = lambda task: "working"
                ) -> Generator[tuple[int, _Result], None, None]:
    """``(index, function(shared, tasks[index]))`` for every task, as ``workers`` processes
    finish them (their order, not the tasks'). ``function`` and ``shared`` travel pickled
    (a function defined at a module's top level); ``shared`` is sent once per worker.
    A task's exception is raised here as it was raised there. A worker that dies raises
    `WorkerLost` naming it, how it ended and ``describe(task)`` of the task it held; the
    other workers are stopped at once, as they are when the caller stops iterating.

    Args:
        function: Called as ``function(shared, task)``: a function defined at a module's
            top level.
        shared: What every task shares, sent once per worker.
        tasks: The tasks.
        workers: The most worker processes.
        describe: A task in words, for `WorkerLost`.

    Yields:
        ``(index, result)`` of each task, as they finish.

    Raises:
        WorkerLost: If a worker dies.
    """
    context = multiprocessing.get_context("spawn")
    hold_standard_fds()                  # a closed stderr never becomes a worker's pipe
    waiting = collections.deque(range(len(tasks)))
    pool: list[_Worker] = []
    finished = False
    try:
        for number in range(min(workers, len(tasks))):     # all started, then fed: they
            pool.append(_Worker(context, function, number))  # start up side by side
        for worker in pool:
            _send(worker, shared, tasks, describe)
            _give(worker, tasks, waiting, describe)
        while any(worker.holding is not None for worker in pool):
            busy = [worker for worker in pool if worker.holding is not None]
            ready = set(wait_for([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            answered = [worker for worker in busy if worker.conn in ready]
            for worker in answered:                  # every finished result, then a loss
                try:
                    index, ok, value = worker.conn.recv()
                except (EOFError, OSError):
                    raise worker.lost(tasks, describe) from None
                worker.holding = None
                if not ok:
                    raise value
                yield index, value
                _give(worker, tasks, waiting, describe)
            for worker in busy:
                if worker not in answered and worker.process.sentinel in ready:
                    raise worker.lost(tasks, describe)
        finished = True
    finally:
        _stop(pool, finished)


def _give(worker: _Worker, tasks: Sequence[Any], waiting: collections.deque[int],
          describe: Callable[[Any], str]) -> None:
    """The next task to an idle worker, if any is left."""
    if not waiting:
        return
    worker.holding = waiting.popleft()
    worker.tasks_given += 1
    _send(worker, (worker.holding, tasks[worker.holding]), tasks, describe)


def _send(worker: _Worker, message: Any, tasks: Sequence[Any], describe: Callable[[Any], str]) -> None:
    try:
        worker.conn.send(message)
    except (BrokenPipeError, ConnectionResetError, EOFError):
        raise worker.lost(tasks, describe) from None


def _stop(pool: list[_Worker], finished: bool) -> None:
    """Every worker ended: told to stop after a whole map, terminated after a loss, an
    error or a caller that stopped early (or when slow to stop)."""
    for worker in pool:
        if finished and worker.process.is_alive():
            try:
                worker.conn.send(None)
            except OSError:
                pass
        else:
            worker.process.terminate()
    for worker in pool:
        worker.process.join(STOP_SECONDS)
        if worker.process.is_alive():            # deaf to SIGTERM: SIGKILL is not
            worker.process.kill()
            worker.process.join(STOP_SECONDS)
        worker.conn.close()


@contextmanager
def ray_session(workers: int, address: str | None) -> Iterator[Any]:
    """Ray for a run: started here (and stopped after) unless it is already running.

    Args:
        workers: The CPUs of a local Ray started here.
        address: A Ray cluster's address (None: a local Ray).

    Yields:
        The ``ray`` module.

    Raises:
        MissingDependencyError: If Ray is not installed.
    """
    with optional_imports("backend='ray'"):
        import ray
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, num_cpus=None if address else workers,
                 include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def ray_map(function: Callable[[_Shared, _Task], _Result], shared: _Shared,
            tasks: Sequence[_Task], workers: int, address: str | None = None,
            describe: Callable[[_Task], str] = lambda task: "working"
            ) -> Generator[tuple[int, _Result], None, None]:
    """`process_map`'s contract on Ray (``address``: a cluster's; None starts a local Ray):
    ``shared`` put in the object store once, at most ``workers`` tasks in flight, each run
    once (a lost task is not retried), and a lost task, worker or node a `WorkerLost`.

    Args:
        function: Called as ``function(shared, task)`` in a Ray task.
        shared: What every task shares, put in the object store once.
        tasks: The tasks.
        workers: The most tasks in flight.
        address: A Ray cluster's address (None: a local Ray started here).
        describe: A task in words, for `WorkerLost`.

    Yields:
        ``(index, result)`` of each task, as they finish.

    Raises:
        WorkerLost: If a task, worker or node is lost.
        MissingDependencyError: If Ray is not installed.
    """
    with ray_session(workers, address) as ray:
        lost, raised = ray.exceptions.RayError, ray.exceptions.RayTaskError
        remote = ray.remote(max_retries=0)(function)
        shared_ref = ray.put(shared)
        waiting = collections.deque(range(len(tasks)))
        pending: dict[Any, int] = {}                 # Ray's object refs: their tasks
        try:
            while waiting or pending:
                while waiting and len(pending) < workers:
                    index = waiting.popleft()
                    pending[remote.remote(shared_ref, tasks[index])] = index
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    index = pending.pop(ref)
                    try:
                        value = ray.get(ref)
                    except raised:             # the task raised: its own exception
                        raise
                    except lost as exc:
                        raise WorkerLost(f"a Ray worker was lost ({type(exc).__name__}) while "
                                         f"{describe(tasks[index])}") from None
                    yield index, value
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)


__all__ = ["process_map", "ray_map", "ray_session", "how_it_ended"]
