"""The pandas recomputations of `examples/real/questions-round15.tsv`, one module per writer."""

from . import (
    airline_fundraiser_energy,
    allotment_league_clinic,
    freelance_ae_cinema,
    theatre_nursery_fuel,
)

WRITERS = (
    theatre_nursery_fuel,
    freelance_ae_cinema,
    airline_fundraiser_energy,
    allotment_league_clinic,
)
