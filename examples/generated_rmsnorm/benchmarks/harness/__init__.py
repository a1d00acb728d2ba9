"""The families' benchmarks and sanitizer workloads, written once for the project: timing.py (how
every benchmark times and reports) and one module per family (benchmarks/bench_<operator>.py and
benchmarks/sanitize_<operator>.py call them)."""
