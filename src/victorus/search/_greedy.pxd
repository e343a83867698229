# cython: language_level=3
# The greedy agent in C (victorus.search._greedy) as an opponent inside the vector games'
# step. Its ChooseFn is the module's own: nothing cimports it.

from victorus.search._policy cimport Opponent

cdef class GreedyOpponent(Opponent):
    pass
