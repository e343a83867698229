# cython: language_level=3
# What the engine (victorus._engine) shares with the modules built on it, victorus._vector
# and victorus.search._mcts: the C state and rules records, the Engine class, a call's StopToken
# and the few C functions a client calls. Everything else stays inside the engine.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from victorus._core cimport (BB, Tables, BoardTables, TurnC, MAX_CELLS, NUM_SEATS, NUM_KINDS, MAX_HELD,
                             KING, QUEEN)

cdef enum:
    MAX_ACTIONS = 2304         # 12 pieces x 192 targets bounds any position
    MAX_ACTION_WORDS = 36      # 64-bit words of a bit per action

# Atomics (declared in _portable.pxd, with the rest of portable.h), for the engine's
# modules that cimport them from here.
from victorus._portable cimport (atomic_load, atomic_store, atomic_fetch_add, atomic_sub_fetch,
                                 load_u64, store_u64, SEQ_CST, RELAXED)

# A piece in 3 bytes: its army (-1: an empty cell), its info byte (kind, edge and royal
# status: make_info and the info_* readers below) and its R25 tally. A King's or Queen's
# laps (R29) are kept per army in StateC.laps: an army has one of each (R35).
ctypedef struct PieceC:
    int8_t army            # -1: empty cell
    uint8_t info           # kind | edge << 3 | royal << 5 (edge: 0 white, 1 grey, NO_EDGE)
    uint8_t tally          # R25 (at most 2 per capture, promoted at the turn's end)

ctypedef struct HeldC:
    uint8_t holder         # the army holding the piece
    int8_t army
    uint8_t info           # as PieceC.info

ctypedef struct StateC:
    # What every node reads first: the bitboards (three cache lines) and the turn.
    BB occ[NUM_SEATS]
    BB total
    BB frozen                        # R24
    TurnC turn                       # the turn in progress (constants.TURN_FIELDS)
    int32_t result
    int32_t nheld
    int32_t laps[NUM_SEATS][2]       # R29: the laps of each army's King [0] and Queen [1]
    int32_t knight_caps[NUM_SEATS]   # R19
    int32_t captured[NUM_KINDS]      # captures per captured piece type (statistics)
    uint8_t army_state[NUM_SEATS]
    uint8_t live                     # R8 live kingdoms
    uint8_t winners                  # seat mask
    # The pieces: 3 bytes a cell, 3 bytes a held piece.
    PieceC cells[MAX_CELLS]
    HeldC held[MAX_HELD]             # every held piece, in capture order


cdef inline uint8_t make_info(int kind, int edge, bint royal) noexcept nogil:
    """A piece's info byte: its kind, edge (NO_EDGE for King and Queen) and royal status."""
    return <uint8_t>(kind | (edge << 3) | (royal << 5))

cdef inline int info_kind(uint8_t info) noexcept nogil:
    return info & 7

cdef inline int info_edge(uint8_t info) noexcept nogil:
    return (info >> 3) & 3

cdef inline bint info_royal(uint8_t info) noexcept nogil:
    return (info >> 5) & 1

cdef inline int32_t piece_laps(const StateC* s, const PieceC* p) noexcept nogil:
    """R29: the laps of a King or Queen on the board; 0 for a knight."""
    cdef int kind = info_kind(p.info)
    if kind == KING or kind == QUEEN:
        return s.laps[p.army][kind == QUEEN]
    return 0

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
    uint8_t order_at[NUM_SEATS]      # a present seat's index in order
    int32_t norder
    uint8_t present                  # seat mask
    int32_t quick                    # round limit, 0: not the quick game
    uint8_t view[NUM_SEATS][MAX_CELLS]   # the column of each cell in a seat's observation

ctypedef struct UndoNode:
    UndoNode* parent
    Py_ssize_t refs
    Py_ssize_t depth                 # actions from the history's start, this one included
    int32_t code                     # the action played
    int32_t nwords                   # changed words, then uint64 old[n], uint16 index[n]

cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef class StopToken:
    cdef int flag


cdef class Rules:
    cdef RulesC c
    cdef readonly BoardTables tables


cdef class Engine:
    cdef StateC s
    cdef readonly Rules rules
    cdef UndoNode* head              # the last action's undo record, NULL: no history
    cdef int32_t* legal              # the legal actions of ``s`` while legal_valid
    cdef int nlegal, legal_capacity
    cdef bint legal_valid
    cdef bint busy                   # a playout without history runs on a copy, GIL released
    cdef int _refresh(self) except -1
    cdef list _legal_objects(self, list table, object owner)
    cdef int _check_idle(self) except -1
    cdef int _play(self, int32_t code) except -1
    cdef bint _play_key(self, int key) except -1
    cdef int _play_known(self, object action, list table) except -2


# The C functions a client calls (defined in src/victorus/engine/*.pxi).
cdef const int* stop_flag(StopToken stop) noexcept
cdef int gen_actions(const StateC* s, const RulesC* r, int32_t* out) noexcept nogil
cdef void apply_action(StateC* s, const RulesC* r, int32_t code) noexcept nogil
cdef uint64_t position_key(const StateC* s, const RulesC* r, uint64_t salt) noexcept nogil
cdef void team_returns(const StateC* s, const RulesC* r, float* out) noexcept nogil
cdef void share_returns(const StateC* s, const RulesC* r, float* out) noexcept nogil
cdef void shared_among_live(const StateC* s, const RulesC* r, float* out) noexcept nogil
cdef void material_points(const StateC* s, const RulesC* r, int* board, int* held) noexcept nogil
cdef void observation_float32(const StateC* s, const RulesC* r, int seat, float* out) noexcept nogil
cdef void observation_uint8(const StateC* s, const RulesC* r, int seat, uint8_t* out) noexcept nogil
