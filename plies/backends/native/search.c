/* The searches of every native module, after the game's rules (initial_state, outcome,
   evaluate, expand, chance_expand). They follow the Python solvers step for step, so that
   values, best moves and node counts agree: auto is plies/solvers/search.py (alpha-beta with
   the table's move, the killer move and terminal children first; chance nodes searched
   exactly), minimax is minimax.py, perft is perft.py counted depth-first. */

#define MAX_PV 256

static int to_move(const state_t *s)
{
#if HAS_CHANCE
    if (s->s[1]) return 0;
#endif
    return s->s[0] == 1 ? ROLE1 : ROLE2;
}

/* ---- per-ply buffers: the children, their search order, the principal variation ---- */

/* a state's key in the table, its hash, and whether it could be packed */
struct lookup { uint64_t key[KEY_WORDS]; uint64_t hash; int keyed; };

typedef struct {
    child_t *buf;
    int32_t *order;
    int32_t pv[MAX_PV], best_line[MAX_PV];
    int pv_len, best_len;
    int killer_known;
    int32_t killer_kind;
    int64_t killer_args[MAXARGS];
    struct lookup *keys;  /* the children's table keys, made before any child is searched */
} ply_t;

static ply_t *plies_[MAX_PLY];
static int32_t path[MAX_PLY];
static int path_ply;

static ply_t *ply_at(int ply)
{
    if (ply >= MAX_PLY) fault(F_DEEP, -1, ply, 0);
    if (!plies_[ply]) {
        ply_t *p = calloc(1, sizeof(ply_t));
        if (!p) fault(F_MEMORY, -1, 0, 0);
        p->buf = malloc(sizeof(child_t) * (size_t)MOVES);
        p->order = malloc(sizeof(int32_t) * (size_t)MOVES);
        p->keys = malloc(sizeof(struct lookup) * (size_t)MOVES);
        if (!p->buf || !p->order || !p->keys) {
            free(p->buf); free(p->order); free(p->keys); free(p); fault(F_MEMORY, -1, 0, 0);
        }
        plies_[ply] = p;
    }
    return plies_[ply];
}

static void free_plies(void)
{
    for (int i = 0; i < MAX_PLY && plies_[i]; i++) {
        free(plies_[i]->buf); free(plies_[i]->order); free(plies_[i]->keys); free(plies_[i]);
        plies_[i] = NULL;
    }
}

/* the line of a node: its best move, then the best line of that child */
static void set_line(ply_t *p, int best)
{
    p->pv[0] = best;
    int n = p->best_len < MAX_PV - 1 ? p->best_len : MAX_PV - 1;
    memcpy(p->pv + 1, p->best_line, sizeof(int32_t) * n);
    p->pv_len = n + 1;
}

static void take_line(ply_t *p, int ply)
{
    ply_t *child = plies_[ply + 1];
    p->best_len = child ? child->pv_len : 0;
    if (p->best_len) memcpy(p->best_line, child->pv, sizeof(int32_t) * p->best_len);
}

/* what a stopped search knows: the best child of the root searched so far */
static int partial_known, partial_best;
static value_t partial_value;

static void note_root(int ply, value_t v, int best)
{
    if (ply == 0 && best >= 0) { partial_known = 1; partial_value = v; partial_best = best; }
}

/* ---- the transposition table: bounds per state, keyed by the state's slots packed into
   KEY_WORDS words (pack_key, written for the game by the emitter). An entry is a few words:
   Connect Four's 37 slots make a 2-word key, its values -1..1 fit 8 bits: a 24-byte entry. */

#if VALUE_BITS == 8
typedef int8_t bound_t;  /* every value lies within the game's bounds, which fit 8 bits */
#elif VALUE_BITS == 32
typedef int32_t bound_t;  /* ... or 32 bits */
#else
typedef value_t bound_t;
#endif

typedef struct {
    uint64_t key[KEY_WORDS];
    uint32_t work;  /* saturates at 2^32 - 1: only compared, to forget cheap entries first */
#if MOVES < 32768
    int16_t best;
#else
    int32_t best;
#endif
    bound_t lower, upper;
} entry_t;

#define used_entry(e) ((e)->work != 0)  /* a stored entry counts its own node at least */

static entry_t *table;
static uint64_t table_slots, table_count, table_most_slots;
static int use_table;

