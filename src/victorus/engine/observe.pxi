# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# The observation planes written for learning (victorus.tensors, victorus.vector); the
# planes, their scales and the action-id layout are constants.py's (PLANES, PLANE_SCALES,
# action_id in the generated include).

# -- learning tensors (victorus.tensors) ----------------------------------------------


ctypedef fused obs_t:
    float
    uint8_t


cdef inline obs_t encode(obs_t* kind, double count, double divisor) noexcept nogil:
    """float32 planes hold ``count / divisor``; uint8 planes the count, saturated."""
    if obs_t is float:
        return <float>(count / divisor)
    else:
        return <uint8_t>(0 if count < 0 else 255 if count > 255 else count)


cdef inline void fill_plane(obs_t* out, int plane, int n, obs_t value) noexcept nogil:
    cdef int j
    cdef obs_t* row = out + plane * n
    if obs_t is uint8_t:
        memset(row, value, n)
        return
    for j in range(n):
        row[j] = value


cdef void write_observation(const StateC* s, const RulesC* r, int seat,
                            obs_t* out) noexcept nogil:
    """The planes of constants.PLANES seen by ``seat`` into ``out`` [NUM_PLANES, N]
    (float32: the same numbers as victorus.tensors.observation_reference)."""
    cdef int n = r.t.ncells, c, j, k, a, rel
    cdef const PieceC* p
    cdef const uint8_t* col = r.view[seat]
    cdef int held[NUM_SEATS]
    # The planes from phase_start on are whole-board values, each written once below.
    memset(out, 0, PLANE_PHASE_START * n * sizeof(obs_t))
    for c in range(n):
        j = col[c]
        out[(PLANE_CELL_WHITE + r.t.color[c]) * n + j] = 1
        k = r.t.kingdom[c]
        if k != NO_KINGDOM and s.army_state[k] != ARMY_ELIMINATED:
            out[(PLANE_KINGDOM0 + (k - seat + NUM_SEATS) % NUM_SEATS) * n + j] = 1
        if bb_has(&s.frozen, c):
            out[PLANE_FROZEN * n + j] = 1
        p = &s.cells[c]
        if p.army < 0:
            continue
        rel = (p.army - seat + NUM_SEATS) % NUM_SEATS
        out[(PLANE_ARMY0_T + rel * NUM_KINDS + info_kind(p.info)) * n + j] = 1
        if kind_in(info_kind(p.info), ROYAL_KINDS):
            out[PLANE_LAPS * n + j] = encode(out, piece_laps(s, p), 1.0)
        else:
            out[PLANE_BLACK_EDGED * n + j] = info_edge(p.info) == COLOR_GREY
            out[PLANE_ROYAL * n + j] = info_royal(p.info)
            out[PLANE_TALLY * n + j] = p.tally
    if s.turn.self_cell >= 0:
        out[PLANE_SELF_ELIGIBLE * n + col[s.turn.self_cell]] = 1
    if s.turn.mover >= 0:
        out[PLANE_MOVING * n + col[s.turn.mover]] = 1
    for k in range(PLANE_TO_MOVE0 - PLANE_PHASE_START):
        fill_plane(out, PLANE_PHASE_START + k, n, k == s.turn.phase)
    for rel in range(NUM_SEATS):
        fill_plane(out, PLANE_TO_MOVE0 + rel, n, rel == (s.turn.to_move - seat + NUM_SEATS) % NUM_SEATS)
    for a in range(NUM_SEATS):
        held[a] = 0
    for k in range(s.nheld):
        held[s.held[k].holder] += 1
    for a in range(NUM_SEATS):
        rel = (a - seat + NUM_SEATS) % NUM_SEATS
        fill_plane(out, PLANE_KNIGHT_CAPTURES0 + rel, n,
                   encode(out, min(s.knight_caps[a], KNIGHT_CAPTURES_SEEN), SCALE_KNIGHT_CAPTURES))
        fill_plane(out, PLANE_HELD0 + rel, n, encode(out, held[a], SCALE_HELD))
        fill_plane(out, PLANE_ACTIVE0 + rel, n, s.army_state[a] == ARMY_ACTIVE)
    fill_plane(out, PLANE_ROUND, n, encode(out, s.turn.round, SCALE_ROUND))
    fill_plane(out, PLANE_PASSES, n, encode(out, s.turn.passes, 1.0))
    fill_plane(out, PLANE_PENDING, n, encode(out, s.turn.pending, 1.0))


cdef void observation_float32(const StateC* s, const RulesC* r, int seat, float* out) noexcept nogil:
    write_observation(s, r, seat, out)


cdef void observation_uint8(const StateC* s, const RulesC* r, int seat, uint8_t* out) noexcept nogil:
    write_observation(s, r, seat, out)
