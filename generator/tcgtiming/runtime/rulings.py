"""Checking rulings: run a ruling's scenario (strictly: every decision scripted) and check the
facts its answer states (``runtime.expect``). A verdict holds the run, the error that stopped it
(an expected refusal, or a defect), and the failures, each located in the ruling file with the
trace entry it concerns."""
from __future__ import annotations

from dataclasses import dataclass

from ..core.ruling import Ruling
from .engine import Run, SimulationError, program_for, simulate
from .expect import Failure, check


@dataclass
class Verdict:
    ruling: Ruling
    run: Run | None
    error: SimulationError | None
    failures: list[Failure]

    @property
    def passed(self) -> bool:
        return not self.failures


def check_ruling(ruling: Ruling, game, run: Run | None = None) -> Verdict:
    """``run``: the strict run of the ruling's scenario when it was already made (the site runs each
    shipped scenario once, and a ruling that ``uses`` one checks that run)."""
    sc = ruling.scenario
    program = program_for(game, len(sc.players))
    error = None
    if run is None:
        try:
            run = simulate(game, sc, strict=True, program=program)
        except SimulationError as exc:
            error = exc
    failures = check(run, sc, error=error, program=program, expect=ruling.expect)
    if error is not None and not failures and not _refusal_expected(ruling):
        failures = [Failure(error.loc, f"the run stopped: {error.code} {error.message}")]
    if run is not None:  # a proof does what it says: a choice it scripts and never reaches is a failure
        failures += [Failure(loc, f"the scripted choice at '{at}' was never used" if at else
                             "a scripted choice (answering decisions in order) was never used")
                     for at, loc in run.unused_choices]
    return Verdict(ruling, run, error, failures)


def _refusal_expected(ruling: Ruling) -> bool:
    f = ruling.expect.facts if ruling.expect is not None else None
    return f is not None and f.refused is not None


def around(run: Run | None, seq: int, width: int = 2) -> list:
    """The trace entries around entry ``seq`` (for a failure's context)."""
    if run is None:
        return []
    return [e for e in run.entries if abs(e.seq - seq) <= width]


__all__ = ["Verdict", "check_ruling", "around"]
