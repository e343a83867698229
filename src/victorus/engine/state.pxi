# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# The C state of one game (pieces, held pieces, the turn) and the record of
# per-configuration rules (RulesC) that every other part reads; small predicates on them.

ctypedef struct PieceC:
    int8_t army            # -1: empty cell
    uint8_t kind
    uint8_t edge           # 0 white, 1 grey, NO_EDGE for King and Queen
    uint8_t royal
    uint8_t tally          # R25 (at most 2 per capture, promoted at the turn's end)
    int32_t laps           # R29

ctypedef struct HeldC:
    uint8_t holder         # the army holding the piece
    uint8_t army
    uint8_t kind
    uint8_t edge
    uint8_t royal

ctypedef struct StateC:
    PieceC cells[MAX_CELLS]
    BB occ[NUM_SEATS]
    BB total
    BB frozen                        # R24
    HeldC held[MAX_HELD]             # every held piece, in capture order
    int32_t nheld
    uint8_t army_state[NUM_SEATS]
    int32_t knight_caps[NUM_SEATS]   # R19
    uint8_t live                     # R8 live kingdoms
    int32_t to_move
    int32_t round
    int32_t passes                   # R26
    int32_t phase
    int32_t mover
    int32_t move_start
    int32_t legs
    int32_t captures
    int32_t last_capture
    int32_t self_cell                # R23, R37(b)
    int32_t self_color
    int32_t nocap                    # R37(c)
    int32_t pending                  # R22, R37(b)
    int32_t result
    uint8_t winners                  # seat mask
    int32_t captured[NUM_KINDS]      # captures per captured piece type (statistics)

ctypedef struct RulesC:
    const Tables* t
    uint16_t dirs[NUM_SEATS][NUM_KINDS]   # R11 direction masks
    int16_t home[NUM_SEATS][2]       # R27 King, Queen
    int16_t q[MAX_CELLS]
    int16_t r[MAX_CELLS]
    double theta[MAX_CELLS]          # R29
    double base[NUM_SEATS][2][MAX_CELLS]
    uint8_t team[NUM_SEATS]
    uint8_t order[NUM_SEATS]
    int32_t norder
    uint8_t present                  # seat mask
    int32_t quick                    # round limit, 0: not the quick game
    uint8_t view[NUM_SEATS][MAX_CELLS]   # the column of each cell in a seat's observation


cdef inline bint kind_in(int kind, int kinds) noexcept nogil:
    """Whether ``kind`` is in a kind mask (ROYAL_KINDS, PROMOTABLE_KINDS, ...)."""
    return (kinds >> kind) & 1


cdef inline bint is_royal_mover(const PieceC* p) noexcept nogil:
    """King, Queen or royal knight (R17, R21, R23)."""
    return kind_in(p.kind, ROYAL_KINDS) or p.royal


cdef inline uint8_t color_bit(int color) noexcept nogil:
    return 1 << color
