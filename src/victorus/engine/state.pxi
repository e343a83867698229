# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# The C state of one game (pieces, held pieces, the turn) and the record of
# per-configuration rules (RulesC) that every other part reads; small predicates on them.


cdef inline bint kind_in(int kind, int kinds) noexcept nogil:
    """Whether ``kind`` is in a kind mask (ROYAL_KINDS, PROMOTABLE_KINDS, ...)."""
    return (kinds >> kind) & 1


cdef inline bint is_royal_mover(const PieceC* p) noexcept nogil:
    """King, Queen or royal knight (R17, R21, R23)."""
    return kind_in(info_kind(p.info), ROYAL_KINDS) or info_royal(p.info)


cdef inline uint8_t color_bit(int color) noexcept nogil:
    return 1 << color
