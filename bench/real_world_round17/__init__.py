"""The pandas recomputations of `examples/real/questions-round17.tsv`, one module per writer."""

from . import (
    courses_gym_turnout,
    repairs_darts_fx,
    shipments_ringing_pnl,
    vet_sportsday_podcast,
)

WRITERS = (
    vet_sportsday_podcast,
    shipments_ringing_pnl,
    repairs_darts_fx,
    courses_gym_turnout,
)
