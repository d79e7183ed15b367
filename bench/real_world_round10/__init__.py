"""The pandas recomputations of `examples/real/questions-round10.tsv`, one module per writer."""

from . import (
    energie_bikeshare_hotel,
    invoices_football_teachers,
    labour_orchard_basketball,
    meter_fx_donations,
)

WRITERS = (
    invoices_football_teachers,
    labour_orchard_basketball,
    energie_bikeshare_hotel,
    meter_fx_donations,
)
