"""The pandas recomputations of `examples/real/questions-round12.tsv`, one module per writer."""

from . import (
    dairy_pharmacy_election,
    grooming_bus_running,
    regatta_solar_books,
    saas_talks_hotel,
)

WRITERS = (
    grooming_bus_running,
    dairy_pharmacy_election,
    saas_talks_hotel,
    regatta_solar_books,
)
