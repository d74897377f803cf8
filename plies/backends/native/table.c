/* The transposition table of the native searches: what a search has proved of a state's
   value, found by the state's key. After the game's rules (pack_key, written for the game by
   the emitter) and before search.c. One thread probes a plain table (linear probing, growing
   in place); threads share a table of buckets without locks (lazy SMP). As in
   plies/solvers/table.py, it holds proved bounds only, and a full table forgets the entries
   whose subtrees took the least work. */

/* ---- the transposition table: bounds per state, keyed by the state's slots packed into
   KEY_WORDS words (pack_key, written for the game by the emitter). An entry is the key's
   words with the entry's data in their spare bits where it fits (the emitter's
   entry_layout): the lower and upper bounds as offsets from the least value, the best move
   plus one, and the work on a log scale; an extra word only where the bits do not fit.
   Connect Four 7x6's 50 slots take 106 bits of two words, its bounds -1..1 two bits each:
   a 16-byte entry. */

typedef struct { uint64_t w[ENTRY_WORDS]; } entry_t;

static const uint64_t key_mask[ENTRY_WORDS] = KEY_MASKS;  /* each word's key bits */

/* a field of an entry (word, shift, bits: the emitter's *_AT), bits 0 for none */
static inline uint64_t field_get(const uint64_t *w, int word, int shift, int bits)
{
    if (bits == 0) return 0;
    if (bits == 64) return w[word];
    return (w[word] >> shift) & ((1ULL << bits) - 1);
}

static inline void field_put(uint64_t *w, int word, int shift, int bits, uint64_t v)
{
    if (bits == 0) return;
    if (bits == 64) w[word] = v;
    else w[word] |= v << shift;  /* into bits that are still 0 */
}

#define FIELD(w, at) field_get(w, at)
#define PUT_FIELD(w, at, v) field_put(w, at, v)

#if HAS_CHANCE
typedef unsigned __int128 uvalue_t;
#else
typedef uint64_t uvalue_t;
#endif

/* a bound from its field's halves: an offset from VALUE_BASE */
static inline value_t bound_of(uint64_t low, uint64_t high)
{
    uvalue_t u = low;
#if HAS_CHANCE
    u |= (uvalue_t)high << 64;
#else
    (void)high;
#endif
    return (value_t)(u + (uvalue_t)(value_t)VALUE_BASE);
}

static inline uvalue_t bound_code(value_t v) { return (uvalue_t)v - (uvalue_t)(value_t)VALUE_BASE; }

static inline uint64_t high_half(uvalue_t u)
{
#if HAS_CHANCE
    return (uint64_t)(u >> 64);
#else
    (void)u; return 0;
#endif
}

/* The work of an entry's subtree as a small float of WORK_M mantissa bits: exact below
   2^(WORK_M + 1), then within 2^-WORK_M of it. The code is monotone (so codes compare as the
   work does) and never 0 for a stored entry. */
static inline uint64_t work_code(int64_t work)
{
    uint64_t u = work < 1 ? 1 : (uint64_t)work;
    if (u < (1ULL << WORK_M)) return u;
    int e = 63 - __builtin_clzll(u);
    return ((uint64_t)(e - WORK_M + 1) << WORK_M) | ((u >> (e - WORK_M)) & ((1ULL << WORK_M) - 1));
}

static inline int64_t work_of(uint64_t code)
{
    if (code < (1ULL << WORK_M)) return (int64_t)code;
    int e = (int)(code >> WORK_M) + WORK_M - 1;
    return (int64_t)(((1ULL << WORK_M) | (code & ((1ULL << WORK_M) - 1))) << (e - WORK_M));
}

#define used_entry(e) (FIELD((e)->w, WORK_AT) != 0)  /* a stored entry's work is at least 1 */

/* what the table knows of a state, in the search's units */
typedef struct { value_t lower, upper; int best; int64_t work; } known_t;

