/* The part of every native module before the game's rules: types, faults, checked arithmetic,
   the built-ins of the language (line, threats, connects, liberties, group) and the sink that hands
   each child to the search. The emitter defines SLOTS, MOVES, MAXARGS, HAS_CHANCE, ... */

#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <setjmp.h>
#include <signal.h>
#include <time.h>
#ifndef _WIN32
#include <pthread.h>
#endif
#ifndef _WIN32
#include <sys/mman.h>
#endif

/* A state: its slots in the narrowest type that holds every value each can hold (SLOT_TYPE,
   chosen by the emitter; int64_t when a slot's range is unknown). The rules read them widened
   to int64_t and write them only after the checks of their range; states cross to and from
   Python as int64_t arrays (load_state, below, and plies_initial).
   PLANES: the bit planes of the grids that line tests and threats read, where they fit 64
   bits (the emitter's PlaneGrid): derived from the cells, set by sync_planes and kept up to date by
   every write into a cell; nothing but line tests and threats read them (not the key). */
/* PLANE_VECTORS: the planes' line tests and threats (the emitter's plane_lines and
   plane_threats) shift a plane in every direction at once, in the four lanes of a vector
   (GCC's vector extension), where the build targets AVX2 (build.py's machine_flags): the
   threats of a 7x5 plane in about 3.5 ns instead of 8 (Connect Four 7x5 about 5% faster);
   one direction after another elsewhere, where a vector would be emulated. */
#if defined(__AVX2__) && defined(__GNUC__)
#define PLANE_VECTORS 1
#include <immintrin.h>
typedef uint64_t plane_v __attribute__((vector_size(32)));
/* whether a lane has a bit set (one test of the whole vector) */
static inline int plane_any(plane_v m) { return !_mm256_testz_si256((__m256i)m, (__m256i)m); }
/* the lanes or-ed into one word */
static inline uint64_t plane_or(plane_v m)
{
    __m128i x = _mm_or_si128(_mm256_castsi256_si128((__m256i)m),
                             _mm256_extracti128_si256((__m256i)m, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x)));
}
#else
#define PLANE_VECTORS 0
#endif

typedef SLOT_TYPE slot_t;
typedef INDEX_TYPE index_t;  /* the numbers in the tables of lines: int16_t where they fit */
#if PLANES
typedef struct { slot_t s[SLOTS]; uint64_t p[PLANES]; } state_t;
#else
typedef struct { slot_t s[SLOTS]; } state_t;
#endif

static void sync_planes(state_t *s);  /* the emitter writes it, after this file */

/* a state from SLOTS int64_t values; 0 when one does not fit slot_t */
static int load_state(state_t *s, const int64_t *slots)
{
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i] < SLOT_MIN || slots[i] > SLOT_MAX) return 0;
        s->s[i] = (slot_t)slots[i];
    }
    sync_planes(s);
    return 1;
}

#if HAS_CHANCE
typedef __int128 value_t;
#define VALUE_INF (((__int128)1) << 126)
#else
typedef int64_t value_t;
#define VALUE_INF (((int64_t)1) << 62)
#endif

typedef struct {
    state_t st;
    int64_t args[MAXARGS];
    int64_t utility;
    int64_t weight;
    int32_t kind;
    int32_t index;
    int32_t terminal;
} child_t;

/* MODE_COUNT: every child counted; MODE_CUT: counted, and the expansion stops at a terminal
   child that settles the node (alpha-beta); MODE_QUIET: made, not counted; MODE_PEEK: made, not
   counted, stopping at the first terminal child whose utility is `target` */
enum { MODE_COUNT, MODE_CUT, MODE_QUIET, MODE_PEEK };

typedef struct {
    child_t *buf;
    int n;
    int mode;
    int maximizing;
    value_t v, alpha, beta;
    int best;
    int64_t target;  /* MODE_PEEK: the utility looked for */
} expansion_t;

/* ---- faults: a rule failed, a limit stopped the search, or the values do not fit ---- */

