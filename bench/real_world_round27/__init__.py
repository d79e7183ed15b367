"""The pandas recomputations of `examples/real/questions-round27.tsv`, one module per writer."""

from . import (
    escaperoom_courthire_houseprices,
    phonerepairs_climbing_reservoirs,
    summercamp_kiln_broadband,
    windowclean_spa_energy,
)

WRITERS = (
    windowclean_spa_energy,
    escaperoom_courthire_houseprices,
    phonerepairs_climbing_reservoirs,
    summercamp_kiln_broadband,
)
