"""The pandas recomputations of `examples/real/questions-round6.tsv`, one module per writer."""

from . import (
    bakery_rugby_volunteers,
    payroll_sensors_esports,
    property_energy_library,
    rainfall_air_gdp,
)

WRITERS = (
    bakery_rugby_volunteers,
    payroll_sensors_esports,
    property_energy_library,
    rainfall_air_gdp,
)