static inline uint64_t key_hash(const uint64_t *key)
{
    uint64_t h = 0;
    for (int w = 0; w < KEY_WORDS; w++) h = (h ^ key[w]) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 30; h *= 0xbf58476d1ce4e5b9ULL;  /* splitmix64's finaliser: all bits mixed */
    h ^= h >> 27; h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

static inline int same_key(const uint64_t *a, const uint64_t *b)
{
    for (int w = 0; w < KEY_WORDS; w++) if (a[w] != b[w]) return 0;
    return 1;
}

static entry_t *find(const uint64_t *key, uint64_t hash)
{
    uint64_t mask = table_slots - 1;
    for (uint64_t i = hash & mask;; i = (i + 1) & mask) {
        entry_t *e = &table[i];
        if (!used_entry(e) || same_key(e->key, key)) return e;
    }
}

static void place(const entry_t *from)
{
    entry_t *e = find(from->key, key_hash(from->key));
    if (!used_entry(e)) table_count++;
    *e = *from;
}

/* The table's memory, zeroed, in huge pages where the system allows: a look-up lands anywhere
   in hundreds of megabytes, and 4 KB pages would cost a TLB miss on top of the cache miss. */
#ifdef _WIN32
static entry_t *table_alloc(uint64_t slots) { return calloc(slots, sizeof(entry_t)); }
static void table_free(entry_t *memory, uint64_t slots) { (void)slots; free(memory); }
#else
static entry_t *table_alloc(uint64_t slots)
{
    size_t bytes = (size_t)slots * sizeof(entry_t);
    void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= ((size_t)2 << 20)) madvise(memory, bytes, MADV_HUGEPAGE);
#endif
    return memory;
}

static void table_free(entry_t *memory, uint64_t slots)
{
    if (memory) munmap(memory, (size_t)slots * sizeof(entry_t));
}
#endif

static void resize(uint64_t slots)
{
    entry_t *old = table;
    uint64_t old_slots = table_slots;
    entry_t *fresh = table_alloc(slots);
    if (!fresh) fault(F_MEMORY, -1, 0, 0);
    table = fresh; table_slots = slots; table_count = 0;
    for (uint64_t i = 0; i < old_slots; i++)
        if (used_entry(&old[i])) place(&old[i]);
    table_free(old, old_slots);
}

/* A full table forgets the cheaper half: the entries whose subtrees took the least work. */
static void make_room(void)
{
    int64_t sample[1001];
    int n = 0;
    uint64_t stride = table_slots / 4096 + 1;
    for (uint64_t i = 0; i < table_slots && n < 1001; i += stride)
        if (used_entry(&table[i])) sample[n++] = table[i].work;
    int64_t median = 0;
    if (n) {
        for (int i = 1; i < n; i++) {  /* insertion sort of at most 1001 numbers */
            int64_t w = sample[i]; int j = i - 1;
            while (j >= 0 && sample[j] > w) { sample[j + 1] = sample[j]; j--; }
            sample[j + 1] = w;
        }
        median = sample[n / 2];
    }
    /* the survivors are set aside, the table cleared in place (its pages stay mapped) */
    uint64_t kept = 0;
    for (uint64_t i = 0; i < table_slots; i++)
        if (used_entry(&table[i]) && table[i].work > median) kept++;
    entry_t *survivors = malloc(sizeof(entry_t) * (kept ? kept : 1));
    if (!survivors) fault(F_MEMORY, -1, 0, 0);
    kept = 0;
    for (uint64_t i = 0; i < table_slots; i++)
        if (used_entry(&table[i]) && table[i].work > median) survivors[kept++] = table[i];
    memset(table, 0, sizeof(entry_t) * table_slots);
    table_count = 0;
    for (uint64_t i = 0; i < kept; i++) place(&survivors[i]);
    free(survivors);
}

/* what the table knows of a state, in the search's units */
typedef struct { value_t lower, upper; int best; int64_t work; } known_t;

