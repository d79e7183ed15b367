"""The pandas recomputations of `examples/real/questions-round23.tsv`, one module per writer."""

from . import (
    cinema_meter_volunteers,
    cottage_reading_airquality,
    exports_clinic_esports,
    pharmacy_marathon_grants,
)

WRITERS = (
    pharmacy_marathon_grants,
    cinema_meter_volunteers,
    exports_clinic_esports,
    cottage_reading_airquality,
)