enum {
    F_NONE, F_INDEX, F_RANGE, F_MAGNITUDE, F_OVERFLOW, F_DIVISION, F_LOOP, F_DOMAIN, F_EMPTY,
    F_UNIFORM, F_NO_MOVES, F_BOUNDS, F_INEXACT, F_DEEP, F_MEMORY, F_MAX_NODES, F_TIMEOUT,
    F_INTERRUPTED, F_STATE  /* F_STATE: a state from Python that does not fit slot_t */
};

enum { F_STOPPED = 100 };  /* another thread finished, failed or met a limit: stop too */

/* What each searching thread owns: its way out of a fault, its counters, its buffers per ply
   and the path to the node it is in. One thread searches alone unless --threads asks for more
   (lazy SMP: every thread searches the root, sharing the table). */
struct ply;
/* SMALL SUBTREES (search.c), a ply's counts: its first states stored with the table, the
   nodes they took and the hits that settled a state meanwhile; whether it goes without */
struct small { int64_t stored, work, hits; int untabled; };

typedef struct worker {
    jmp_buf escape;
    int64_t fault_kind, fault_check, fault_a, fault_b;
    int64_t nodes, leaves, cutoffs, hits, expanded;
    int64_t immediate;             /* states settled by IMMEDIATE WINS (search.c's value) */
    int64_t new_entries;           /* with threads: entries added, not yet in table_count */
    int64_t added;                 /* states it added to the table (A TABLE IN REACH, table.c) */
    int64_t next_check, reported;  /* reported: the nodes added to all_nodes so far */
    int id;                        /* 0: the thread that called; 1..: helpers */
    struct ply **plies;            /* MAX_PLY pointers, each ply's buffers made when first met */
    int32_t *path;                 /* MAX_PLY child positions: the moves to the current node */
    int path_ply;
    int partial_known, partial_best;
    value_t partial_value;
    struct small *small;  /* SMALL SUBTREES (search.c): MAX_PLY of them, one a ply */
    int64_t work_done, work_next;  /* the rules' work in this search (count_work, below) */
} worker_t;

/* The thread's worker, in the static TLS block that the C library sets aside at start for the
   modules loaded later (one address computation a use). A process that has loaded a couple of
   hundred games has used that block up; the module is then built again with
   PLIES_DYNAMIC_TLS (plies/backends/native/build.py), whose `me` costs a call a use. */
#ifdef PLIES_DYNAMIC_TLS
static __thread worker_t *me;
#else
static __thread worker_t *me __attribute__((tls_model("initial-exec")));
#endif

static void fault(int64_t kind, int64_t check, int64_t a, int64_t b) __attribute__((noreturn));
static void fault(int64_t kind, int64_t check, int64_t a, int64_t b)
{
    me->fault_kind = kind; me->fault_check = check; me->fault_a = a; me->fault_b = b;
    longjmp(me->escape, 1);
}

static inline int64_t p_add(int64_t a, int64_t b, int64_t check)
{ int64_t r; if (__builtin_add_overflow(a, b, &r)) fault(F_OVERFLOW, check, 0, 0); return r; }
static inline int64_t p_sub(int64_t a, int64_t b, int64_t check)
{ int64_t r; if (__builtin_sub_overflow(a, b, &r)) fault(F_OVERFLOW, check, 0, 0); return r; }
static inline int64_t p_mul(int64_t a, int64_t b, int64_t check)
{ int64_t r; if (__builtin_mul_overflow(a, b, &r)) fault(F_OVERFLOW, check, 0, 0); return r; }
static inline int64_t p_neg(int64_t a, int64_t check)
{ if (a == INT64_MIN) fault(F_OVERFLOW, check, 0, 0); return -a; }
static inline int64_t p_abs(int64_t a, int64_t check)
{ if (a == INT64_MIN) fault(F_OVERFLOW, check, 0, 0); return a < 0 ? -a : a; }
static inline int64_t p_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t p_max(int64_t a, int64_t b) { return a > b ? a : b; }

