/* The searches of every native module, after the game's rules (initial_state, outcome,
   evaluate, expand, chance_expand) and the transposition table (table.c). They follow the
   Python solvers step for step, so that values, best moves and node counts agree: auto is
   plies/solvers/search.py (alpha-beta with terminal children first, then the table's move,
   the killer move and the game's declared order, or with `prefer` (HAS_PREFER) the table's
   move and prefer_of's order, no killer; chance nodes searched exactly), minimax is
   minimax.py, perft is perft.py counted depth-first. */

#define MAX_PV 256

/* 1: MAX to move, -1: MIN, 0: a chance event */
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

#if HAS_PREFER
/* a child to sort by prefer_of: its number, ascending best first (for MAX the number's
   complement ~n = -n - 1, which reverses the order and cannot overflow), its place before the
   sort (ties keep it) and its index among the children */
struct preferred { int64_t number; int32_t place, child; };
#endif

typedef struct ply {
    child_t *buf;
    int32_t *order;
    int32_t pv[MAX_PV], best_line[MAX_PV];
    int pv_len, best_len;
    int killer_known;
    uint64_t hash;        /* the node this thread searches at this ply: its hash, */
    int markable, marked; /* whether it may be marked busy, and whether it is */
    int32_t killer_kind;
    int64_t killer_args[MAXARGS];
    struct lookup *keys;  /* the children's table keys, made before any child is searched */
    unsigned char *later; /* with threads: the children left for a second pass */
#if HAS_PREFER
    struct preferred *prefs;  /* the children to sort by prefer_of (prefer_order) */
#endif
} ply_t;

static ply_t *new_ply(int ply);

/* the buffers of a ply, made the first time a search reaches it */
static inline ply_t *ply_at(int ply)
{
    if (ply < MAX_PLY && me->plies[ply]) return me->plies[ply];
    return new_ply(ply);
}

static ply_t *new_ply(int ply)
{
    if (ply >= MAX_PLY) fault(F_DEEP, -1, ply, 0);
    ply_t *p = calloc(1, sizeof(ply_t));
    if (!p) fault(F_MEMORY, -1, 0, 0);
    p->buf = malloc(sizeof(child_t) * (size_t)MOVES);
    p->order = malloc(sizeof(int32_t) * (size_t)MOVES);
    p->keys = malloc(sizeof(struct lookup) * (size_t)MOVES);
    p->later = malloc((size_t)MOVES);
    int made = p->buf && p->order && p->keys && p->later;
#if HAS_PREFER
    p->prefs = malloc(sizeof(struct preferred) * (size_t)MOVES);
    made = made && p->prefs;
    if (!made) free(p->prefs);
#endif
    if (!made) {
        free(p->buf); free(p->order); free(p->keys); free(p->later); free(p);
        fault(F_MEMORY, -1, 0, 0);
    }
    me->plies[ply] = p;
    return p;
}

static void free_plies(void)
{
    for (int i = 0; i < MAX_PLY && me->plies[i]; i++) {
        free(me->plies[i]->buf); free(me->plies[i]->order); free(me->plies[i]->keys);
        free(me->plies[i]->later);
#if HAS_PREFER
        free(me->plies[i]->prefs);
#endif
        free(me->plies[i]);
        me->plies[i] = NULL;
    }
}

/* the line of a node: its best move, then the best line of that child (`line`, `length`) */
static void line_of(ply_t *p, int best, const int32_t *line, int length)
{
    p->pv[0] = best;
    int n = length < MAX_PV - 1 ? length : MAX_PV - 1;
    if (n) memcpy(p->pv + 1, line, sizeof(int32_t) * n);
    p->pv_len = n + 1;
}

static void set_line(ply_t *p, int best) { line_of(p, best, p->best_line, p->best_len); }

static void take_line(ply_t *p, int ply)
{
    ply_t *child = me->plies[ply + 1];
    p->best_len = child ? child->pv_len : 0;
    if (p->best_len) memcpy(p->best_line, child->pv, sizeof(int32_t) * p->best_len);
}

/* NULL WINDOWS (root_value, below): the root is searched by null-window passes */
static int null_windows;

/* what a stopped search knows: the best child of the root searched so far (with null
   windows, the passes say it instead: a child's value there is a bound) */
static inline void note_root(int ply, value_t v, int best)
{
    if (ply == 0 && best >= 0 && !null_windows) {
        me->partial_known = 1; me->partial_value = v; me->partial_best = best;
    }
}

#if HAS_PREFER
static int by_number(const void *a, const void *b)
{
    const struct preferred *x = a, *y = b;
    if (x->number != y->number) return x->number < y->number ? -1 : 1;
    return x->place < y->place ? -1 : x->place > y->place;  /* ties: the order they had */
}

/* PREFER, as preferred() in plies/solvers/search.py: the order's places from..count-1 sorted
   by the game's number of each child, highest first for MAX and lowest first for MIN, ties
   in the order they had (stable: an insertion sort, as nodes have few children; past
   SORT_FEW of them, qsort on the numbers and places), in the ply's own buffer. While a
   child's number is computed, the path ends with it: a rule failing there is reported after
   that child's move, as in Python (PREFER_FAILS: only where the number has a check that can
   fail; Connect Four's threats cannot). */
#define SORT_FEW 64
static void prefer_order(ply_t *p, int ply, int from, int count, int maximizing)
{
    struct preferred *sorted = p->prefs;
    int32_t *order = p->order + from, *path = me->path;
    int n = count - from;
    if (PREFER_FAILS) me->path_ply = ply + 1;
    for (int k = 0; k < n; k++) {
        if (PREFER_FAILS) path[ply] = order[k];
        int64_t number = prefer_of(&p->buf[order[k]].st);
        struct preferred next = {maximizing ? ~number : number, k, order[k]};
        int j = k;
        if (n <= SORT_FEW)  /* inserted as it comes */
            for (; j > 0 && sorted[j - 1].number > next.number; j--) sorted[j] = sorted[j - 1];
        sorted[j] = next;
    }
    if (PREFER_FAILS) me->path_ply = ply;
    if (n > SORT_FEW) qsort(sorted, (size_t)n, sizeof *sorted, by_number);
    for (int k = 0; k < n; k++) order[k] = sorted[k].child;
}
#endif

