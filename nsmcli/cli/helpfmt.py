"""Help text as click has always written it, on typer versions that write it otherwise, wrapped between
words only.

Typer 0.24 and later show a required argument as `{NAME}` in the usage line (braces usually mean a
choice) and label each parameter with its Python type (`<list[Path]>`, `<int range>`). nsm keeps the
labels, in the words a user reads: a list of paths is `<path>...`, a ranged int an `<int>` (the range is
in the help). On a typer without these methods nothing changes.

Click's wrapper also breaks words at their hyphens (`random-` / `split-1-train`, `hard-` / `em`), which
turns split names and flag values into text a user cannot copy; nsm's help wraps between words only.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

import typer.core

#: Type labels as typer writes them -> as nsm shows them.
_LABEL = re.compile(r"<list\[(\w+)\]>|<(\w+) range>")


def _readable(label: str | None) -> str | None:
    if not label:
        return label
    return _LABEL.sub(lambda m: f"<{m[1].lower()}>..." if m[1] else f"<{m[2]}>", label)


def _wrap_between_words() -> None:
    """Make the text wrapper of click (typer's own copy, and click itself) keep hyphenated words whole."""
    for name in ("typer._click._textwrap", "click._textwrap"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        wrapper = getattr(module, "TextWrapper", None)
        if wrapper is None or getattr(wrapper, "_nsm", False):
            continue

        class WholeWords(wrapper):  # type: ignore[misc, valid-type]
            _nsm = True

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                kwargs["break_on_hyphens"] = False
                super().__init__(*args, **kwargs)

        module.TextWrapper = WholeWords


def install() -> None:
    """Patch typer's parameter classes and click's text wrapper in place (idempotent)."""
    _wrap_between_words()
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
