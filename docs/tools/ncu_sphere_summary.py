"""Summarise Nsight Compute ``--page raw --csv`` reports of the sphere kernels into one table.

Usage: python3 docs/tools/ncu_sphere_summary.py REPORT.csv [...]  (file names: ncu-<count>-<variant>.csv)
Each report holds one profiled kernel launch, from
``ncu --clock-control none -k regex:trace_ --section WarpStateStats --section InstructionStats
--section MemoryWorkloadAnalysis --section SpeedOfLight --page raw --csv python3 main.py render
--renderer spheres --scene random --count N --size 1024 --variant V --backend cuda``.
"""

import csv
import sys
from pathlib import Path

COLUMNS = {
    "gpu__time_duration.sum": "us",
    "smsp__inst_executed.sum": "Minst",
    "sm__issue_active.avg.pct_of_peak_sustained_elapsed": "issue%",
    "idc__request_cycles_active.avg.pct_of_peak_sustained_elapsed": "idc%",
    "l1tex__throughput.avg.pct_of_peak_sustained_active": "l1tex%",
    "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio": "mio_thr",
    "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio": "short_sb",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio": "long_sb",
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio": "lg_thr",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio": "barrier",
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio": "wait",
    "smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio": "not_sel",
}


def metrics(path: Path) -> dict[str, float]:
    rows = [row for row in csv.reader(path.open()) if row]
    start = next(i for i, row in enumerate(rows) if row[0] == "ID")
    names, values = rows[start], rows[start + 2]
    found = dict(zip(names, values, strict=True))
    return {key: float(found[key].replace(",", "")) for key in COLUMNS}


def main() -> None:
    print(f"{'spheres':>7} {'variant':<19}" + "".join(f"{label:>9}" for label in COLUMNS.values()))
    for name in sys.argv[1:]:
        path = Path(name)
        _, count, variant = path.stem.split("-", 2)
        m = metrics(path)
        m["gpu__time_duration.sum"] /= 1000
        m["smsp__inst_executed.sum"] /= 1e6
        print(f"{count:>7} {variant:<19}" + "".join(f"{m[key]:>9.2f}" for key in COLUMNS))


if __name__ == "__main__":
    main()
