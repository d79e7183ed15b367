"""The pandas recomputations of `examples/real/questions-round25.tsv`, one module per writer."""

from . import (
    carshare_yoga_rescue,
    fishery_cowork_admissions,
    orchard_parking_cohorts,
    taproom_tennis_planning,
)

WRITERS = (
    taproom_tennis_planning,
    orchard_parking_cohorts,
    carshare_yoga_rescue,
    fishery_cowork_admissions,
)