/* a div b and a mod b round towards minus infinity, as in Python */
static inline int64_t p_div(int64_t a, int64_t b, int64_t check)
{
    if (b == 0) fault(F_DIVISION, check, 0, 0);
    if (a == INT64_MIN && b == -1) fault(F_OVERFLOW, check, 0, 0);
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}
static inline int64_t p_mod(int64_t a, int64_t b, int64_t check)
{
    if (b == 0) fault(F_DIVISION, check, 0, 0);
    if (b == -1) return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

static inline int64_t check_index(int64_t v, int64_t size, int64_t check)
{ if (v < 0 || v >= size) fault(F_INDEX, check, v, size); return v; }
static inline int64_t check_range(int64_t v, int64_t lo, int64_t hi, int64_t check)
{ if (v < lo || v > hi) fault(F_RANGE, check, v, 0); return v; }
static inline int64_t bounded(int64_t v, int64_t check)
{ if (v < -1000000000000000000LL || v > 1000000000000000000LL) fault(F_MAGNITUDE, check, v, 0); return v; }

/* ---- the built-ins over a grid ---- */

static int line_test(const state_t *s, const index_t *lines, int count, int width, int64_t value)
{
    if (value < SLOT_MIN || value > SLOT_MAX) return 0;  /* no slot holds it */
    slot_t v = (slot_t)value;  /* compared as the slots are kept */
    for (int i = 0; i < count; i++) {
        const index_t *cells = lines + (int64_t)i * width;
        int k = 0;
        while (k < width && s->s[cells[k]] == v) k++;
        if (k == width) return 1;
    }
    return 0;
}

/* some line through a written slot holds value in every cell: first[k]..first[k+1] are the
   positions, in `lines`, of the lines through slot k */
static int line_through(const state_t *s, const int64_t *written, int count, const index_t *first,
                        const index_t *lines, int width, int64_t value)
{
    if (value < SLOT_MIN || value > SLOT_MAX) return 0;
    slot_t v = (slot_t)value;
    for (int w = 0; w < count; w++) {
        int64_t slot = written[w];
        if (s->s[slot] != v) continue;  /* every line through it needs it */
        for (int64_t i = first[slot]; i < first[slot + 1]; i++) {
            const index_t *cells = lines + i * width;
            int k = 0;
            while (k < width && s->s[cells[k]] == v) k++;
            if (k == width) return 1;
        }
    }
    return 0;
}

static int connects(const state_t *s, int64_t value, const int64_t *starts, int nstarts,
                    const int64_t *goals, int ngoals, const int64_t *first, const int64_t *near)
{
    int64_t stack[SLOTS];
    unsigned char seen[SLOTS], goal[SLOTS];
    int top = 0;
    memset(seen, 0, sizeof seen);
    memset(goal, 0, sizeof goal);
    for (int i = 0; i < ngoals; i++) goal[goals[i]] = 1;
    for (int i = 0; i < nstarts; i++)
        if (s->s[starts[i]] == value && !seen[starts[i]]) { seen[starts[i]] = 1; stack[top++] = starts[i]; }
    while (top) {
        int64_t slot = stack[--top];
        if (goal[slot]) return 1;
        for (int64_t j = first[slot]; j < first[slot + 1]; j++) {
            int64_t other = near[j];
            if (!seen[other] && s->s[other] == value) { seen[other] = 1; stack[top++] = other; }
        }
    }
    return 0;
}

/* the group of the cell at slot (same value, connected), slot first, breadth-first */
static int64_t group_of(const state_t *s, int64_t slot, const int64_t *first, const int64_t *near,
                        int64_t *cells)
{
    unsigned char seen[SLOTS];
    memset(seen, 0, sizeof seen);
    int64_t value = s->s[slot], count = 1;
    cells[0] = slot; seen[slot] = 1;
    for (int64_t i = 0; i < count; i++)
        for (int64_t j = first[cells[i]]; j < first[cells[i] + 1]; j++) {
            int64_t other = near[j];
            if (!seen[other] && s->s[other] == value) { seen[other] = 1; cells[count++] = other; }
        }
    return count;
}

static int64_t liberties(const state_t *s, int64_t slot, int64_t free_value, const int64_t *first,
                         const int64_t *near)
{
    int64_t cells[SLOTS];
    unsigned char found[SLOTS];
    memset(found, 0, sizeof found);
    int64_t count = group_of(s, slot, first, near, cells), total = 0;
    for (int64_t i = 0; i < count; i++)
        for (int64_t j = first[cells[i]]; j < first[cells[i] + 1]; j++)
            if (s->s[near[j]] == free_value && !found[near[j]]) { found[near[j]] = 1; total++; }
    return total;
}

/* threats(g, v, k, free) over the cells, where the grid has no bit planes for it: the cells of
   the rows x cols grid at offset that hold free and have, along one of the four directions,
   k - 1 cells holding value before and after them together. Each line of the grid in each
   direction is walked twice: forward, noting the run of value just before each cell (back),
   then backward, counting the run just after it. */
static int64_t threats_scan(const state_t *s, int64_t offset, int rows, int cols, int k,
                            int64_t value, int64_t free_value)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    const slot_t *g = s->s + offset;
    int64_t cells = (int64_t)rows * cols, found = 0;
    if (k <= 1) {
        for (int64_t i = 0; i < cells; i++) found += g[i] == free_value;
        return found;
    }
    unsigned char hit[SLOTS];  /* the cells counted: a cell may complete lines two ways */
    int back[SLOTS];  /* by position along the line walked (a line is shorter than SLOTS) */
    memset(hit, 0, (size_t)cells);
    for (int d = 0; d < 4; d++) {
        if ((dr[d] && rows < k) || (dc[d] && cols < k)) continue;  /* no k in a row this way */
        int64_t step = (int64_t)dr[d] * cols + dc[d];
        /* the lines start on the top row (going down) and on the side they leave from */
        int top = dr[d] ? cols : 0, starts = top + (dc[d] ? rows - dr[d] : 0);
        for (int i = 0; i < starts; i++) {
            int r = i < top ? 0 : i - top + dr[d], c = i < top ? i : (dc[d] > 0 ? 0 : cols - 1);
            int n = dr[d] ? rows - r : cols;  /* the line's length */
            if (dc[d] > 0 && cols - c < n) n = cols - c;
            if (dc[d] < 0 && c + 1 < n) n = c + 1;
            if (n < k) continue;
            int64_t at = (int64_t)r * cols + c;
            int run = 0;
            for (int j = 0; j < n; j++, at += step) {
                back[j] = run;
                run = g[at] == value ? run + 1 : 0;
            }
            run = 0;
            for (int j = n - 1; j >= 0; j--) {
                at -= step;
                int64_t held = g[at];
                if (held == free_value && back[j] + run >= k - 1) hit[at] = 1;
                run = held == value ? run + 1 : 0;
            }
        }
    }
    for (int64_t i = 0; i < cells; i++) found += hit[i];
    return found;
}

