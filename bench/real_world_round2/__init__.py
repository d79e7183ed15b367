"""The pandas recomputations of `examples/real/questions-round2.tsv`, one module per writer."""