static inline void remember_killer(ply_t *p, const child_t *c)  /* c's move cut the node */
{
    p->killer_known = 1;
    p->killer_kind = c->kind;
    memcpy(p->killer_args, c->args, sizeof(p->killer_args));
}

static int same_move(const child_t *c, const ply_t *p)
{
    if (!p->killer_known || c->kind != p->killer_kind) return 0;
    return memcmp(c->args, p->killer_args, sizeof(c->args)) == 0;
}

/* ---- auto: alpha-beta with a table; chance nodes searched exactly ---- */

/* The nodes being searched now, by some thread (with threads only, near the root): a state's
   hash in its slot while a thread searches it. A slot shared by two states only defers a
   child now and then. Marked in the first busy_plies plies: 10 + 2 log2(threads), deeper
   the more threads there are to spread over the tree (12 for 2 threads, 18 for 16). On a
   16-core machine, Connect Four 7x5 with 16 threads took 1.35-1.6 s deferring to ply 16-24
   against 1.7-1.8 s to ply 12 and 1.6-1.8 s to 28 (threads searching the same nodes also
   wait on the same table lines: each ran at 7.4-8.9 million nodes a second against 6.7-7.1);
   with 2 threads on 6x5 (2 cores) 16 or 20 plies took 0.83 and 0.84 s against 0.76 s
   (medians of six). */
static int busy_plies = 12;
#define BUSY_SLOTS (1 << 16)
static uint64_t busy[BUSY_SLOTS];

static inline void enter_node(uint64_t hash)
{
    __atomic_store_n(&busy[hash & (BUSY_SLOTS - 1)], hash, __ATOMIC_RELAXED);
}

static inline void leave_node(uint64_t hash)
{
    uint64_t mine = hash;
    __atomic_compare_exchange_n(&busy[hash & (BUSY_SLOTS - 1)], &mine, 0, 0, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
}

static inline int busy_elsewhere(uint64_t hash)
{
    return __atomic_load_n(&busy[hash & (BUSY_SLOTS - 1)], __ATOMIC_RELAXED) == hash;
}

static value_t value(const state_t *s, const struct lookup *at, value_t alpha, value_t beta,
                     int ply, int above);

/* The state's key, and its entry's memory asked for: a node makes each child's key one child
   ahead of its search, so that the cache miss overlaps the search before it. */
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
            me->leaves++;
            v = scaled(c->utility);
        } else if (cuts) {  /* at most child_alpha fails low, at least child_beta high */
            value_t child_alpha = floor_div(scaled_alpha - total - exact_mul(rest, high_value),
                                            c->weight);
            value_t child_beta = -floor_div(total + exact_mul(rest, low_value) - scaled_beta,
                                            c->weight);
            me->path[ply] = i;
            v = value(&c->st, NULL, child_alpha > low_value ? child_alpha : low_value,
                      child_beta < high_value ? child_beta : high_value, ply + 1, 0);
            me->path_ply = ply;
        } else {
            me->path[ply] = i;
            v = value(&c->st, NULL, low_value, high_value, ply + 1, 0);
            me->path_ply = ply;
        }
        total = exact_add(total, exact_mul((value_t)c->weight, v));
        if (cuts) {
            value_t least = exact_add(total, exact_mul(rest, low_value));
            value_t most = exact_add(total, exact_mul(rest, high_value));
            if (least >= scaled_beta) {  /* worth at least beta: fail high */
                me->cutoffs++;
                value_t bound = floor_div(least, d);
                if (bound < beta) fault(F_INEXACT, -1, 0, 0);
                return bound;
            }
            if (most <= scaled_alpha) {  /* worth at most alpha: fail low */
                me->cutoffs++;
                value_t bound = -floor_div(-most, d);
                if (bound > alpha) fault(F_INEXACT, -1, 0, 0);
                return bound;
            }
        }
    }
    if (total % d) fault(F_INEXACT, -1, 0, 0);
    return total / d;
}

#if HAS_BOUNDS
/* IMMEDIATE WINS (value, below): 1 when the player to move in s can end the game at once at
   their best bound, the line then that move; else 0, with the children made in *made. */
static int opponent_wins(const state_t *s, ply_t *p, int maximizing, int *made)
{
    expansion_t y = {p->buf, 0, MODE_PEEK, 0, 0, 0, 0, -1, maximizing ? BOUND_HIGH : BOUND_LOW};
    if (expand(s, &y)) {
        p->pv[0] = y.n - 1;
        p->pv_len = 1;
        return 1;
    }
    *made = y.n;
    return 0;
}
#endif

/* SMALL SUBTREES, as in plies/solvers/search.py: a state is searched with the table unless
   its ply has gone without it. Once SMALL_FIRST states of a ply have been stored, the ply
   goes without the table from then on if they took fewer than SMALL_WORK nodes each and the
   ply's look-ups so far (its hits and those states) saved fewer than SMALL_SAVING nodes each
   (a hit saves about what a stored state's search took): there a probe (a cache miss, on a
   large table a TLB miss too) costs more than the little search it saves. */
static inline int tabled(int ply) { return ply >= MAX_PLY || !me->small[ply].untabled; }

static inline void count_hit(int ply)  /* a hit that settled its state */
{
    if (ply < MAX_PLY && me->small[ply].stored < SMALL_FIRST) me->small[ply].hits++;
}

