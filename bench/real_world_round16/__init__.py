"""The pandas recomputations of `examples/real/questions-round16.tsv`, one module per writer."""

from . import (
    letting_shares_exams,
    library_restaurant_hiking,
    meters_brigade_education,
    webshop_timetrial_hives,
)

WRITERS = (
    library_restaurant_hiking,
    letting_shares_exams,
    meters_brigade_education,
    webshop_timetrial_hives,
)
