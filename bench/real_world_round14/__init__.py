"""The pandas recomputations of `examples/real/questions-round14.tsv`, one module per writer."""

from . import (
    baggage_rent_training,
    choir_foodbank_telecom,
    market_plans_election,
    walker_bikeshop_pool,
)

WRITERS = (
    walker_bikeshop_pool,
    choir_foodbank_telecom,
    baggage_rent_training,
    market_plans_election,
)
