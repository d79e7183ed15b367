"""The Karel world of LEAPS (Trivedi et al. 2021): grid, DSL, interpreter, the six tasks, program search.

The specification is ../shared/reference/karel.md; each module cites the section it implements.
"""
