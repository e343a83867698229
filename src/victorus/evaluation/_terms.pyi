"""Types of the compiled shared terms (src/victorus/evaluation/_terms.pyx).
tests/test_reference.py holds it to the compiled module."""

#: An unfinished position's value stays within (-VALUE_BOUND, VALUE_BOUND).
VALUE_BOUND_VALUE: float
