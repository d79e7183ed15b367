"""Training (MAPO and its variants), run directories and evaluation."""
