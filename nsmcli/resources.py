"""Where nsm finds what it ships and where its own code lives.

The grammars and the bundled models are package data (`nsmcli/grammars`, `nsmcli/bundled`), found through
`importlib.resources`, so an installed wheel, an editable install and a source checkout on PYTHONPATH read
them the same way. In the repository the two package directories are symlinks to the top-level `grammars/`
and `examples/models/`, which stay the sources; a wheel or sdist carries real copies (setup.cfg
package_data).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from nsmcli.errors import NsmError


def _package_path(name: str) -> Path:
    resource = files("nsmcli") / name
    # pip installs packages unpacked, so this is a real path; torch.load and RunDir need one (a zip import
    # would give another Traversable)
    if not isinstance(resource, Path):
        raise NsmError(
            f"nsm must be installed as plain files to read its {name}; it was loaded from {resource}"
        )
    return resource


#: One `<language>.toml` per program language.
GRAMMAR_DIR = _package_path("grammars")
#: One run directory per bundled model (`--model wtq`, `--model wikisql`); `make models` rebuilds them.
MODELS_DIR = _package_path("bundled")


def source_checkout() -> Path | None:
    """The git checkout nsm is imported from, or None when it runs from an installed package."""
    root = Path(__file__).resolve().parents[1]
    # a wheel installed into a venv inside some checkout must not report that checkout's commit
    return root if (root / ".git").exists() else None
