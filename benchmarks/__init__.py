"""The benchmarks: one module per measurement, each run from the repository root as
``python -m benchmarks.<name>`` (README, "Benchmarks"). They drive the package through its
public interfaces only and write ``benchmarks/results/*.json`` with the command, versions,
sample and date that produced them (docs/DESIGN.md, "Rules of thumb")."""
