"""Wall-clock time of `nsm preprocess` on the whole WTQ release and on WikiSQL train+dev.

Targets (issue 2): WTQ <= 3 minutes, WikiSQL train+dev <= 10 minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import DATA, ROOT, header, write_result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--datasets", nargs="+", default=["wtq", "wikisql"])
    args = parser.parse_args()
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for dataset in args.datasets:
            command = [sys.executable, "-m", "nsmcli", "preprocess", dataset]
            command += ["--data-dir", str(DATA / dataset), "--out", str(Path(tmp) / dataset), "--quiet"]
            start = time.perf_counter()
            proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
            seconds = time.perf_counter() - start
            lines.append(f"- `nsm preprocess {dataset}`: {seconds:.1f} s wall clock")
            lines += [f"  - {line.strip()}" for line in proc.stdout.strip().splitlines()[1:]]
    text = header("Preprocessing time", "python bench/preprocess_time.py " + " ".join(sys.argv[1:]))
    text += "\n".join(lines) + "\n"
    print(text)
    write_result("preprocess", text)


if __name__ == "__main__":
    main()
