"""Training curves of runs: dev accuracy, training reward and buffer coverage against step and against
wall-clock time, one line per run, read from each run's `metrics.jsonl` (see `nsmcli.train.rundir`).

matplotlib is an optional extra (`pip install 'nsmcli[plot]'`); it is imported only when a figure is drawn.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from nsmcli.errors import DataError, NsmError
from nsmcli.fileio import atomic_write_bytes, check_output_file

#: The panels' columns: (metrics key, axis label). Each is drawn against step and against wall-clock time.
CURVES = (
    ("dev_accuracy", "dev accuracy"),
    ("train_reward", "training reward"),
    ("buffer_coverage", "buffer coverage"),
)

#: File types the figure can be written as (matplotlib's writers without extra dependencies).
FORMATS = ("png", "svg", "pdf")


class MissingExtraError(NsmError):
    """An optional dependency is not installed."""


@dataclass
class RunCurves:
    """One run's logged metrics lines and the name its line carries in the legend."""

    label: str
    lines: list[dict]


def read_runs(paths: list[Path]) -> list[RunCurves]:
    """The metrics of each run directory; a DataError names a path that is not a run with metrics."""
    from nsmcli.train.rundir import RunDir

    runs = []
    for path in paths:
        if not Path(path).is_dir():
            raise DataError(f"{path}: no such run directory")
        lines = RunDir(path).read_metrics()
        if not lines:
            raise DataError(f"{path}: no metrics.jsonl lines (is it a run directory written by nsm train?)")
        runs.append(RunCurves(_label(Path(path), paths), lines))
    return runs


def _label(path: Path, paths: list[Path]) -> str:
    """The run's folder name, or its last two parts when another run has the same folder name."""
    names = [Path(p).resolve().name for p in paths]
    resolved = path.resolve()
    return resolved.name if names.count(resolved.name) == 1 else f"{resolved.parent.name}/{resolved.name}"


def _require_matplotlib():
    try:
        import matplotlib
    except ImportError:
        raise MissingExtraError("nsm plot needs matplotlib: pip install 'nsmcli[plot]'") from None
    matplotlib.use("Agg")  # files only: no display is needed or opened
    import matplotlib.pyplot as plt

    return plt


def check_figure_path(out: Path) -> None:
    """Fail before any work when `out` cannot be written or has a file type the figure cannot have."""
    kind = out.suffix.lower().lstrip(".")
    if kind not in FORMATS:
        raise DataError(f"{out}: the figure is written as {', '.join(FORMATS)}; give one of those suffixes")
    check_output_file(out)


def draw_curves(runs: list[RunCurves], out: Path | str) -> Path:
    """Draw the curves of `runs` (two rows: against step, against wall-clock minutes; one column per
    metric) and write the figure to `out` atomically; returns `out`."""
    out = Path(out)
    check_figure_path(out)
    plt = _require_matplotlib()
    figure, axes = plt.subplots(2, len(CURVES), figsize=(4.2 * len(CURVES), 6.4), squeeze=False)
    for column, (key, label) in enumerate(CURVES):
        for row, (axis_key, axis_label) in enumerate(
            (("step", "step"), ("wall_seconds", "wall-clock minutes"))
        ):
            ax = axes[row][column]
            for run in runs:
                points = [
                    (m[axis_key] / (60.0 if axis_key == "wall_seconds" else 1.0), m[key])
                    for m in run.lines
                    if m.get(key) is not None and m.get(axis_key) is not None
                ]
                if points:
                    xs, ys = zip(*points, strict=True)
                    # evaluations are sparse points; the other two are logged every few steps
                    ax.plot(xs, ys, marker="." if key == "dev_accuracy" else None, label=run.label)
            ax.set_xlabel(axis_label)
            ax.set_ylabel(label)
            ax.set_ylim(-0.03, 1.03)  # all three are fractions: runs and panels compare on one scale
            ax.grid(True, alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if not handles:
        for ax in axes.flat:
            handles, labels = ax.get_legend_handles_labels()
            if handles:
                break
    if handles:
        figure.legend(handles, labels, loc="upper center", ncol=min(len(labels), 4), frameon=False)
    figure.tight_layout(rect=(0, 0, 1, 0.93))
    buffer = io.BytesIO()
    figure.savefig(buffer, format=out.suffix.lower().lstrip("."), dpi=100)
    plt.close(figure)
    atomic_write_bytes(out, buffer.getvalue())
    return out
