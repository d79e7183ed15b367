"""The pandas recomputations of `examples/real/questions-round18.tsv`, one module per writer."""

from . import (
    claims_trips_tasting,
    footfall_picks_releases,
    loyalty_freezer_festival,
    marina_rides_unemployment,
)

WRITERS = (
    loyalty_freezer_festival,
    marina_rides_unemployment,
    claims_trips_tasting,
    footfall_picks_releases,
)
