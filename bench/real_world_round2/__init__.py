"""The pandas recomputations of `examples/real/questions-round2.tsv`, one module per writer."""

from . import branches_catalog_deliveries, football_weather_bikes, indicators_budget_funds, orders_roster_gym

WRITERS = (orders_roster_gym, football_weather_bikes, indicators_budget_funds, branches_catalog_deliveries)
