"""The pandas recomputations of `examples/real/questions-round5.tsv`, one module per writer."""

from . import (
    hardware_basketball_clinic,
    marathon_warehouse_quarterly,
    meters_universities_buses,
    weather_education_rates,
)

WRITERS = (
    hardware_basketball_clinic,
    marathon_warehouse_quarterly,
    meters_universities_buses,
    weather_education_rates,
)