static inline void entry_read(const entry_t *e, known_t *k)
{
    k->lower = bound_of(FIELD(e->w, LOWER_AT), FIELD(e->w, LOWER_HI_AT));
    k->upper = bound_of(FIELD(e->w, UPPER_AT), FIELD(e->w, UPPER_HI_AT));
    k->best = (int)FIELD(e->w, BEST_AT) - 1;
    k->work = work_of(FIELD(e->w, WORK_AT));
}

static inline void entry_make(entry_t *e, const uint64_t *key, value_t lower, value_t upper,
                              int best, int64_t work)
{
    for (int w = 0; w < ENTRY_WORDS; w++) e->w[w] = w < KEY_WORDS ? key[w] : 0;
    uvalue_t l = bound_code(lower), u = bound_code(upper);
    PUT_FIELD(e->w, LOWER_AT, (uint64_t)l);
    PUT_FIELD(e->w, LOWER_HI_AT, high_half(l));
    PUT_FIELD(e->w, UPPER_AT, (uint64_t)u);
    PUT_FIELD(e->w, UPPER_HI_AT, high_half(u));
    PUT_FIELD(e->w, BEST_AT, (uint64_t)(best + 1));
    PUT_FIELD(e->w, WORK_AT, work_code(work));
}

static inline int key_matches(const entry_t *e, const uint64_t *key)
{
    for (int w = 0; w < KEY_WORDS; w++) if ((e->w[w] & key_mask[w]) != key[w]) return 0;
    return 1;
}

static inline void entry_key(const entry_t *e, uint64_t *key)
{
    for (int w = 0; w < KEY_WORDS; w++) key[w] = e->w[w] & key_mask[w];
}

static entry_t *table;
static uint64_t table_slots, table_count, table_most_slots;
static int use_table;

/* With threads, the table is shared without locks (as chess engines share theirs): it has a
   fixed size, a state lives in one of the PROBES slots of its bucket (a full bucket gives up
   its cheapest entry), and every word is read and written whole. The buckets are aligned
   (PROBES slots from a multiple of PROBES): a 16-byte entry's bucket is one cache line, the
   line key_of asks for ahead (unaligned, three buckets in four spanned two lines, and the
   second was never asked for). An entry of more than one word has its first word stored
   XOR a mix of the others (a bijection of a 2-word entry's second word), so that an entry
   read while another thread wrote it (some words old, some new) decodes to a first word
   that does not hold the state's key: not a hit. */
static int shared_table;
#define PROBES 4

static inline uint64_t rest_mix(const uint64_t *w)
{
    uint64_t h = 0;
    for (int i = 1; i < ENTRY_WORDS; i++) h = (h ^ w[i]) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29; h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);  /* 0 for one word, or all others 0: an empty entry reads empty */
}

#define FIRST_(a, ...) a
#define FIRST(...) FIRST_(__VA_ARGS__)

/* An entry's words, its first decoded: 0 for an empty slot (found, where the work is not in
   the first word, without decoding: most slots a probe reads in a growing table are empty). */
static inline int shared_load(const entry_t *e, entry_t *copy)
{
    for (int i = 0; i < ENTRY_WORDS; i++) copy->w[i] = __atomic_load_n(&e->w[i], __ATOMIC_RELAXED);
    if (FIRST(WORK_AT) != 0 && !used_entry(copy)) return 0;
    copy->w[0] ^= rest_mix(copy->w);
    return used_entry(copy);
}

/* The plain table's linear probing starts from the first slot of a cache line (LINE_SLOTS
   entries, a power of two), the line key_of asks for ahead */
#define LINE_SLOTS (ENTRY_WORDS == 1 ? 8 : ENTRY_WORDS == 2 ? 4 : ENTRY_WORDS == 4 ? 2 : 1)
static inline uint64_t home_of(uint64_t hash)
{
    return hash & (table_slots - 1) & ~(uint64_t)(LINE_SLOTS - 1);
}

static inline uint64_t bucket_of(uint64_t hash)
{
    return hash & (table_slots - 1) & ~(uint64_t)(PROBES - 1);
}

