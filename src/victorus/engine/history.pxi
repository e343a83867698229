# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# The undo history: an immutable, shared node per action holding the state words
# it changed.

# -- the undo history -----------------------------------------------------------------
# Each action played leaves an immutable node holding the action's code and the 8-byte
# words of the state it changed, with their old values (typically 10-25 words). Nodes
# form a list from the newest action back to the history's start; copies of a game share
# it (reference counts), so a copy costs the same however long the history is.


cdef enum:
    MAX_STATE_WORDS = 512            # an upper bound of sizeof(StateC) / 8, checked below

cdef int STATE_WORDS = sizeof(StateC) // 8
if sizeof(StateC) % 8 or STATE_WORDS > MAX_STATE_WORDS:
    raise ImportError(f"the C state ({sizeof(StateC)} bytes) does not fit the undo records")


cdef inline uint64_t* node_old(UndoNode* node) noexcept nogil:
    return <uint64_t*>(<char*>node + sizeof(UndoNode))


cdef inline uint16_t* node_index(UndoNode* node) noexcept nogil:
    return <uint16_t*>(<char*>node + sizeof(UndoNode) + node.nwords * sizeof(uint64_t))


cdef UndoNode* make_node(const StateC* before, const StateC* after, int32_t code,
                         UndoNode* parent) noexcept nogil:
    """The undo record of one action (NULL when out of memory); takes a reference to
    ``parent``."""
    cdef const uint64_t* old = <const uint64_t*>before
    cdef const uint64_t* new = <const uint64_t*>after
    cdef uint16_t changed[MAX_STATE_WORDS]
    cdef int i, n = 0
    for i in range(STATE_WORDS):
        if old[i] != new[i]:
            changed[n] = i
            n += 1
    cdef UndoNode* node = <UndoNode*>malloc(sizeof(UndoNode) + n * (sizeof(uint64_t)
                                                                    + sizeof(uint16_t)))
    if node == NULL:
        return NULL
    node.parent = parent
    node.refs = 1
    node.depth = 1 + (parent.depth if parent != NULL else 0)
    node.code = code
    node.nwords = n
    cdef uint64_t* values = node_old(node)
    cdef uint16_t* index = node_index(node)
    for i in range(n):
        index[i] = changed[i]
        values[i] = old[changed[i]]
    if parent != NULL:
        parent.refs += 1
    return node


cdef inline void restore_node(StateC* s, UndoNode* node) noexcept nogil:
    """Put back the words the node's action changed."""
    cdef uint64_t* words = <uint64_t*>s
    cdef uint64_t* values = node_old(node)
    cdef uint16_t* index = node_index(node)
    cdef int i
    for i in range(node.nwords):
        words[index[i]] = values[i]


cdef inline void release(UndoNode* node) noexcept nogil:
    """Drop one reference; free the nodes nobody refers to any more."""
    cdef UndoNode* parent
    while node != NULL:
        node.refs -= 1
        if node.refs:
            return
        parent = node.parent
        free(node)
        node = parent
