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


def check_ruling(ruling: Ruling, game) -> Verdict:
    sc = ruling.scenario
    program = program_for(game)
    try:
        run, error = simulate(game, sc, strict=True, program=program), None
    except SimulationError as exc:
        run, error = None, exc
    failures = check(run, sc, error=error, program=program, expect=ruling.expect)
    if error is not None and not failures and not _refusal_expected(ruling):
        failures = [Failure(error.loc, f"the run stopped: {error.code} {error.message}")]
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