static void store(const uint64_t *key, uint64_t hash, const known_t *old, int maximizing,
                  value_t v, value_t alpha, value_t beta, int best, int64_t work)
{
    value_t lower, upper;
    if (v <= alpha) { lower = low_value; upper = v; }
    else if (v >= beta) { lower = v; upper = high_value; }
    else { lower = upper = v; }
    if (old && old->lower <= upper && lower <= old->upper) {
        if (old->best >= 0 && (maximizing ? (v <= alpha || old->lower > lower)
                                          : (v >= beta || old->upper < upper)))
            best = old->best;
        if (old->lower > lower) lower = old->lower;
        if (old->upper < upper) upper = old->upper;
        work += old->work;
    }
    entry_t *e = find(key, hash);
    if (!used_entry(e)) {
        if ((table_count + 1) * 8 > table_slots * 5) {  /* at most 5/8 full: short probes */
            if (table_slots * 2 <= table_most_slots) resize(table_slots * 2);
            else make_room();
            e = find(key, hash);
        }
        table_count++;
    }
    e->lower = (bound_t)lower; e->upper = (bound_t)upper; e->best = best;
    e->work = work < 1 ? 1 : work > UINT32_MAX ? UINT32_MAX : (uint32_t)work;
    for (int w = 0; w < KEY_WORDS; w++) e->key[w] = key[w];
}

static int same_move(const child_t *c, const ply_t *p)
{
    if (!p->killer_known || c->kind != p->killer_kind) return 0;
    return memcmp(c->args, p->killer_args, sizeof(c->args)) == 0;
}

/* ---- auto: alpha-beta with a table; chance nodes searched exactly ---- */

static value_t value(const state_t *s, const struct lookup *at, value_t alpha, value_t beta,
                     int ply);

/* The state's key, and its entry's memory asked for: the keys of all the children of a node
   are made at once, so that their cache misses overlap instead of coming one by one. */
static void key_of(const state_t *s, struct lookup *k)
{
    k->keyed = use_table && pack_key(s, k->key);
    if (k->keyed) {
        k->hash = key_hash(k->key);
        __builtin_prefetch(&table[k->hash & (table_slots - 1)]);
    }
}

/* Star1 (expectiminimax without a table, on a game with bounds): chance nodes are settled as
   soon as the outcomes valued so far and the bounds of the rest put them outside the window */
static int star;

static inline value_t exact_mul(value_t a, value_t b)
{ value_t r; if (__builtin_mul_overflow(a, b, &r)) fault(F_INEXACT, -1, 0, 0); return r; }
static inline value_t exact_add(value_t a, value_t b)
{ value_t r; if (__builtin_add_overflow(a, b, &r)) fault(F_INEXACT, -1, 0, 0); return r; }
static inline value_t floor_div(value_t a, value_t b)  /* b > 0 */
{ value_t q = a / b; return (a % b != 0 && a < 0) ? q - 1 : q; }

/* CHANCE-VALUE, as chance_value in plies/solvers/search.py: sum(n_i * x_i) / D, whole
   numbers until the one division; a value that is not whole in the search's units cannot be
   kept exactly (F_INEXACT: Python runs instead). */
static value_t chance_value(const state_t *s, value_t alpha, value_t beta, int ply)
{
    ply_t *p = ply_at(ply);
    expansion_t x = {p->buf, 0, MODE_QUIET, 0, 0, 0, 0, -1};
    int64_t denominator = 1;
    chance_expand(s, &x, &denominator);
    int cuts = star && (alpha > low_value || beta < high_value);
    value_t d = denominator, total = 0, rest = denominator;
    value_t scaled_alpha = cuts ? exact_mul(d, alpha) : 0, scaled_beta = cuts ? exact_mul(d, beta) : 0;
    for (int i = 0; i < x.n; i++) {
        child_t *c = &p->buf[i];
        if (!c->weight) continue;
        count_node();
        rest -= c->weight;
        value_t v;
        if (c->terminal) {
            leaves++;
            v = scaled(c->utility);
        } else if (cuts) {  /* at most child_alpha fails low, at least child_beta high */
            value_t child_alpha = floor_div(scaled_alpha - total - exact_mul(rest, high_value),
                                            c->weight);
            value_t child_beta = -floor_div(total + exact_mul(rest, low_value) - scaled_beta,
                                            c->weight);
            path[ply] = i;
            v = value(&c->st, NULL, child_alpha > low_value ? child_alpha : low_value,
                      child_beta < high_value ? child_beta : high_value, ply + 1);
            path_ply = ply;
        } else {
            path[ply] = i;
            v = value(&c->st, NULL, low_value, high_value, ply + 1);
            path_ply = ply;
        }
        total = exact_add(total, exact_mul((value_t)c->weight, v));
        if (cuts) {
            value_t least = exact_add(total, exact_mul(rest, low_value));
            value_t most = exact_add(total, exact_mul(rest, high_value));
            if (least >= scaled_beta) {  /* worth at least beta: fail high */
                cutoffs++;
                value_t bound = floor_div(least, d);
                if (bound < beta) fault(F_INEXACT, -1, 0, 0);
                return bound;
            }
            if (most <= scaled_alpha) {  /* worth at most alpha: fail low */
                cutoffs++;
                value_t bound = -floor_div(-most, d);
                if (bound > alpha) fault(F_INEXACT, -1, 0, 0);
                return bound;
            }
        }
    }
    if (total % d) fault(F_INEXACT, -1, 0, 0);
    return total / d;
}

