"""The pandas recomputations of `examples/real/questions-round21.tsv`, one module per writer."""

from . import (
    hotelrates_bugs_driving,
    pubquiz_eggs_potholes,
    radio_kitchen_boathire,
    trees_solarquotes_tides,
)

WRITERS = (
    pubquiz_eggs_potholes,
    hotelrates_bugs_driving,
    radio_kitchen_boathire,
    trees_solarquotes_tides,
)
