"""The pandas recomputations of `examples/real/questions-round19.tsv`, one module per writer."""

from . import (
    allotments_parcels_tutoring,
    medals_invoices_streams,
    orchestra_suppliers_returns,
    wards_fleet_bookclub,
)

WRITERS = (
    allotments_parcels_tutoring,
    orchestra_suppliers_returns,
    wards_fleet_bookclub,
    medals_invoices_streams,
)
