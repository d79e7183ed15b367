"""The error tree. The CLI turns every NsmError into one line on stderr and exit code 2."""


class NsmError(Exception):
    """Base of every error a user can cause (bad input, missing file, corrupt checkpoint)."""


class DataError(NsmError):
    """A table, question file or dataset directory cannot be read."""


class GrammarError(NsmError):
    """A grammar file or a program text is malformed."""


class CheckpointError(NsmError):
    """A run directory or checkpoint is missing, corrupt or unsafe."""


def brief(exc: BaseException, limit: int = 100) -> str:
    """An exception's message for a one-line error: whitespace collapsed, cut at a word boundary."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " ..."


class ArgumentTypeError(NsmError, TypeError):
    """A Python caller passed an argument of the wrong type (a list or an int as the table)."""
