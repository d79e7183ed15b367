"""The pandas recomputations of `examples/real/questions-round9.tsv`, one module per writer."""

from . import (
    farm_cycling_dental,
    gym_portfolio_tickets,
    health_river_hockey,
    ventas_rentals_ledger,
)

WRITERS = (
    farm_cycling_dental,
    health_river_hockey,
    ventas_rentals_ledger,
    gym_portfolio_tickets,
)
