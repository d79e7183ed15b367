"""The pandas recomputations of `examples/real/questions-round22.tsv`, one module per writer."""

from . import (
    choirs_fleet_fuel_bakesale,
    greenhouse_loans_tournament,
    printshop_migration_ebikes,
    taxis_beekeeping_concerts,
)

WRITERS = (
    taxis_beekeeping_concerts,
    greenhouse_loans_tournament,
    printshop_migration_ebikes,
    choirs_fleet_fuel_bakesale,
)
