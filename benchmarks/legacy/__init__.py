"""The interpreter as it was before the compiled, event-sourced engine (tcgtiming commit aed5723,
``generator/tcgtiming/runtime/engine/`` and ``runtime/trace.py``), frozen here with its imports made
absolute. Not part of the package: ``benchmarks/engines.py`` runs it beside the engine, to compare
their traces entry by entry and their speed side by side in one run."""
