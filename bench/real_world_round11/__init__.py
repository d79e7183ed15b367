"""The pandas recomputations of `examples/real/questions-round11.tsv`, one module per writer."""

from . import (
    bakery_tennis_volunteers,
    lager_car_museum,
    payroll_flights_returns,
    trade_snow_cricket,
)

WRITERS = (
    bakery_tennis_volunteers,
    trade_snow_cricket,
    lager_car_museum,
    payroll_flights_returns,
)
