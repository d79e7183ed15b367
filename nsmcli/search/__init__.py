"""Program search: systematic exploration of consistent programs (`nsm explore`)."""

from nsmcli.search.explore import (
    DEFAULT_MAX_EVALUATIONS,
    DEFAULT_MAX_PROGRAMS,
    AnswerChecker,
    ExploreResult,
    ExploreSettings,
    ExploreStats,
    WikisqlChecker,
    WtqChecker,
    allowed_functions,
    check_program,
    checker_for,
    explore,
    explore_example,
    program_score,
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
    "checker_for",
    "explore",
    "explore_example",
    "program_score",
    "run_exploration",
]