static value_t value(const state_t *s, const struct lookup *at, value_t alpha, value_t beta,
                     int ply)
{
    ply_t *p = ply_at(ply);
    path_ply = ply;
    int64_t visited = nodes;
    struct lookup own;
    if (!at) { key_of(s, &own); at = &own; }
    const uint64_t *key = at->key;
    uint64_t hash = at->hash;
    int keyed = at->keyed, best = -1;
    known_t old, *known = NULL;
    if (keyed) {
        entry_t *e = find(key, hash);
        if (used_entry(e)) {
            old.lower = e->lower; old.upper = e->upper; old.best = e->best; old.work = e->work;
            known = &old;
            if (old.lower >= beta || old.upper <= alpha || old.lower == old.upper) {
                hits++;
                p->pv_len = 0;
                return old.lower >= beta || old.lower == old.upper ? old.lower : old.upper;
            }
            if (old.lower > alpha) alpha = old.lower;  /* proved bounds narrow the window */
            if (old.upper < beta) beta = old.upper;
            best = old.best;
        }
    }
    int player = to_move(s);
    if (player == 0) {
        value_t v = chance_value(s, alpha, beta, ply);
        if (keyed) store(key, hash, known, 0, v, alpha, beta, -1, nodes - visited);
        p->pv_len = 0;  /* the principal variation stops before a chance node */
        return v;
    }
    int maximizing = player == 1;
    /* TERMINAL-TEST of every child first: the best of them bounds the node at once */
    expansion_t x = {p->buf, 0, MODE_CUT, maximizing, maximizing ? -VALUE_INF - 1 : VALUE_INF + 1,
                     alpha, beta, -1};
    expand(s, &x);
    if (x.n == 0) fault(F_NO_MOVES, -1, 0, 0);
    value_t v = x.v;
    int best_index = x.best;
    p->best_len = 0;
    note_root(ply, v, best_index);
    /* the order: the table's move, the killer, then the game's declared order */
    int count = 0, table_first = 0, killed = -1;
    for (int i = 0; i < x.n; i++) {
        child_t *c = &p->buf[i];
        if (c->terminal) continue;
        if (i == best) {
            memmove(p->order + 1, p->order, sizeof(int32_t) * count);
            p->order[0] = i; count++; table_first = 1;
        } else if (same_move(c, p) && count > table_first) {
            killed = i;
        } else {
            p->order[count++] = i;
        }
    }
    if (killed >= 0) {
        int at = 1 + table_first;
        memmove(p->order + at + 1, p->order + at, sizeof(int32_t) * (count - at));
        p->order[at] = killed; count++;
    }
    value_t alpha_in = alpha, beta_in = beta;
    if (maximizing ? v >= beta : v <= alpha) {
        cutoffs++;  /* a terminal child settles the node */
    } else if (count) {
        if (maximizing) { if (v > alpha) alpha = v; }
        else if (v < beta) beta = v;
        for (int k = 0; k < count; k++) key_of(&p->buf[p->order[k]].st, &p->keys[k]);
        for (int k = 0; k < count; k++) {
            int i = p->order[k];
            path[ply] = i;
            value_t cv = value(&p->buf[i].st, &p->keys[k], alpha, beta, ply + 1);
            path_ply = ply;
            if (maximizing ? cv > v : cv < v) {
                v = cv; best_index = i;
                take_line(p, ply);
                note_root(ply, v, best_index);
                if (maximizing ? v >= beta : v <= alpha) {  /* the player above has better */
                    cutoffs++;
                    p->killer_known = 1;
                    p->killer_kind = p->buf[i].kind;
                    memcpy(p->killer_args, p->buf[i].args, sizeof(p->killer_args));
                    break;
                }
                if (maximizing) { if (v > alpha) alpha = v; }
                else if (v < beta) beta = v;
            }
        }
    }
    if (keyed)
        store(key, hash, known, maximizing, v, alpha_in, beta_in, best_index,
              nodes - visited);
    if (maximizing ? (v > alpha_in || v <= low_value) : (v < beta_in || v >= high_value))
        set_line(p, best_index);
    else
        p->pv_len = 0;
    return v;
}

