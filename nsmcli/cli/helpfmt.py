"""Help text as click has always written it, on typer versions that write it otherwise.

Typer 0.24 and later show a required argument as `{NAME}` in the usage line (braces usually mean a
choice) and label each parameter with its Python type (`<list[Path]>`, `<int range>`). nsm keeps the
labels, in the words a user reads: a list of paths is `<path>...`, a ranged int an `<int>` (the range is
in the help). On a typer without these methods nothing changes.
"""

from __future__ import annotations

import re
from typing import Any

import typer.core

#: Type labels as typer writes them -> as nsm shows them.
_LABEL = re.compile(r"<list\[(\w+)\]>|<(\w+) range>")


def _readable(label: str | None) -> str | None:
    if not label:
        return label
    return _LABEL.sub(lambda m: f"<{m[1].lower()}>..." if m[1] else f"<{m[2]}>", label)


def install() -> None:
    """Patch typer's parameter classes in place (idempotent)."""
    for cls in (typer.core.TyperArgument, typer.core.TyperOption):
        for name in ("display_type", "display_type_rich"):
            original = getattr(cls, name, None)
            if original is None or getattr(original, "_nsm", False):
                continue

            def readable(self: Any, ctx: Any, _original: Any = original) -> str | None:
                return _readable(_original(self, ctx))

            readable._nsm = True  # type: ignore[attr-defined]
            setattr(cls, name, readable)
    usage = typer.core.TyperArgument.__dict__.get("_usage_display_name")
    if usage is not None and not getattr(usage, "_nsm", False):

        def usage_name(self: Any) -> str:
            name = self.display_name_raw
            if not self.required:
                name = f"[{name}]"
            return name + ("..." if self.nargs != 1 else "")

        usage_name._nsm = True  # type: ignore[attr-defined]
        typer.core.TyperArgument._usage_display_name = usage_name