/* the number of bits set: one instruction where the compiler may use it, else a few shifts */
static inline int64_t bit_count(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int64_t)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* a stable insertion sort of n tuples of `width` values by their keys */
static void sort_by_key(int64_t *values, int64_t *keys, int64_t n, int width)
{
    for (int64_t i = 1; i < n; i++) {
        int64_t key = keys[i], tuple[8];
        for (int k = 0; k < width && k < 8; k++) tuple[k] = values[i * width + k];
        int64_t j = i - 1;
        while (j >= 0 && keys[j] > key) {
            keys[j + 1] = keys[j];
            for (int k = 0; k < width; k++) values[(j + 1) * width + k] = values[j * width + k];
            j--;
        }
        keys[j + 1] = key;
        for (int k = 0; k < width && k < 8; k++) values[(j + 1) * width + k] = tuple[k];
    }
}

/* ---- counting nodes, limits ---- */

static int64_t max_nodes;
static double deadline;
static volatile sig_atomic_t interrupted;
static int threads = 1, wanted_threads = 1;
static void go_parallel(void), wait_for_growth(void), add_entries(void);
static volatile int grow_wanted;
static int64_t spawn_at;  /* nodes searched alone before the other threads join */
static volatile int stop_all;  /* set once any thread is done: the others stop */
static int64_t all_nodes;      /* with threads: the nodes of every thread, added up as they go */

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* progress: called with the nodes so far and the seconds since the start, every
   report_every seconds (NULL: no reports) */
static void (*progress_report)(int64_t, double);
static double report_every, next_report, started_at;

/* Every 4096 nodes: the limits, Ctrl-C, the progress report (by the calling thread only: it
   holds Python's callback) and, with threads, whether another thread is done. The node limit
   counts every thread's nodes: exactly with one thread, within 4096 a thread with more. */
