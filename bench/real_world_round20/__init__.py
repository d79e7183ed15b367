"""The pandas recomputations of `examples/real/questions-round20.tsv`, one module per writer."""

from . import (
    carpark_bikeshop_recycling,
    dogshow_bills_bowling,
    rainfall_craftfair_leaks,
    telescopes_opera_bureau,
)

WRITERS = (
    carpark_bikeshop_recycling,
    dogshow_bills_bowling,
    rainfall_craftfair_leaks,
    telescopes_opera_bureau,
)
