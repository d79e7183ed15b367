"""The pandas recomputations of `examples/real/questions-round28.tsv`, one module per writer."""

from . import (
    cakes_removals_bikelanes,
    carwash_barstock_rail,
    prints_astronomy_tuition,
    tattoo_vineyard_coffee,
)

WRITERS = (
    tattoo_vineyard_coffee,
    carwash_barstock_rail,
    prints_astronomy_tuition,
    cakes_removals_bikelanes,
)
