"""The pandas recomputations of `examples/real/questions-round26.tsv`, one module per writer."""

from . import (
    foodtruck_youthclub_ae,
    labkit_bikecounts_repairs,
    photo_cycling_fxcard,
    skischool_inflation_boardgames,
)

WRITERS = (
    foodtruck_youthclub_ae,
    photo_cycling_fxcard,
    labkit_bikecounts_repairs,
    skischool_inflation_boardgames,
)
