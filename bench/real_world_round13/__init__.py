"""The pandas recomputations of `examples/real/questions-round13.tsv`, one module per writer."""

from . import (
    parking_wine_budget,
    podcast_garden_chess,
    swim_maintenance_tourism,
    vet_brewery_translator,
)

WRITERS = (
    vet_brewery_translator,
    podcast_garden_chess,
    parking_wine_budget,
    swim_maintenance_tourism,
)