/* a state searched with the table, and the nodes its search took */
static inline void count_stored(int ply, int64_t work)
{
    if (ply >= MAX_PLY) return;
    struct small *c = &me->small[ply];
    if (c->stored >= SMALL_FIRST) return;
    c->work += work;
    if (++c->stored < SMALL_FIRST) return;
    unsigned __int128 hit = (uint64_t)c->hits, first = SMALL_FIRST, total = (uint64_t)c->work;
    c->untabled = total < (unsigned __int128)SMALL_WORK * SMALL_FIRST
                  && hit * total * SMALL_SAVING_DEN < SMALL_SAVING_NUM * (hit + first) * first;
}

/* ENHANCED TRANSPOSITION CUTOFFS, as settling_child() in plies/solvers/search.py (Plaat,
   Schaeffer, Pijls and de Bruin 1996): below the root, where the children's subtrees are large
   (the states their ply has stored, up to its first SMALL_FIRST, took ETC_WORK nodes each or
   more on average), the table is asked for every child before any is searched; a
   child whose proved bound already settles the node (MAX: a lower bound at least beta; MIN:
   an upper bound at most alpha) settles it without a search. Such a node is stored, but not
   counted among its ply's first states for SMALL SUBTREES: its work is not its subtree's.
   The keys are made for all the children at once, so that their misses overlap, and the
   search below uses them. In Connect Four the same position is often reached by another
   order of the same drops, and a cut-off found there saves a child's whole search: 6x5 and
   7x5 11% fewer nodes, 6x6 18%, 6-10% less time (docs/performance.md, session 35). */
static inline int looks_ahead(int ply)  /* ply: the children's */
{
    if (!use_table || ply >= MAX_PLY || me->small[ply].untabled) return 0;
    const struct small *c = &me->small[ply];
    return c->stored && c->work >= (int64_t)ETC_WORK * c->stored;
}

/* the place in the order of the first child whose entry settles the node, its bound in *v;
   -1 for none */
static int settling_child(ply_t *p, int count, int maximizing, value_t alpha, value_t beta,
                          value_t *v)
{
    for (int k = 0; k < count; k++) key_of(&p->buf[p->order[k]].st, &p->keys[k]);
    for (int k = 0; k < count; k++) {
        const struct lookup *c = &p->keys[k];
        known_t known;
        if (!c->keyed || !probe(c->key, c->hash, &known, NULL)) continue;
        if (maximizing ? known.lower >= beta : known.upper <= alpha) {
            *v = maximizing ? known.lower : known.upper;
            return k;
        }
    }
    return -1;
}

#if SYMMETRIES
/* SYMMETRY, as plies/solvers/symmetry.py: near the root (ply < SYMMETRY_PLIES), the game's
   rearrangements that leave the state as it is; a child that one of them makes of an earlier
   child is worth the same as that one, and is left out */
static int fixing_symmetries(const state_t *s, int *fixing)
{
    int n = 0;
    for (int g = 0; g < SYMMETRIES; g++) {
        const int32_t *image = symmetry_of[g];
        int j = 0;
        while (j < SLOTS && s->s[image[j]] == s->s[j]) j++;
        if (j == SLOTS) fixing[n++] = g;
    }
    return n;
}

static int image_of_earlier(const child_t *buf, int i, const int *fixing, int fixed)
{
    slot_t made[SLOTS];
    for (int f = 0; f < fixed; f++) {
        const int32_t *image = symmetry_of[fixing[f]];
        for (int j = 0; j < SLOTS; j++) made[j] = buf[i].st.s[image[j]];
        for (int k = 0; k < i; k++)
            if (!buf[k].terminal && memcmp(made, buf[k].st.s, sizeof made) == 0) return 1;
    }
    return 0;
}
#endif

/* above: the player who moved to this state (1: MAX, -1: MIN, 0: none, at the root and below
   a chance event) */