static void check_limits(void)
{
    worker_t *w = me;
    int64_t total = w->nodes;
    if (threads > 1) {
        /* the entries this thread added since, counted: a small shared table would
           otherwise never reach its 7/8 with each thread's batch of up to COUNT_BATCH-1
           uncounted (1,024 slots and two threads joining at once: never grown) */
        if (w->new_entries) add_entries();
        if (grow_wanted) wait_for_growth();
        total = __atomic_add_fetch(&all_nodes, w->nodes - w->reported, __ATOMIC_RELAXED);
        w->reported = w->nodes;
        if (stop_all) fault(F_STOPPED, -1, 0, 0);
    }
    if (wanted_threads > threads && w->id == 0 && w->nodes >= spawn_at) go_parallel();
    if (max_nodes >= 0 && total >= max_nodes) fault(F_MAX_NODES, -1, 0, 0);
    if (interrupted) fault(F_INTERRUPTED, -1, 0, 0);
    if (deadline > 0 || (progress_report && w->id == 0)) {
        double t = now_seconds();
        if (deadline > 0 && t >= deadline) fault(F_TIMEOUT, -1, 0, 0);
        if (progress_report && w->id == 0 && t >= next_report && total > 0) {  /* once counting */
            next_report = t + report_every;
            progress_report(total, t - started_at);
        }
    }
    w->next_check = w->nodes + 4096;
    if (max_nodes >= 0 && threads == 1 && w->next_check > max_nodes) w->next_check = max_nodes;
    if (wanted_threads > threads && w->id == 0 && spawn_at < w->next_check)  /* threads join */
        w->next_check = spawn_at > w->nodes ? spawn_at : w->nodes + 1;  /* after spawn_at */
}

/* The rules' own work: rounds of a loop that may run long (``count_work``, written where the
   lowering marks a loop ``charged``, as the Python back end counts it). About every WORK_CHECK
   rounds the limits are checked as at a node, and every WORK_PER_NODE rounds count as a node
   against --max-nodes (not in the node count): a position whose rules loop 10^12 times stops
   at --timeout, --max-nodes and Ctrl-C like any search. The counters are the worker's (`me`):
   as thread-local variables of their own, each round cost a call to __tls_get_addr in the
   loaded module (3% of an Othello 6x6 search). */
#define WORK_CHECK (1 << 16)
#define WORK_PER_NODE 10000

static void check_limits(void);

static void check_work(void)
{
    me->work_next = me->work_done + WORK_CHECK;
    if (max_nodes >= 0 && me->work_done / WORK_PER_NODE >= max_nodes)
        fault(F_MAX_NODES, -1, 0, 0);
    check_limits();
}

static inline void count_work(int64_t rounds)
{
    me->work_done += rounds;
    if (me->work_done >= me->work_next) check_work();
}

static inline void count_node(void)
{
    if (me->nodes >= me->next_check) check_limits();
    me->nodes++;
}

#if HAS_CHANCE
static value_t SCALE;  /* set by each search: the emitter's D^K, or Python's value_scale */
#else
static const value_t SCALE = 1;
#endif
static value_t low_value, high_value;

/* a utility in the search's units (times SCALE), checked against the bounds */
static inline value_t scaled(int64_t utility)
{
    value_t v;
#if HAS_CHANCE
    if (__builtin_mul_overflow((value_t)utility, SCALE, &v)) fault(F_INEXACT, -1, utility, 0);
#else
    v = utility;
#endif
    if (v < low_value || v > high_value) fault(F_BOUNDS, -1, utility, 0);
    return v;
}

static inline __attribute__((always_inline)) int sink(expansion_t *x)
{
    child_t *c = &x->buf[x->n];
    c->index = x->n;
    x->n++;
    if (x->mode >= MODE_QUIET)
        return x->mode == MODE_PEEK && c->terminal && c->utility == x->target;
    count_node();
    if (x->mode == MODE_CUT && c->terminal) {
        me->leaves++;
        value_t u = scaled(c->utility);
        if (x->maximizing ? u > x->v : u < x->v) {
            x->v = u;
            x->best = c->index;
            if (x->maximizing ? u >= x->beta : u <= x->alpha) return 1;
        }
    }
    return 0;
}