/* The principal variation, completed from the table where a hit cut it short: from the end
   of the line, the best move of every entry whose bounds are both the root's value
   (plies/solvers/table.py's extend_line). The root's buffers are free again by now. */
static void extend_line(const state_t *root, value_t v, ply_t *p)
{
    state_t s = *root;
    for (int k = 0; p->pv_len < MAX_PV; k++) {
        if (to_move(&s) == 0) return;  /* the line stops before a chance node */
        int next;
        if (k < p->pv_len) {
            next = p->pv[k];
        } else {  /* past the end of the line: the table's best move, when it is exact */
            uint64_t key[KEY_WORDS];
            if (!pack_key(&s, key)) return;
            entry_t *e = find(key, key_hash(key));
            if (!used_entry(e) || e->best < 0 || (value_t)e->lower != v || (value_t)e->upper != v)
                return;
            next = e->best;
        }
        expansion_t x = {p->buf, 0, MODE_QUIET, 0, 0, 0, 0, -1};
        expand(&s, &x);
        if (next >= x.n) return;
        if (k == p->pv_len) p->pv[p->pv_len++] = next;
        if (p->buf[next].terminal) return;
        s = p->buf[next].st;
    }
}

/* ---- minimax ---- */

static value_t minimax_value(const state_t *s, int ply)
{
    ply_t *p = ply_at(ply);
    path_ply = ply;
    expanded++;
    int maximizing = to_move(s) == 1;
    expansion_t x = {p->buf, 0, MODE_COUNT, maximizing, 0, 0, 0, -1};
    expand(s, &x);
    if (x.n == 0) fault(F_NO_MOVES, -1, 0, 0);
    value_t v = maximizing ? -VALUE_INF - 1 : VALUE_INF + 1;
    int best = -1;
    for (int i = 0; i < x.n; i++) {
        child_t *c = &p->buf[i];
        value_t cv;
        int line = 0;
        if (c->terminal) {
            cv = c->utility;
        } else {
            path[ply] = i;
            cv = minimax_value(&c->st, ply + 1);
            path_ply = ply;
            line = 1;
        }
        if (maximizing ? cv > v : cv < v) {
            v = cv; best = i;
            if (line) take_line(p, ply); else p->best_len = 0;
            note_root(ply, v, best);
        }
    }
    set_line(p, best);
    return v;
}

/* ---- perft: positions at each depth, counted depth-first ---- */

static int64_t *perft_counts, *perft_terminal;

static void perft_walk(const state_t *s, int d, int depth, int terminal)
{
    perft_counts[d]++;
    if (terminal) { perft_terminal[d]++; return; }
    if (d == depth) return;
    if (nodes >= next_check) check_limits();
    nodes++;
    ply_t *p = ply_at(d);
    path_ply = d;
    expansion_t x = {p->buf, 0, MODE_QUIET, 0, 0, 0, 0, -1};
    int64_t denominator;
    if (to_move(s) == 0) chance_expand(s, &x, &denominator);
    else expand(s, &x);
    for (int i = 0; i < x.n; i++) {
        path[d] = i;
        perft_walk(&p->buf[i].st, d + 1, depth, p->buf[i].terminal);
        path_ply = d;
    }
}

/* ---- the entry points ---- */

static void on_interrupt(int signal_number) { (void)signal_number; interrupted = 1; }

static void start(double timeout, int64_t most_nodes)
{
    nodes = leaves = cutoffs = hits = expanded = 0;
    max_nodes = most_nodes;
    work_done = work_next = 0;  /* the rules' work (count_work) of this search only */
    next_check = 0;
    interrupted = 0;
    started_at = now_seconds();
    next_report = started_at + report_every;
    deadline = timeout >= 0 ? now_seconds() + timeout : 0;
    if (timeout == 0) deadline = now_seconds();
    partial_known = 0; partial_best = -1; path_ply = 0;
    fault_kind = F_NONE; fault_check = -1; fault_a = fault_b = 0;
#if HAS_BOUNDS
    low_value = (value_t)BOUND_LOW * SCALE;
    high_value = (value_t)BOUND_HIGH * SCALE;
#else
    low_value = -VALUE_INF;
    high_value = VALUE_INF;
#endif
}

