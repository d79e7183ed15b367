"""The pandas recomputations of `examples/real/questions-round4.tsv`, one module per writer."""

from . import bills_cricket_jobs, car_pipeline_earthquakes, recipes_attendance_arrivals, rentals_ski_traffic

WRITERS = (bills_cricket_jobs, car_pipeline_earthquakes, recipes_attendance_arrivals, rentals_ski_traffic)
