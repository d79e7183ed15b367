"""Program search: systematic exploration of consistent programs (`nsm explore`).

`explore` searches one question (`nsmcli.worlds.tables.search.explore`), `run_exploration` a whole split
(`nsmcli.worlds.tables.search.runner`); the answer checkers come from `nsmcli.worlds.tables.data.checkers`.
"""

from nsmcli.worlds.tables.data.checkers import AnswerChecker, WikisqlChecker, WtqChecker
from nsmcli.worlds.tables.search.explore import (
    DEFAULT_MAX_PROGRAMS,
    ExploreResult,
    ExploreStats,
    allowed_functions,
    check_program,
    explore,
    program_score,
)
from nsmcli.worlds.tables.search.runner import (
    DEFAULT_MAX_EVALUATIONS,
    ExploreSettings,
    explore_example,
    run_exploration,
)

__all__ = [
    "DEFAULT_MAX_EVALUATIONS",
    "DEFAULT_MAX_PROGRAMS",
    "AnswerChecker",
    "ExploreResult",
    "ExploreSettings",
    "ExploreStats",
    "WikisqlChecker",
    "WtqChecker",
    "allowed_functions",
    "check_program",
    "explore",
    "explore_example",
    "program_score",
    "run_exploration",
]
