"""The pandas recomputations of `examples/real/questions-round8.tsv`, one module per writer."""

from . import (
    bakery_rugby_library,
    crypto_rechnungen_ferries,
    exams_subscribers_repairs,
    weather_education_invoices,
)

WRITERS = (
    bakery_rugby_library,
    weather_education_invoices,
    crypto_rechnungen_ferries,
    exams_subscribers_repairs,
)
