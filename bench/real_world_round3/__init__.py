"""The pandas recomputations of `examples/real/questions-round3.tsv`, one module per writer."""

from . import gdp_members_movies, invoices_volunteers_hockey, portfolio_grades_flights, weather_sales_cafe

WRITERS = (invoices_volunteers_hockey, weather_sales_cafe, gdp_members_movies, portfolio_grades_flights)
