"""The pandas recomputations of `examples/real/questions-round24.tsv`, one module per writer."""

from . import (
    clinic_bakeoff_freight,
    garage_rowing_auction,
    nursery_league_prices,
    tenancy_football_energy,
)

WRITERS = (
    garage_rowing_auction,
    tenancy_football_energy,
    clinic_bakeoff_freight,
    nursery_league_prices,
)
