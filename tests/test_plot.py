"""`nsm plot`: training curves from run directories' metrics.jsonl."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from nsmcli.cli.main import main
from nsmcli.plot import CURVES, read_runs


def fake_run(path: Path, n: int = 6) -> Path:
    """A run directory with the metrics lines `nsm train` logs (evaluations every other line)."""
    path.mkdir(parents=True)
    lines = [
        {
            "step": 10 * i,
            "train_reward": i / n,
            "buffer_coverage": 0.5 + i / (2 * n),
            "wall_seconds": 30.0 * i,
            **({"dev_accuracy": i / (2 * n)} if i % 2 == 0 else {}),
        }
        for i in range(1, n + 1)
    ]
    (path / "metrics.jsonl").write_text("".join(json.dumps(m) + "\n" for m in lines), encoding="utf-8")
    return path


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out, captured.err


def test_plot_writes_a_png_with_one_line_per_run(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    a, b = fake_run(tmp_path / "runs" / "a"), fake_run(tmp_path / "runs" / "b", n=3)
    out = tmp_path / "figs" / "curves.png"
    code, stdout, err = run(capsys, "plot", str(a), str(b), "--out", str(out), "--json")
    assert code == 0, err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads(stdout)["runs"] == [{"label": "a", "lines": 6}, {"label": "b", "lines": 3}]


def test_plot_draws_every_metric_against_step_and_time(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import matplotlib.figure

    drawn: list = []
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", lambda self, *a, **k: drawn.append(self))
    from nsmcli.plot import draw_curves

    draw_curves(read_runs([fake_run(tmp_path / "a"), fake_run(tmp_path / "b")]), tmp_path / "c.svg")
    axes = drawn[0].axes
    assert len(axes) == 2 * len(CURVES)
    assert {ax.get_ylabel() for ax in axes} == {label for _, label in CURVES}
    assert {ax.get_xlabel() for ax in axes} == {"step", "wall-clock minutes"}
    assert all(len(ax.get_lines()) == 2 for ax in axes)  # one line per run in every panel
    dev = next(ax for ax in axes if ax.get_ylabel() == "dev accuracy" and ax.get_xlabel() == "step")
    assert list(dev.get_lines()[0].get_xdata()) == [20, 40, 60]  # only the evaluated steps


def test_plot_without_matplotlib_says_how_to_install_it(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if it were not installed
    code, _, err = run(capsys, "plot", str(fake_run(tmp_path / "a")), "--out", str(tmp_path / "c.png"))
    assert code == 2 and err.strip().count("\n") == 0
    assert "pip install 'nsmcli[plot]'" in err and not (tmp_path / "c.png").exists()


@pytest.mark.parametrize(
    ("make", "out", "fragment"),
    [
        (lambda p: p, "c.png", "no such run directory"),
        (lambda p: (p.mkdir(), p)[1], "c.png", "no metrics.jsonl lines"),
        (fake_run, "c.jpg", "png, svg, pdf"),
    ],
    ids=["missing", "not-a-run", "bad-suffix"],
)
def test_plot_bad_input_is_one_line(capsys, tmp_path, make, out, fragment):
    code, _, err = run(capsys, "plot", str(make(tmp_path / "r")), "--out", str(tmp_path / out))
    assert code == 2 and len(err.strip().splitlines()) == 1 and fragment in err
