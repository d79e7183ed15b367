"""The pandas recomputations of `examples/real/questions-round7.tsv`, one module per writer."""

from . import (
    garden_netball_staff,
    grades_members_returns,
    portfolio_lager_coaches,
    weather_health_travel,
)

WRITERS = (
    garden_netball_staff,
    grades_members_returns,
    portfolio_lager_coaches,
    weather_health_travel,
)
