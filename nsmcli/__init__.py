"""nsm: Neural Symbolic Machines with MAPO for weakly supervised semantic parsing over tables."""

__version__ = "0.1.0"