static inline void shared_write(entry_t *e, const entry_t *plain)
{
    for (int i = 1; i < ENTRY_WORDS; i++) __atomic_store_n(&e->w[i], plain->w[i], __ATOMIC_RELAXED);
    __atomic_store_n(&e->w[0], plain->w[0] ^ rest_mix(plain->w), __ATOMIC_RELAXED);
}

static inline uint64_t key_hash(const uint64_t *key)
{
    uint64_t h = 0;
    for (int w = 0; w < KEY_WORDS; w++) h = (h ^ key[w]) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 30; h *= 0xbf58476d1ce4e5b9ULL;  /* splitmix64's finaliser: all bits mixed */
    h ^= h >> 27; h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

/* Where a probe of the plain table stopped (the state's slot, or the empty one that ended
   its run), and the table's era then: store writes there without probing again, unless the
   table has since grown, forgotten or been shared (a new era), or another state's entry has
   since taken the slot (then store probes again, along the longer run). An empty slot that
   is still empty means that no entry of the state was stored since: it would have gone
   there, the run's only empty slot. */
typedef struct { uint64_t slot, era; } probed_t;
static uint64_t table_era;

/* What the table knows of the state (checked, with threads, against a concurrent write): 1
   when found; *at, where the plain table's probe stopped (NULL: not wanted). */
static inline int probe(const uint64_t *key, uint64_t hash, known_t *found, probed_t *at)
{
    uint64_t mask = table_slots - 1;
    if (shared_table) {
        entry_t *bucket = &table[bucket_of(hash)];
        for (int k = 0; k < PROBES; k++) {
            entry_t copy;
            if (!shared_load(&bucket[k], &copy) || !key_matches(&copy, key)) continue;
            entry_read(&copy, found);
            return 1;
        }
        return 0;
    }
    for (uint64_t i = home_of(hash);; i = (i + 1) & mask) {
        entry_t *e = &table[i];
        int used = used_entry(e);
        if (used && !key_matches(e, key)) continue;
        if (at) { at->slot = i; at->era = table_era; }
        if (!used) return 0;
        entry_read(e, found);
        return 1;
    }
}

/* A TABLE IN REACH: a table grows past reach_bytes (REACH_BYTES in engine.py) only where its
   entries are found again, while the hits that settled a state are at least 1/GROW_HITS of
   the states added to it (the thread's own counts); otherwise a full table makes room (the
   plain table forgets its cheaper half, the shared one gives up a bucket's cheapest entry),
   as at the memory budget.
   Past a few tens of megabytes every probe waits on the address translation as well as on
   the memory (under perf, most of key_of's time is the instruction after its prefetch), which
   the table repays only where it is used: Connect Four's settled hits are 0.16-0.22 of its
   entries, and 7x5 took about 0.88 of the time with a 64 MB table (5% more nodes) than with
   512 MB; Kalah's are 0.47-0.76, dots and boxes' 2.5, gomoku's and hexapawn's above 1, and
   there the table's size saves the nodes (Kalah 4/4 made 2.4 times the nodes in 32 MB). A
   fixed size, not the machine's, so that node counts do not depend on the processor. */
#define GROW_HITS 3
static uint64_t reach_bytes;
static inline int may_grow(void)
{
    if (table_slots * 2 > table_most_slots) return 0;
    return table_slots * 2 * sizeof(entry_t) <= reach_bytes || me->hits * GROW_HITS >= me->added;
}

/* With threads, each thread counts the entries it adds to empty slots and adds them to
   table_count COUNT_BATCH at a time: one shared counter written at every store kept 16
   threads waiting on its cache line. The shared table grows once 7/8 of its slots are used
   (the plain table at 5/8: its probes run on to an empty slot, a bucket's stop at 4): every
   thread stops for a growth, and at 5/8 Connect Four 6x5 with 2 threads spent 0.06-0.16 s of
   its 0.8 s in two of them, against 0.02-0.04 s in one at 7/8 (0.72-0.74 s in all against
   0.80-0.83 s, the same nodes). */
#define COUNT_BATCH 256
static void add_entries(void)
{
    uint64_t count = __atomic_add_fetch(&table_count, (uint64_t)me->new_entries, __ATOMIC_RELAXED);
    me->new_entries = 0;
    if (count * 8 > table_slots * 7 && may_grow())
        grow_wanted = 1;  /* the threads stop at their next check, and one of them grows it */
}

/* With threads: the entry is written over the state's own slot in its bucket, else an empty
   one, else the one whose subtree took the least work. 1: a state not in the table before. */
static int shared_store(const uint64_t *key, uint64_t hash, const entry_t *fresh)
{
    uint64_t least = UINT64_MAX;
    entry_t *mine = NULL, *empty = NULL, *cheapest = NULL, *bucket = &table[bucket_of(hash)];
    for (int k = 0; k < PROBES; k++) {
        entry_t *e = &bucket[k], copy;
        uint64_t work = shared_load(e, &copy) ? FIELD(copy.w, WORK_AT) : 0;
        if (!work) { if (!empty) empty = e; continue; }
        if (key_matches(&copy, key)) { mine = e; break; }
        if (work < least) { least = work; cheapest = e; }
    }
    entry_t *e = mine ? mine : empty ? empty : cheapest;
    if (e == empty && !mine && ++me->new_entries >= COUNT_BATCH) add_entries();
    shared_write(e, fresh);
    return !mine;
}

/* The entries in the table. The plain table counts them exactly; the shared one's count is
   what the threads claimed, and two threads that both found a bucket's slot empty both count
   the one entry that stays, so at the end of a search its slots are counted instead. */
static uint64_t table_entries(void)
{
    if (!shared_table) return table_count;
    uint64_t n = 0;
    for (uint64_t i = 0; i < table_slots; i++) {
        entry_t copy;
        n += (uint64_t)shared_load(&table[i], &copy);
    }
    return n;
}

static entry_t *find(const uint64_t *key, uint64_t hash)
{
    uint64_t mask = table_slots - 1;
    for (uint64_t i = home_of(hash);; i = (i + 1) & mask) {
        entry_t *e = &table[i];
        if (!used_entry(e) || key_matches(e, key)) return e;
    }
}

static void place(const entry_t *from)
{
    uint64_t key[KEY_WORDS];
    entry_key(from, key);
    entry_t *e = find(key, key_hash(key));
    if (!used_entry(e)) table_count++;
    *e = *from;
}

/* The table's memory: the most slots it may grow to, mapped once and zero (the system gives
   a page its memory when it is first written, so a table grows in place, and no page is
   zeroed twice), in huge pages where the system allows: a look-up lands anywhere in hundreds
   of megabytes, and 4 KB pages would cost a TLB miss on top of the cache miss. */
#ifdef _WIN32
static entry_t *table_alloc(uint64_t slots) { return calloc(slots, sizeof(entry_t)); }
static void table_free(entry_t *memory, uint64_t slots) { (void)slots; free(memory); }
#else
/* A table is mapped once to its most slots and unmapped whole, whatever it has grown to:
   `slots` is always the mapped count. */
static entry_t *table_alloc(uint64_t slots)
{
    size_t bytes = (size_t)slots * sizeof(entry_t);
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_NORESERVE
    flags |= MAP_NORESERVE;  /* the budget's pages are claimed as the table grows into them */
#endif
    void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
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

/* The table doubles in place (its memory is mapped to the most slots, and the new half is
   still zero): each entry moves to its slot under the wider mask, in the order of the old
   slots from the end of a run (an empty slot), so that an entry's run only passes entries
   already moved; the entries of the first run, and any whose run would wrap past the end,
   are set aside and placed last. */
static void set_aside(entry_t **aside, uint64_t *count, uint64_t *room, const entry_t *e)
{
    if (*count == *room) {
        entry_t *more = realloc(*aside, sizeof(entry_t) * (*room *= 2));
        if (!more) { free(*aside); fault(F_MEMORY, -1, 0, 0); }
        *aside = more;
    }
    (*aside)[(*count)++] = *e;
}

static void grow(uint64_t slots)
{
    table_era++;
    uint64_t old_slots = table_slots, start = 0, count = 0, room = 64;
    entry_t *aside = malloc(sizeof(entry_t) * room);
    if (!aside) fault(F_MEMORY, -1, 0, 0);
    table_slots = slots;
    for (; used_entry(&table[start]); start++) {  /* never full: at most 5/8 */
        set_aside(&aside, &count, &room, &table[start]);
        memset(&table[start], 0, sizeof(entry_t));
    }
    for (uint64_t i = start + 1; i < old_slots; i++) {
        if (!used_entry(&table[i])) continue;
        entry_t moving = table[i];
        uint64_t key[KEY_WORDS];
        entry_key(&moving, key);
        memset(&table[i], 0, sizeof(entry_t));
        uint64_t j = home_of(key_hash(key));  /* under the new mask: table_slots is slots */
        while (j < slots && used_entry(&table[j])) j++;
        if (j < slots) table[j] = moving;
        else set_aside(&aside, &count, &room, &moving);  /* its run would wrap */
    }
    table_count -= count;
    for (uint64_t i = 0; i < count; i++) place(&aside[i]);
    free(aside);
}

/* A full table forgets the cheaper half: the entries whose subtrees took the least work.
   It does so in place, in one pass over the slots in their order from an empty one: a
   forgotten entry's slot is cleared, and a kept entry moves back to the first empty slot of
   its run (from its home slot; every slot before it is already final), so that a probe still
   meets no empty slot before it. Setting the survivors aside, clearing the table and placing
   them again at random took 0.12 s each time on Connect Four 7x5 with --memory 256MB (8
   million slots, 2.6 million kept, eleven times in the search), in place 0.04 s; the same
   entries are kept, the same nodes searched. */
static void make_room(void)
{
    table_era++;
    int64_t sample[1001];
    int n = 0;
    uint64_t stride = table_slots / 4096 + 1;
    for (uint64_t i = 0; i < table_slots && n < 1001; i += stride)
        if (used_entry(&table[i])) sample[n++] = (int64_t)FIELD(table[i].w, WORK_AT);
    int64_t median = 0;  /* codes compare as the work does */
    if (n) {
        for (int i = 1; i < n; i++) {  /* insertion sort of at most 1001 numbers */
            int64_t w = sample[i]; int j = i - 1;
            while (j >= 0 && sample[j] > w) { sample[j + 1] = sample[j]; j--; }
            sample[j + 1] = w;
        }
        median = sample[n / 2];
    }
    uint64_t mask = table_slots - 1, start = 0, kept = 0;
    while (used_entry(&table[start])) start++;  /* never full: at most 5/8 */
    for (uint64_t k = 1; k < table_slots; k++) {
        uint64_t i = (start + k) & mask;
        entry_t *e = &table[i];
        if (!used_entry(e)) continue;
        if ((int64_t)FIELD(e->w, WORK_AT) <= median) { memset(e, 0, sizeof *e); continue; }
        kept++;
        uint64_t key[KEY_WORDS];
        entry_key(e, key);
        entry_t *to = find(key, key_hash(key));  /* an earlier empty slot, or e itself */
        if (to != e) { *to = *e; memset(e, 0, sizeof *e); }
    }
    table_count = kept;
}

static void store(const uint64_t *key, uint64_t hash, const known_t *old, const probed_t *at,
                  int maximizing, value_t v, value_t alpha, value_t beta, int best, int64_t work)
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
    entry_t fresh;
    entry_make(&fresh, key, lower, upper, best, work);
    if (shared_table) {
        me->added += shared_store(key, hash, &fresh);
        return;
    }
    entry_t *e = at && at->era == table_era ? &table[at->slot] : NULL;
    if (!e || (used_entry(e) && !key_matches(e, key))) e = find(key, hash);
    if (!used_entry(e)) {
        if ((table_count + 1) * 8 > table_slots * 5) {  /* at most 5/8 full: short probes */
            if (may_grow()) grow(table_slots * 2);
            else make_room();
            e = find(key, hash);
        }
        table_count++;
        me->added++;
    }
    *e = fresh;
}