static value_t value(const state_t *s, const struct lookup *at, value_t alpha, value_t beta,
                     int ply, int above)
{
    ply_t *p = ply_at(ply);
    me->path_ply = ply;
    int64_t visited = me->nodes;
    struct lookup own;
    if (!at) { key_of(s, &own); at = &own; }
    const uint64_t *key = at->key;
    uint64_t hash = at->hash;
    int keyed = at->keyed && tabled(ply), best = -1, settling = -1;
    p->markable = p->marked = 0;
    int player = to_move(s);
    int maximizing = player == 1;
    /* IMMEDIATE WINS, as replies() in plies/solvers/search.py: a state where the opponent of
       the player above can end the game at once at their best bound (the utility bound) is
       worth that bound, and is neither counted past itself nor stored. Its children are made
       without counting them, up to the first such win (its line is then that move); a state
       without one is searched with them, counted as if made now. So a move that lets the
       opponent win at once is refused (in Connect Four: no disc below the opponent's four,
       and a single threat answered at once), and a node whose moves are all refused is lost.
       Where the players always take turns (ALTERNATES) this comes before the table: a
       refused state is never stored, so its probe would always miss (Connect Four 7x5 and
       6x5 about 12% faster, the same nodes; Othello 6x6 no change). Where a state can also
       be reached after a chance outcome or an `again`, and stored from there, the table
       answers first, as in Python, so that both back ends count the same nodes. */
    int made = -1;
#if HAS_BOUNDS
    int asked = above && above != player;
    if (ALTERNATES && asked && opponent_wins(s, p, maximizing, &made)) {
        me->immediate++;
        return maximizing ? high_value : low_value;
    }
#else
    (void)above;
#endif
    known_t old, *known = NULL;
    probed_t at_slot = {0, UINT64_MAX};  /* no era: until a probe of the plain table sets it */
    if (keyed && probe(key, hash, &old, &at_slot)) {
        known = &old;
        if (ply || !null_windows) {  /* with null windows, the root's entry gives its move only */
            if (old.lower >= beta || old.upper <= alpha || old.lower == old.upper) {
                me->hits++;
                count_hit(ply);
                p->pv_len = 0;
                return old.lower >= beta || old.lower == old.upper ? old.lower : old.upper;
            }
            if (old.lower > alpha) alpha = old.lower;  /* proved bounds narrow the window */
            if (old.upper < beta) beta = old.upper;
        }
        best = old.best;
    }
    if (player == 0) {
        value_t v = chance_value(s, alpha, beta, ply);
        if (keyed) {
            store(key, hash, known, &at_slot, 0, v, alpha, beta, -1, me->nodes - visited);
            count_stored(ply, me->nodes - visited);
        }
        p->pv_len = 0;  /* the principal variation stops before a chance node */
        return v;
    }
#if HAS_BOUNDS
    if (!ALTERNATES && asked && opponent_wins(s, p, maximizing, &made)) {
        me->immediate++;
        return maximizing ? high_value : low_value;
    }
#endif
    p->hash = hash;
    p->markable = keyed && ply < busy_plies;
    p->marked = p->markable && shared_table;  /* or marked when the threads join (go_parallel) */
    if (p->marked) enter_node(hash);
    /* TERMINAL-TEST of every child first: the best of them bounds the node at once */
    expansion_t x = {p->buf, 0, MODE_CUT, maximizing, maximizing ? -VALUE_INF - 1 : VALUE_INF + 1,
                     alpha, beta, -1};
    if (made < 0) expand(s, &x);
    else while (x.n < made && !sink(&x)) {}  /* made above: counted as if made now */
    if (x.n == 0) fault(F_NO_MOVES, -1, 0, 0);
    value_t v = x.v;
    int best_index = x.best;
    p->best_len = 0;
    note_root(ply, v, best_index);
    /* the order: the table's move, the killer (after the declared first move), then the
       game's declared order; with `prefer`, the table's move, then prefer_of's order (with a
       killer, before or after that order, Connect Four 6x4 and 5x5 made 1.3 to 3.8 times the
       nodes) */
    int count = 0, table_first = 0, killed = -1;
#if SYMMETRIES
    int fixing[SYMMETRIES], fixed = ply < SYMMETRY_PLIES ? fixing_symmetries(s, fixing) : 0;
#endif
    for (int i = 0; i < x.n; i++) {
        child_t *c = &p->buf[i];
        if (c->terminal) continue;
#if SYMMETRIES
        if (fixed && image_of_earlier(p->buf, i, fixing, fixed)) continue;
#endif
        if (i == best) {
            memmove(p->order + 1, p->order, sizeof(int32_t) * count);
            p->order[0] = i; count++; table_first = 1;
        } else if (!HAS_PREFER && same_move(c, p) && count > table_first) {
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
    /* pending: the best child's line is still in the ply below; it is taken from there only
       when another child is about to be searched (take_line), or at the end straight into
       this node's line (line_of): a cut node copies it once */
    int pending = 0;
    if (maximizing ? v >= beta : v <= alpha) {
        me->cutoffs++;  /* a terminal child settles the node */
    } else if (count) {
        if (maximizing) { if (v > alpha) alpha = v; }
        else if (v < beta) beta = v;
#if HAS_PREFER
        if (count > table_first + 1) prefer_order(p, ply, table_first, count, maximizing);
#endif
        /* each child's key is made (and its entry asked for) one child ahead of its search,
           so that the miss overlaps the search before it; made for all at once, they cost a
           cut node a key and a miss for every child it never searches (Connect Four 6x5:
           6.4 s against 6.9 s, medians of four) */
        int keys_made = 0, child_tabled = tabled(ply + 1);
        if (ply && count > 1 && looks_ahead(ply + 1)) {
            keys_made = count;
            settling = settling_child(p, count, maximizing, alpha, beta, &v);
        }
        if (settling >= 0) {  /* ENHANCED TRANSPOSITION CUTOFFS: counted as a hit and a cut */
            best_index = p->order[settling];
            me->hits++;
            me->cutoffs++;
            remember_killer(p, &p->buf[best_index]);
            goto searched;
        }
        /* with threads, a child another thread is searching waits for a second pass (by
           then its value is often in the table), unless it is the first (ABDADA's rule): a
           thread that left the first child to another would search the others with a window
           that child has not narrowed yet, and at a cut node search them for nothing. A node
           that began before the threads joined defers from then on: the calling thread is in
           the root's first child when they join, and its later children would otherwise never
           be left for later (Connect Four 6x5 with 2 threads, 5 paired runs: 21.5-23.2 million
           nodes against 23.1-26.7, 0.93 of the time, median). Only with that did the first
           child's rule pay for every thread, helpers too (7x4 with 2 threads: 23.2 million
           nodes against 28.6-29.8 million when helpers left it; 22.7 million alone) */
        int defer = wanted_threads > 1 && ply < busy_plies;
        unsigned char *later = p->later;
        int deferred = 0;
        for (int pass = 0; pass < 1 + (deferred > 0); pass++)
        for (int k = 0; k < count; k++) {
            int i = p->order[k];
            for (; keys_made <= k + 1 && keys_made < count; keys_made++)
                if (child_tabled) key_of(&p->buf[p->order[keys_made]].st, &p->keys[keys_made]);
                else p->keys[keys_made].keyed = 0;
            if (defer) {
                if (pass == 0) {
                    later[k] = shared_table && k > 0 && p->keys[k].keyed
                               && busy_elsewhere(p->keys[k].hash);
                    if (later[k]) { deferred++; continue; }
                } else if (!later[k]) {
                    continue;
                }
            }
            if (pending) { take_line(p, ply); pending = 0; }
            me->path[ply] = i;
            value_t cv = value(&p->buf[i].st, &p->keys[k], alpha, beta, ply + 1, player);
            me->path_ply = ply;
            if (maximizing ? cv > v : cv < v) {
                v = cv; best_index = i;
                pending = 1;
                note_root(ply, v, best_index);
                if (maximizing ? v >= beta : v <= alpha) {  /* the player above has better */
                    me->cutoffs++;
                    remember_killer(p, &p->buf[i]);
                    goto searched;
                }
                if (maximizing) { if (v > alpha) alpha = v; }
                else if (v < beta) beta = v;
            }
        }
    }
searched:
    if (p->marked) leave_node(hash);
    if (keyed) {
        store(key, hash, known, &at_slot, maximizing, v, alpha_in, beta_in, best_index,
              me->nodes - visited);
        if (settling < 0) count_stored(ply, me->nodes - visited);  /* see looks_ahead */
    }
    if (!(maximizing ? (v > alpha_in || v <= low_value) : (v < beta_in || v >= high_value)))
        p->pv_len = 0;
    else if (pending)
        line_of(p, best_index, me->plies[ply + 1]->pv, me->plies[ply + 1]->pv_len);
    else
        set_line(p, best_index);
    return v;
}

/* The principal variation, completed from the table where a hit cut it short: from the end
   of the line, the best move of every entry whose bounds are both the root's value
   (plies/solvers/table.py's extend_line). A state settled by an immediate win has no entry:
   there the line ends with the first child that ends the game worth the value. The root's
   buffers are free again by now. */
static void extend_line(const state_t *root, value_t v, ply_t *p)
{
    state_t s = *root;
    for (int k = 0; p->pv_len < MAX_PV; k++) {
        if (to_move(&s) == 0) return;  /* the line stops before a chance node */
        int next = -1;
        if (k < p->pv_len) {
            next = p->pv[k];
        } else {  /* past the end of the line: the table's best move, when it is exact */
            uint64_t key[KEY_WORDS];
            if (!pack_key(&s, key)) return;
            known_t e;
            if (probe(key, key_hash(key), &e, NULL)) {
                if (e.best < 0 || e.lower != v || e.upper != v) return;
                next = e.best;
            }
        }
        expansion_t x = {p->buf, 0, MODE_QUIET, 0, 0, 0, 0, -1};
        expand(&s, &x);
        for (int i = 0; i < x.n && next < 0; i++) {  /* no entry: an immediate win? */
            value_t u;
            if (p->buf[i].terminal && !__builtin_mul_overflow((value_t)p->buf[i].utility, SCALE, &u)
                && u == v)
                next = i;
        }
        if (next < 0 || next >= x.n) return;
        if (k == p->pv_len) p->pv[p->pv_len++] = next;
        if (p->buf[next].terminal) return;
        s = p->buf[next].st;
    }
}

/* ---- minimax ---- */

static value_t minimax_value(const state_t *s, int ply)
{
    ply_t *p = ply_at(ply);
    me->path_ply = ply;
    me->expanded++;
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
            cv = scaled(c->utility);  /* within the bounds, as Python's minimax checks */
        } else {
            me->path[ply] = i;
            cv = minimax_value(&c->st, ply + 1);
            me->path_ply = ply;
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
    if (me->nodes >= me->next_check) check_limits();
    me->nodes++;
    ply_t *p = ply_at(d);
    me->path_ply = d;
    expansion_t x = {p->buf, 0, MODE_QUIET, 0, 0, 0, 0, -1};
    int64_t denominator;
    if (to_move(s) == 0) chance_expand(s, &x, &denominator);
    else if (!expand(s, &x) && x.n == 0) fault(F_NO_MOVES, -1, 0, 0);
    for (int i = 0; i < x.n; i++) {
        me->path[d] = i;
        perft_walk(&p->buf[i].st, d + 1, depth, p->buf[i].terminal);
        me->path_ply = d;
    }
}

/* ---- the entry points ---- */

static void on_interrupt(int signal_number) { (void)signal_number; interrupted = 1; }

/* CTRL-C: a search called from Python's main thread takes SIGINT for its time (it stops with
   what it has found) and puts the handler before it back. One called from another thread, or
   in a process that ignores SIGINT, leaves it alone (engine.py's _takes_ctrl_c): the handler
   is the whole process's, and two searches in threads whose times overlapped each put back
   what they found, the later one the earlier one's handler, which then took every Ctrl-C
   after both had ended (Python's main thread never saw one again). */
typedef void (*handler_t)(int);
static handler_t take_ctrl_c(int wanted) { return wanted ? signal(SIGINT, on_interrupt) : SIG_ERR; }
static void give_ctrl_c_back(int wanted, handler_t previous)
{
    if (wanted) signal(SIGINT, previous == SIG_ERR ? SIG_DFL : previous);
}

static worker_t *new_worker(int id)
{
    worker_t *w = calloc(1, sizeof(worker_t));
    if (w) {
        w->plies = calloc(MAX_PLY, sizeof(ply_t *));
        w->path = calloc(MAX_PLY, sizeof(int32_t));
        w->small = calloc(MAX_PLY, sizeof(struct small));
        if (!w->plies || !w->path || !w->small) {
            free(w->plies); free(w->path); free(w->small); free(w); return NULL;
        }
    }
    else return NULL;
    w->id = id;
    w->partial_best = -1;
    w->fault_check = -1;
    return w;
}

static void free_worker(worker_t *w)
{
    if (!w) return;
    worker_t *saved = me;
    me = w;
    free_plies();
    me = saved;
    free(w->plies); free(w->path); free(w->small); free(w);
}

static void start(double timeout, int64_t most_nodes)
{
    /* one thread until plies_solve asks for more: a module keeps its globals from one call to
       the next, and a perft after a search with --threads went parallel on no table (a crash) */
    threads = wanted_threads = 1;
    max_nodes = most_nodes;
    interrupted = 0;
    stop_all = 0;
    all_nodes = 0;
    started_at = now_seconds();
    next_report = started_at + report_every;
    deadline = timeout >= 0 ? now_seconds() + timeout : 0;
    if (timeout == 0) deadline = now_seconds();
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

/* out[]: the counters of every thread added up; the line of `lined` (the thread that
   finished), the fault and the path to it of `failed`, the partial result of the caller's */
static void finish(int64_t *out, int32_t *line, int line_len, int32_t *where, worker_t **all,
                   int count, worker_t *lined, worker_t *failed)
{
    out[3] = out[4] = out[5] = out[6] = out[17] = out[19] = 0;
    for (int i = 0; i < count; i++) {
        out[3] += all[i]->nodes; out[4] += all[i]->leaves; out[5] += all[i]->cutoffs;
        out[6] += all[i]->hits; out[17] += all[i]->expanded; out[19] += all[i]->immediate;
    }
    out[7] = (int64_t)table_entries();
    out[8] = failed->fault_check; out[9] = failed->fault_a; out[10] = failed->fault_b;
    out[11] = all[0]->partial_known;
    put_value(out + 12, all[0]->partial_value);
    out[14] = line_len;
    for (int i = 0; i < line_len; i++) line[i] = lined->plies[0] ? lined->plies[0]->pv[i] : 0;
    out[15] = failed->path_ply;
    for (int i = 0; i < failed->path_ply && i < MAX_PLY; i++) where[i] = failed->path[i];
    out[16] = all[0]->partial_best;
}

/* ---- lazy SMP: every thread searches the root with the same window, sharing the table;
   near the root a thread leaves for later the children that another thread is searching
   (busy_elsewhere), so that the threads spread over the tree and leave their results in the
   table for each other (in helper-thread tests on Connect Four 6x4, turning the helpers' move
   orders instead made 1.6 times the nodes). The first thread to finish gives the value
   (every thread's would be the same: the table holds only proved bounds) and stops the
   others. */

#define MAX_THREADS 256
static worker_t *workers[MAX_THREADS];
#ifndef _WIN32
static pthread_t helpers[MAX_THREADS];
#endif
static int helpers_started;       /* 1 + the helpers running */
static int winner = -1;           /* the thread that finished first */
static int failed_first = -1;     /* the first thread that met a limit or a rule's failure */
static value_t winner_value;
static state_t search_root;

static void leave_search(void);

/* NULL WINDOWS, as null_window_value in plies/solvers/search.py (MTD(f)): passes that each
   ask whether the root is worth at least beta, the table keeping what each proved, until its
   lower and upper bounds meet (the step doubling while passes fail the same way); then the
   exact pass (v - 1, v + 1) for the line, unless the value is a bound (the pass that found it
   gave its line: a fail-high at the upper bound is exact). A pass that proves a bound for the
   player to move gives a stopped search its value and move. Every thread runs its own passes:
   whatever a pass proves is proved, whichever thread's table entries it stands on. Every
   other thread starts one above the first guess, so that two threads seek at once the two
   bounds a value between the guesses needs (a draw: "at least a draw?" and "a win?"): the
   first pass no longer runs alone while the second waits for it (Connect Four 6x5, 2 threads,
   helpers joining after 65,536 nodes: 0.88 of the time of both threads starting at the same
   guess after a million nodes, two in-process runs of 8 and 10 rounds). */
static value_t root_value(void)
{
    if (!null_windows) return value(&search_root, NULL, low_value, high_value, 0, 0);
    int maximizing = to_move(&search_root) == 1, last = 0;  /* last: how the last pass failed */
    value_t lower = low_value, upper = high_value, step = 1;
    value_t guess = floor_div(low_value + high_value, 2);
    if (me->id % 2 == 1 && guess < upper) guess++;
    while (lower < upper) {
        value_t beta = guess <= lower ? lower + 1 : guess < upper ? guess : upper;
        value_t v = value(&search_root, NULL, beta - 1, beta, 0, 0);
        if (v >= beta) {  /* worth at least v */
            step = last > 0 ? step * 2 : 1;
            lower = v; last = 1; guess = v + step;
        } else {  /* worth at most v */
            step = last < 0 ? step * 2 : 1;
            upper = v; last = -1; guess = v - step + 1;
        }
        ply_t *root = me->plies[0];
        if (root && root->pv_len > 0 && (v >= beta) == maximizing) {
            me->partial_known = 1; me->partial_value = v; me->partial_best = root->pv[0];
        }
    }
    if (lower == low_value || lower == high_value) return lower;  /* its pass's line is exact */
    return value(&search_root, NULL, lower - 1, lower + 1, 0, 0);
}

static void search_from_root(worker_t *w)
{
    me = w;
    if (setjmp(w->escape) == 0) {
        value_t v = root_value();
        if (__sync_bool_compare_and_swap(&winner, -1, w->id)) winner_value = v;
    } else if (w->fault_kind != F_STOPPED) {  /* a limit, or a rule that failed */
        __sync_bool_compare_and_swap(&failed_first, -1, w->id);
    }
    stop_all = 1;
    if (me->new_entries) add_entries();
    if (threads > 1) leave_search();
}

#ifndef _WIN32
static void *helper_main(void *argument)
{
    search_from_root((worker_t *)argument);
    return NULL;
}
#endif

/* The shared table doubles in place, as the table of one thread does (in the same memory,
   mapped to the most slots), while every thread waits: the threads check grow_wanted with
   their limits (every 4096 nodes) and wait there; the last to arrive (or to finish its
   search) widens the mask, and every waiting thread takes a share of the old slots, moving
   each entry that is no longer in its bucket under the wider mask (in the new half, or past
   the old end) and leaving the others where they are. No memory but the new half's is
   touched: the table never exceeds --memory. One thread placing every entry in a table
   allocated twice the size while the others waited made Connect Four 6x5 with 2 threads take
   4.61 s against 4.16 s for every thread placing a share (medians of four). A table made at
   once as large as --memory allows (no growth) took 3.39 s, but 5x5, whose threads join after
   a million nodes, 1.04 s against 0.57 s and 435 MB against 99 MB: the kernel zeroes every
   page the scattered entries touch. */
#ifndef _WIN32
static pthread_mutex_t grow_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t grown = PTHREAD_COND_INITIALIZER;
#endif
static int active, waiting;
static uint64_t growths;

/* The one thread's table (linear probing, plain entries) made the shared one in its own
   memory: its entries set aside, its slots cleared, and the entries placed again, in buckets,
   in twice the slots where it may grow (A TABLE IN REACH, table.c), while the other threads
   have not started yet. */
static void share_table(void)
{
    uint64_t n = 0;
    table_era++;
    entry_t *aside = malloc(sizeof(entry_t) * (table_count ? table_count : 1));
    if (!aside) fault(F_MEMORY, -1, 0, 0);
    for (uint64_t i = 0; i < table_slots && n < table_count; i++)
        if (used_entry(&table[i])) aside[n++] = table[i];
    memset(table, 0, sizeof(entry_t) * table_slots);
    if (n && may_grow()) table_slots *= 2;  /* not an empty table (threads joining at once) */
    table_count = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t key[KEY_WORDS];
        entry_key(&aside[i], key);
        shared_store(key, key_hash(key), &aside[i]);
    }
    free(aside);
}

#ifndef _WIN32
static uint64_t moving_slots, moving_next, moves_done;  /* moving_slots: the old slots */
static int movers;  /* the threads moving entries, until each has found nothing left */

/* with grow_lock held and every other active thread waiting: `count` threads are to move
   the entries, under a mask twice as wide */
static void start_growth(int count)
{
    moving_slots = table_slots; moving_next = 0;
    if (table_slots * 2 <= table_most_slots) table_slots *= 2;
    movers = count;
    growths++;
    pthread_cond_broadcast(&grown);
}

/* every thread of a growth: moves the entries of a share of the old slots at a time, then
   waits for the others (a rare entry lost where two threads write one slot is only work
   done again: the table holds proved bounds, each checked against its key) */
#define MOVE_SHARE 4096
static void help_move(void)
{
    for (;;) {
        uint64_t from = __atomic_fetch_add(&moving_next, MOVE_SHARE, __ATOMIC_RELAXED);
        if (from >= moving_slots) break;
        uint64_t to = from + MOVE_SHARE < moving_slots ? from + MOVE_SHARE : moving_slots;
        for (uint64_t i = from; i < to; i++) {
            entry_t copy, none;
            if (!shared_load(&table[i], &copy)) continue;
            uint64_t key[KEY_WORDS], hash;
            entry_key(&copy, key);
            hash = key_hash(key);
            if (bucket_of(hash) == (i & ~(uint64_t)(PROBES - 1))) continue;  /* in its bucket */
            memset(&none, 0, sizeof none);
            shared_write(&table[i], &none);
            me->new_entries--;
            shared_store(key, hash, &copy);
        }
    }
    add_entries();  /* counted before the growth ends (the last mover clears grow_wanted) */
    pthread_mutex_lock(&grow_lock);
    if (--movers == 0) {
        grow_wanted = 0;
        waiting = 0;
        moves_done++;
        pthread_cond_broadcast(&grown);
    } else {
        uint64_t seen = moves_done;
        while (seen == moves_done) pthread_cond_wait(&grown, &grow_lock);
    }
    pthread_mutex_unlock(&grow_lock);
}

static void wait_for_growth(void)
{
    int move = 0;
    pthread_mutex_lock(&grow_lock);
    if (grow_wanted) {
        move = 1;
        if (++waiting == active) {
            start_growth(waiting);
        } else {
            uint64_t seen = growths;
            while (seen == growths) pthread_cond_wait(&grown, &grow_lock);
        }
    }
    pthread_mutex_unlock(&grow_lock);
    if (move) help_move();
}

static void leave_search(void)  /* a thread that is done: it helps a growth it completes */
{
    int move = 0;
    pthread_mutex_lock(&grow_lock);
    active--;
    if (grow_wanted && active > 0 && waiting == active) start_growth(waiting + 1), move = 1;
    pthread_mutex_unlock(&grow_lock);
    if (move) help_move();
}
#else
static void wait_for_growth(void) { grow_wanted = 0; }
static void leave_search(void) {}
#endif

/* Threads join a search once it has run spawn_at nodes alone (a small search stays with one
   thread: the same search, node for node, as without threads). The table is then shared. */
static void go_parallel(void)
{
    worker_t *w = me;
    share_table();
    memset(busy, 0, sizeof busy);
    for (int i = 0; i <= w->path_ply && i < busy_plies; i++) {  /* the nodes it is in */
        ply_t *q = w->plies[i];
        if (q && q->markable) { q->marked = 1; enter_node(q->hash); }
    }
    shared_table = 1;
    all_nodes = w->nodes;
    w->reported = w->nodes;
    threads = wanted_threads;
#ifndef _WIN32
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, (size_t)64 << 20);
    pthread_mutex_lock(&grow_lock);
    for (; helpers_started < wanted_threads; helpers_started++) {
        if (pthread_create(&helpers[helpers_started], &attributes, helper_main,
                           workers[helpers_started]))
            break;
        active++;
    }
    pthread_mutex_unlock(&grow_lock);
    pthread_attr_destroy(&attributes);
#endif
}

/* algorithm 0: auto, 1: minimax, 2: expectiminimax (auto's search without a table, with
   Star1 when the game has bounds). scale: the search's units (chance games; ignored
   without chance). thread_count: threads for auto with a table (others search alone), the
   helpers joining after spawn_after nodes. reach: the table's size past which it grows only
   where its entries are found again (A TABLE IN REACH, table.c).
   Returns the fault kind (0: none). */
int plies_solve(int algorithm, const int64_t *root_slots, double timeout, int64_t most_nodes,
                int64_t memory, int64_t *out, int32_t *line, int32_t *where,
                void (*progress)(int64_t, double), double every, uint64_t scale_high,
                uint64_t scale_low, int thread_count, int64_t spawn_after, int64_t reach,
                int ctrl_c)
{
    state_t root;
    if (!load_state(&root, root_slots)) { out[0] = F_STATE; return F_STATE; }
    progress_report = progress; report_every = every;
#if HAS_CHANCE
    SCALE = (((value_t)scale_high) << 64) | (value_t)scale_low;
#else
    (void)scale_high; (void)scale_low;
#endif
    start(timeout, most_nodes);
    /* Star1 as in Python: expectiminimax, and auto asked to go without a table */
    star = HAS_BOUNDS && (algorithm == 2 || (algorithm == 0 && memory <= 0));
    use_table = algorithm == 0 && memory > 0 && key_fits(&root);
    /* as in Python: where the values are whole in the game's own units (no chance, or only
       chances whose values stay whole: SCALE 1, Python's scale from the root) */
    null_windows = use_table && HAS_BOUNDS && (!HAS_CHANCE || SCALE == 1)
                   && high_value - low_value > NULL_WINDOW_SPAN;
    threads = 1;
    wanted_threads = use_table && thread_count > 1 ? thread_count : 1;
    spawn_at = INT64_MAX;  /* until the search of the root's moves begins */
    helpers_started = 1;
#ifdef _WIN32
    wanted_threads = 1;
#endif
    if (wanted_threads > MAX_THREADS) wanted_threads = MAX_THREADS;
    busy_plies = 10;
    for (int t = wanted_threads; t > 1; t >>= 1) busy_plies += 2;
    shared_table = 0;
    grow_wanted = 0;
    active = 1; waiting = 0;
    table = NULL; table_slots = table_count = 0;
    reach_bytes = reach > 0 ? (uint64_t)reach : 0;
    if (use_table) {
        /* the most slots that fit the budget (a table grows in place: no old copy beside
           it), mapped at once; the system gives them memory as the table grows into them */
        table_most_slots = 1024;
        while (table_most_slots * 2 * sizeof(entry_t) <= (uint64_t)memory) table_most_slots *= 2;
        while (!(table = table_alloc(table_most_slots)) && table_most_slots > 1024)
            table_most_slots /= 2;
        if (table) table_slots = 1024;
        else use_table = 0;
    }
    worker_t **all = workers;
    int made = 0;
    for (; made < wanted_threads; made++)
        if (!(all[made] = new_worker(made))) break;
    if (made < wanted_threads) {  /* no memory even for the workers */
        for (int i = 0; i < made; i++) free_worker(all[i]);
        table_free(table, table_most_slots); table = NULL; table_slots = 0;
        out[0] = F_MEMORY;
        return F_MEMORY;
    }
    worker_t *caller = all[0], *lined = caller, *failed = caller;
    me = caller;
    winner = failed_first = -1;
    search_root = root;
    handler_t previous = take_ctrl_c(ctrl_c);
    int line_len = 0;
    value_t found = 0;
    int64_t kind = F_NONE;
    if (setjmp(caller->escape) == 0) {
        int64_t utility;
        count_node();
        if (outcome(&root, &utility)) {
            caller->leaves++;
            found = scaled(utility);
        } else if (algorithm == 1) {
            found = minimax_value(&root, 0);
            line_len = caller->plies[0] ? caller->plies[0]->pv_len : 0;
        } else {
            spawn_at = spawn_after;
            if (spawn_at < caller->next_check) caller->next_check = spawn_at;
            search_from_root(caller);
#ifndef _WIN32
            for (int i = 1; i < helpers_started; i++) pthread_join(helpers[i], NULL);
#endif
            me = caller;
            if (winner >= 0) {
                found = winner_value;
                lined = all[winner];
                /* a rule failing as the line is extended (it makes every child of the states
                   along it, where the search may have settled a state with its first): the
                   line as far as it got, the search's own at least */
                if (setjmp(caller->escape) == 0) {
                    if (use_table && lined->plies[0]) extend_line(&root, found, lined->plies[0]);
                }
                line_len = lined->plies[0] ? lined->plies[0]->pv_len : 0;
                caller->fault_kind = F_NONE;
            } else {
                failed = failed_first >= 0 ? all[failed_first] : caller;
                kind = failed->fault_kind;
            }
        }
    } else {
        kind = caller->fault_kind;
    }
    give_ctrl_c_back(ctrl_c, previous);
    progress_report = NULL;
    out[0] = kind;
    put_value(out + 1, found);
    finish(out, line, line_len, where, all, made, lined, failed);
    out[18] = shared_table ? helpers_started : 1;  /* the threads that searched */
    table_free(table, table_most_slots); table = NULL; table_slots = 0;
    for (int i = 0; i < made; i++) free_worker(all[i]);
    me = NULL;
    threads = 1; shared_table = 0;
    return (int)kind;
}

int plies_perft(const int64_t *root_slots, int depth, int64_t *counts, int64_t *terminal,
                int64_t *out, int32_t *where, int ctrl_c)
{
    state_t root;
    if (!load_state(&root, root_slots)) { out[0] = F_STATE; return F_STATE; }
    worker_t *w = new_worker(0);
    if (!w) { out[0] = F_MEMORY; return F_MEMORY; }
    me = w;
    threads = 1;
    start(-1, -1);
    perft_counts = counts; perft_terminal = terminal;
    handler_t previous = take_ctrl_c(ctrl_c);
    if (setjmp(w->escape) == 0) {
        int64_t utility;
        perft_walk(&root, 0, depth, outcome(&root, &utility));
    }
    give_ctrl_c_back(ctrl_c, previous);
    int64_t kind = w->fault_kind;
    out[0] = kind;
    finish(out, NULL, 0, where, &w, 1, w, w);
    free_worker(w);
    me = NULL;
    return (int)kind;
}

void plies_initial(int64_t *slots)
{
    state_t s;
    worker_t w;
    memset(&w, 0, sizeof w);
    me = &w;
    if (setjmp(w.escape) == 0) {
        initial_state(&s);
        for (int i = 0; i < SLOTS; i++) slots[i] = s.s[i];  /* widened to int64_t */
    } else {
        slots[0] = -1;
    }
    me = NULL;
}

int plies_slots(void) { return SLOTS; }

int plies_entry_bytes(void) { return (int)sizeof(entry_t); }