static void put_value(int64_t *out, value_t v)
{
#if HAS_CHANCE
    out[0] = (int64_t)(v >> 64);
    out[1] = (int64_t)(uint64_t)v;
#else
    out[0] = v < 0 ? -1 : 0;
    out[1] = v;
#endif
}

static void finish(int64_t *out, int32_t *line, int line_len, int32_t *where)
{
    out[3] = nodes; out[4] = leaves; out[5] = cutoffs; out[6] = hits;
    out[7] = (int64_t)table_count;
    out[8] = fault_check; out[9] = fault_a; out[10] = fault_b;
    out[11] = partial_known;
    put_value(out + 12, partial_value);
    out[14] = line_len;
    for (int i = 0; i < line_len; i++) line[i] = plies_[0] ? plies_[0]->pv[i] : 0;
    out[15] = path_ply;
    for (int i = 0; i < path_ply && i < MAX_PLY; i++) where[i] = path[i];
    out[16] = partial_best;
    out[17] = expanded;
}

/* algorithm 0: auto, 1: minimax, 2: expectiminimax (auto's search without a table, with
   Star1 when the game has bounds). scale: the search's units (chance games; ignored
   without chance). Returns the fault kind (0: none). */
int plies_solve(int algorithm, const int64_t *root_slots, double timeout, int64_t most_nodes,
                int64_t memory, int64_t *out, int32_t *line, int32_t *where,
                void (*progress)(int64_t, double), double every, uint64_t scale_high,
                uint64_t scale_low)
{
    state_t root;
    memcpy(root.s, root_slots, sizeof root.s);
    progress_report = progress; report_every = every;
#if HAS_CHANCE
    SCALE = (((value_t)scale_high) << 64) | (value_t)scale_low;
#else
    (void)scale_high; (void)scale_low;
#endif
    start(timeout, most_nodes);
    star = algorithm == 2 && HAS_BOUNDS;
    use_table = algorithm == 0 && memory > 0;
    table = NULL; table_slots = table_count = 0;
    if (use_table) {
        table_most_slots = 1024;
        /* growing to the most slots holds the old table beside the new one: 1.5 times */
        while (table_most_slots * 3 * sizeof(entry_t) <= (uint64_t)memory) table_most_slots *= 2;
        table_slots = 1024;
        table = table_alloc(table_slots);
        if (!table) use_table = 0, table_slots = 0;
    }
    void (*previous)(int) = signal(SIGINT, on_interrupt);
    int line_len = 0;
    value_t found = 0;
    if (setjmp(escape) == 0) {
        int64_t utility;
        count_node();
        if (outcome(&root, &utility)) {
            leaves++;
            found = algorithm != 1 ? scaled(utility) : (value_t)utility;
        } else {
            found = algorithm != 1 ? value(&root, NULL, low_value, high_value, 0)
                                   : minimax_value(&root, 0);
            if (use_table && plies_[0]) extend_line(&root, found, plies_[0]);
            line_len = plies_[0] ? plies_[0]->pv_len : 0;
        }
    }
    signal(SIGINT, previous == SIG_ERR ? SIG_DFL : previous);
    progress_report = NULL;
    out[0] = fault_kind;
    put_value(out + 1, found);
    finish(out, line, line_len, where);
    table_free(table, table_slots); table = NULL; table_slots = 0;
    free_plies();
    return (int)fault_kind;
}

int plies_perft(const int64_t *root_slots, int depth, int64_t *counts, int64_t *terminal,
                int64_t *out, int32_t *where)
{
    state_t root;
    memcpy(root.s, root_slots, sizeof root.s);
    start(-1, -1);
    perft_counts = counts; perft_terminal = terminal;
    void (*previous)(int) = signal(SIGINT, on_interrupt);
    if (setjmp(escape) == 0) {
        int64_t utility;
        perft_walk(&root, 0, depth, outcome(&root, &utility));
    }
    signal(SIGINT, previous == SIG_ERR ? SIG_DFL : previous);
    out[0] = fault_kind;
    finish(out, NULL, 0, where);
    free_plies();
    return (int)fault_kind;
}

void plies_initial(int64_t *slots)
{
    state_t s;
    if (setjmp(escape) == 0) {
        initial_state(&s);
        memcpy(slots, s.s, sizeof s.s);
    } else {
        slots[0] = -1;
    }
}

int plies_slots(void) { return SLOTS; }

int plies_entry_bytes(void) { return (int)sizeof(entry_t); }
