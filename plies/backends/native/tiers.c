/* plies: solving by tiers in C (plies/backends/native/tiers.py calls it for the workers of
   plies/solvers/tierchunks.py). Built after search.c, whose workers, faults and expansion it
   uses. */

/* ---- tiers: positions packed into 64-bit keys, found and valued (plies/solvers/tiers.py) ----
   spec: SLOTS; then for each slot in the key's order (the first most significant) its slot
   number, radix, least raw value and span of raw values, followed by `span` codes (-1 for a
   raw value the slot never holds) and `radix` raw values; then the tier: how many counted
   slots and (slot, start value) each, how many summed slots and (slot, sign) each; then the
   symmetries: how many, and SLOTS slot numbers each (image[j] = state[permutation[j]]). */

typedef struct {
    int64_t slot, radix, base, span;
    const int64_t *codes, *values;
    uint64_t weight;  /* the product of the radixes of the slots after this one */
} pack_slot_t;
static pack_slot_t packing_slots[SLOTS];
static int64_t tier_counted, tier_summed, symmetry_count;
static const int64_t *tier_counted_at, *tier_summed_at, *symmetry_at;
/* With symmetries: for each, the slot of the image where a state's slot i goes
   (image_slot[g * SLOTS + i] = j where symmetry g's image[j] = state[i]), and the image keys
   of a parent and of its child (image_keys, child_key) */
static int32_t *image_slot;
static uint64_t *parent_images, *child_images;
static int64_t symmetry_room;
/* By state slot, for a child's key and tier from its parent's (child_key): its packing, and
   its part of the tier: counted against the start values counted_start[counted_from[i] ..
   counted_from[i + 1]), plus its value times summed_times[i]. */
static const pack_slot_t *slot_packing[SLOTS];
static int64_t counted_from[SLOTS + 1], summed_times[SLOTS];
static int64_t *counted_start;
static int64_t counted_room;
static uint64_t unpack_rest[SLOTS];  /* for unpack_next, below */
static int unpack_ready;

static int tier_setup(const int64_t *spec)
{
    if (spec[0] != SLOTS) return 0;
    const int64_t *p = spec + 1;
    for (int j = 0; j < SLOTS; j++) {
        pack_slot_t *k = &packing_slots[j];
        k->slot = p[0]; k->radix = p[1]; k->base = p[2]; k->span = p[3];
        k->codes = p + 4;
        k->values = p + 4 + k->span;
        for (int64_t v = 0; v < k->radix; v++)  /* every value unpacked fits a slot */
            if (k->values[v] < SLOT_MIN || k->values[v] > SLOT_MAX) return 0;
        p += 4 + k->span + k->radix;
    }
    uint64_t weight = 1;
    for (int j = SLOTS - 1; j >= 0; j--) {
        packing_slots[j].weight = weight;
        weight *= (uint64_t)packing_slots[j].radix;
    }
    tier_counted = p[0]; tier_counted_at = p + 1; p += 1 + 2 * tier_counted;
    tier_summed = p[0]; tier_summed_at = p + 1; p += 1 + 2 * tier_summed;
    symmetry_count = p[0]; symmetry_at = p + 1;
    for (int64_t i = 0; i < symmetry_count * SLOTS; i++)
        if (symmetry_at[i] < 0 || symmetry_at[i] >= SLOTS) return 0;
    if (symmetry_count > symmetry_room) {
        int32_t *slots = realloc(image_slot, (size_t)symmetry_count * SLOTS * sizeof *slots);
        if (slots) image_slot = slots;
        uint64_t *a = realloc(parent_images, (size_t)symmetry_count * sizeof *a);
        if (a) parent_images = a;
        uint64_t *b = realloc(child_images, (size_t)symmetry_count * sizeof *b);
        if (b) child_images = b;
        if (!slots || !a || !b) return 0;
        symmetry_room = symmetry_count;
    }
    for (int64_t g = 0; g < symmetry_count; g++)
        for (int j = 0; j < SLOTS; j++)
            image_slot[g * SLOTS + symmetry_at[g * SLOTS + j]] = j;
    for (int j = 0; j < SLOTS; j++) {
        if (packing_slots[j].slot < 0 || packing_slots[j].slot >= SLOTS) return 0;
        slot_packing[packing_slots[j].slot] = &packing_slots[j];
    }
    if (tier_counted > counted_room) {
        int64_t *room = realloc(counted_start, (size_t)tier_counted * sizeof *room);
        if (!room) return 0;
        counted_start = room;
        counted_room = tier_counted;
    }
    int64_t n = 0;
    for (int i = 0; i < SLOTS; i++) {
        counted_from[i] = n;
        for (int64_t c = 0; c < tier_counted; c++)
            if (tier_counted_at[2 * c] == i) counted_start[n++] = tier_counted_at[2 * c + 1];
        summed_times[i] = 0;
        for (int64_t c = 0; c < tier_summed; c++)
            if (tier_summed_at[2 * c] == i) summed_times[i] += tier_summed_at[2 * c + 1];
    }
    counted_from[SLOTS] = n;
    unpack_ready = 0;
    return 1;
}

/* unpack_next: a key's state from the last key's (unpack_last), rewriting only the slots from
   the least significant up to the first whose remaining quotient is the last key's (and their
   bits in the planes: plane_slot, emitted with sync_planes): the keys of a chunk are sorted,
   so most neighbours differ only in their low-order slots.
   unpack_rest[j] is the last key divided by the weight of slot j - 1 (what is left once slots
   j.. are taken off); unpack_ready is 0 until a key was unpacked since the spec was read. */
static void unpack_next(uint64_t k, state_t *s)
{
    uint64_t low = k;
    for (int j = SLOTS - 1; j >= 0; j--) {
        const pack_slot_t *p = &packing_slots[j];
        uint64_t a = low / (uint64_t)p->radix;
        s->s[p->slot] = (slot_t)p->values[low - a * (uint64_t)p->radix];  /* fits: tier_setup */
        plane_slot(s, (int)p->slot);  /* its bits in the planes of its grid, if planed */
        if (unpack_ready && unpack_rest[j] == a) return;  /* the slots before j are as they were */
        unpack_rest[j] = a;
        low = a;
    }
    unpack_ready = 1;
}

/* CANONICAL KEYS, as least_key in plies/solvers/symmetry.py: a position's key is the least
   of its own and its images' under the symmetries */
static inline uint64_t least_key(uint64_t key, const uint64_t *images)
{
    for (int64_t g = 0; g < symmetry_count; g++)
        if (images[g] < key) key = images[g];
    return key;
}

/* The key and tier of a child from its parent's, through the slots the move changed (a move
   changes few; a key is the sum of each slot's code times its weight, the same number as
   Python's mixed radix packing): *key, the parent's own key in and the child's canonical key
   out, its images' keys made from the parent's (`images`, from image_keys; the slot i of a
   state is the slot image_slot[g][i] of its image); 0 when a value of the child has no slot
   code. */
static int child_key(const state_t *parent, const state_t *child, uint64_t *key, int64_t *tier,
                     const uint64_t *images)
{
    uint64_t k = *key;
    int64_t t = *tier;
    for (int64_t g = 0; g < symmetry_count; g++) child_images[g] = images[g];
    for (int from = 0; from < SLOTS; from += 64) {
        /* the changed slots as bits, found without a branch per slot (which slots a move
           changes varies from child to child: branches on it are mispredicted), then
           visited bit by bit */
        int end = SLOTS - from > 64 ? from + 64 : SLOTS;
        uint64_t changed = 0;
        const slot_t *a = parent->s, *b = child->s;
        int i = from;
        for (; i + 4 <= end; i += 4)  /* four at a time: independent compares */
            changed |= (uint64_t)((a[i] != b[i]) | (a[i + 1] != b[i + 1]) << 1 |
                                  (a[i + 2] != b[i + 2]) << 2 | (a[i + 3] != b[i + 3]) << 3)
                       << (i - from);
        for (; i < end; i++)
            changed |= (uint64_t)(a[i] != b[i]) << (i - from);
        while (changed) {
            int i = from + __builtin_ctzll(changed);
            changed &= changed - 1;
            int64_t was = parent->s[i], now = child->s[i];
            const pack_slot_t *p = slot_packing[i];
            uint64_t v = (uint64_t)(now - p->base);
            if (v >= (uint64_t)p->span || p->codes[v] < 0) return 0;
            k += (uint64_t)(p->codes[v] - p->codes[was - p->base]) * p->weight;
            for (int64_t c = counted_from[i]; c < counted_from[i + 1]; c++)
                t += (now != counted_start[c]) - (was != counted_start[c]);
            t += (now - was) * summed_times[i];
            for (int64_t g = 0; g < symmetry_count; g++) {
                const pack_slot_t *q = slot_packing[image_slot[g * SLOTS + i]];
                uint64_t u = (uint64_t)(now - q->base);
                if (u >= (uint64_t)q->span || q->codes[u] < 0) return 0;
                child_images[g] +=
                    (uint64_t)(q->codes[u] - q->codes[was - q->base]) * q->weight;
            }
        }
    }
    *key = least_key(k, child_images);
#if HAS_DECLARED_TIER
    t = declared_tier(child);  /* the game's own tier, read whole */
#endif
    *tier = t;
    return 1;
}

/* The keys of the images of s under the symmetries, which keep the tier (the solve uses them
   only then: tier_symmetries in plies/commands/solution.py); 0 when an image has a value
   without a slot code. A child's come from its parent's through the slots its move changed
   (child_key). */
static int image_keys(const state_t *s, uint64_t *images)
{
    for (int64_t g = 0; g < symmetry_count; g++) {
        const int64_t *permutation = symmetry_at + g * SLOTS;
        uint64_t k = 0;
        for (int j = 0; j < SLOTS; j++) {
            const pack_slot_t *p = &packing_slots[j];
            uint64_t v = (uint64_t)(s->s[permutation[p->slot]] - p->base);
            if (v >= (uint64_t)p->span || p->codes[v] < 0) return 0;
            k += (uint64_t)p->codes[v] * p->weight;
        }
        images[g] = k;
    }
    return 1;
}

static int64_t tier_of_state(const state_t *s)
{
#if HAS_DECLARED_TIER
    return declared_tier(s);
#endif
    int64_t t = 0;
    for (int64_t i = 0; i < tier_counted; i++)
        t += s->s[tier_counted_at[2 * i]] != tier_counted_at[2 * i + 1];
    for (int64_t i = 0; i < tier_summed; i++)
        t += s->s[tier_summed_at[2 * i]] * tier_summed_at[2 * i + 1];
    return t;
}

enum { TIER_SPEC = -2, TIER_FULL = -3, TIER_PACK = -4, TIER_MISSING = -5, TIER_VALUE = -6,
       TIER_LOWER = -7, TIER_INDEX = -8, TIER_GROUPS = -9 };

/* What both tier calls do first: read the tier's spec and start one worker, alone. Returns 0,
   or the kind of refusal (also in out[0]). */
static int tier_begin(const int64_t *spec, int64_t *out, worker_t **w)
{
    if (!tier_setup(spec)) { out[0] = TIER_SPEC; return TIER_SPEC; }
    *w = new_worker(0);
    if (!*w) { out[0] = F_MEMORY; return F_MEMORY; }
    me = *w;
    threads = 1;
    start(-1, -1);
    return 0;
}

/* The tiers' fast path keeps a chunk's children here between calls (one call at a time: the
   tier calls run alone in their process). */
static uint64_t *found_keys;
static int64_t *found_tiers;
static int64_t found_room;

static int found_grow(int64_t need)  /* 0 when memory runs out */
{
    if (need <= found_room) return 1;
    int64_t room = found_room ? found_room : 1024;
    while (room < need) room *= 2;
    uint64_t *keys = realloc(found_keys, (size_t)room * sizeof *keys);
    if (!keys) return 0;
    found_keys = keys;
    int64_t *tiers = realloc(found_tiers, (size_t)room * sizeof *tiers);
    if (!tiers) return 0;
    found_tiers = tiers;
    found_room = room;
    return 1;
}

/* Sorts a[0..n) increasingly by their bytes from the least significant (a radix sort), skipping
   the bytes all keys share; tmp has room for n keys. */
static void sort_keys(uint64_t *a, uint64_t *tmp, int64_t n)
{
    if (n < 32) {
        for (int64_t i = 1; i < n; i++) {
            uint64_t k = a[i];
            int64_t j = i;
            while (j > 0 && a[j - 1] > k) { a[j] = a[j - 1]; j--; }
            a[j] = k;
        }
        return;
    }
    uint64_t differ = 0;
    for (int64_t i = 1; i < n; i++) differ |= a[i] ^ a[0];
    uint64_t *from = a, *to = tmp;
    for (int shift = 0; shift < 64; shift += 8) {
        if (((differ >> shift) & 0xFF) == 0) continue;
        int64_t at[256] = {0};
        for (int64_t i = 0; i < n; i++) at[(from[i] >> shift) & 0xFF]++;
        int64_t sum = 0;
        for (int b = 0; b < 256; b++) { int64_t c = at[b]; at[b] = sum; sum += c; }
        for (int64_t i = 0; i < n; i++) to[at[(from[i] >> shift) & 0xFF]++] = from[i];
        uint64_t *swap = from; from = to; to = swap;
    }
    if (from != a) memcpy(a, from, (size_t)n * sizeof *a);
}

static int64_t unique_keys(uint64_t *a, int64_t n)  /* sorted a without repeats: their count */
{
    int64_t m = n > 0;
    for (int64_t i = 1; i < n; i++)
        if (a[i] != a[m - 1]) a[m++] = a[i];
    return m;
}

/* The children of keys[0..n), positions of tier `tier`, grouped by tier in increasing order,
   each group sorted without repeats: group g is group_counts[g] keys of tier group_tiers[g], the
   groups one after the other in child_keys. out: the kind (0, a fault or TIER_*), the key
   reached, the groups, the children counted with repeats. TIER_FULL: more children than
   `capacity` (out[3] of them: call again with that room); TIER_GROUPS: children in more than
   `most_groups` tiers; TIER_LOWER: a child in a lower tier (Python then says where). */
int plies_tier_found(const int64_t *spec, const uint64_t *keys, int64_t n, int64_t tier,
                     uint64_t *child_keys, int64_t capacity, int64_t *group_tiers,
                     int64_t *group_counts, int64_t most_groups, int64_t *out)
{
    worker_t *w;
    int refused = tier_begin(spec, out, &w);
    if (refused) return refused;
    int64_t kind = 0, groups = 0;
    volatile int64_t i = 0, used = 0;
    if (!found_grow(8 * n + 64)) kind = F_MEMORY;
    else if (setjmp(w->escape) == 0) {
        ply_t *p = ply_at(0);
        state_t s;  /* kept from key to key: unpack_next rewrites the slots that changed, and
                       their bits in the planes (the first key rewrites every slot) */
        memset(&s, 0, sizeof s);
        for (; i < n; i++) {
            int64_t utility;
            unpack_next(keys[i], &s);
            if (outcome(&s, &utility)) {
#if HAS_BOUNDS  /* as the strong solve in memory: a utility outside the declared bounds */
                if (utility < BOUND_LOW || utility > BOUND_HIGH) { kind = F_BOUNDS; break; }
#endif
                continue;
            }
            expansion_t x = {p->buf, 0, MODE_QUIET, 0, 0, 0, 0, -1};
            expand(&s, &x);
            if (x.n == 0) { kind = F_NO_MOVES; break; }
            if (used + x.n > found_room && !found_grow(used + x.n)) { kind = F_MEMORY; break; }
            if (!image_keys(&s, parent_images)) { kind = TIER_PACK; break; }
            int64_t at = used;
            for (int c = 0; c < x.n; c++, at++) {
                uint64_t key = keys[i];
                int64_t t = tier;
                if (!child_key(&s, &p->buf[c].st, &key, &t, parent_images)) {
                    kind = TIER_PACK;
                    break;
                }
                if (t < tier) { kind = TIER_LOWER; break; }
                found_keys[at] = key;
                found_tiers[at] = t;
            }
            if (kind) break;
            used = at;
        }
    } else {
        kind = w->fault_kind;
    }
    if (!kind && used > capacity) kind = TIER_FULL;
    if (!kind) {  /* the groups' tiers, in increasing order */
        for (int64_t j = 0; j < used && !kind; j++) {
            int64_t t = found_tiers[j], g = 0;
            while (g < groups && group_tiers[g] < t) g++;
            if (g < groups && group_tiers[g] == t) continue;
            if (groups == most_groups) { kind = TIER_GROUPS; break; }
            memmove(group_tiers + g + 1, group_tiers + g, (size_t)(groups - g) * sizeof *group_tiers);
            group_tiers[g] = t;
            groups++;
        }
    }
    if (!kind) {
        if (groups == 1) {
            memcpy(child_keys, found_keys, (size_t)used * sizeof *child_keys);
            group_counts[0] = used;
        } else {  /* each child to its group's place */
            int64_t *at = found_tiers;  /* read before written over */
            for (int64_t g = 0; g < groups; g++) group_counts[g] = 0;
            for (int64_t j = 0; j < used; j++) {
                int64_t g = 0;
                while (group_tiers[g] != at[j]) g++;
                group_counts[g]++;
                at[j] = g;
            }
            int64_t place[groups > 0 ? groups : 1], sum = 0;
            for (int64_t g = 0; g < groups; g++) { place[g] = sum; sum += group_counts[g]; }
            for (int64_t j = 0; j < used; j++) child_keys[place[at[j]]++] = found_keys[j];
        }
        int64_t from = 0, to = 0;  /* sorted, without repeats, packed together */
        for (int64_t g = 0; g < groups; g++) {
            int64_t count = group_counts[g];
            sort_keys(child_keys + from, found_keys, count);
            int64_t kept = unique_keys(child_keys + from, count);
            memmove(child_keys + to, child_keys + from, (size_t)kept * sizeof *child_keys);
            from += count;
            to += kept;
            group_counts[g] = kept;
        }
    }
    out[0] = kind; out[1] = i; out[2] = groups; out[3] = used;
    free_worker(w);
    me = NULL;
    return (int)kind;
}

/* Merges `nruns` sorted runs (counts[r] keys each) into out, sorted without repeats (a heap
   of the runs by their next key): the count written, or -1 when memory runs out. */
int64_t plies_tier_merge(int64_t nruns, const uint64_t *const *runs, const int64_t *counts,
                         uint64_t *out)
{
    int64_t *heap = malloc((size_t)(nruns > 0 ? nruns : 1) * sizeof *heap);
    int64_t *at = calloc((size_t)(nruns > 0 ? nruns : 1), sizeof *at);
    if (!heap || !at) { free(heap); free(at); return -1; }
    int64_t size = 0, m = 0;
#define HEAD(r) runs[r][at[r]]
    for (int64_t r = 0; r < nruns; r++) {
        if (counts[r] == 0) continue;
        int64_t j = size++;  /* sift up */
        while (j > 0 && HEAD(heap[(j - 1) / 2]) > HEAD(r)) { heap[j] = heap[(j - 1) / 2]; j = (j - 1) / 2; }
        heap[j] = r;
    }
    while (size) {
        int64_t r = heap[0];
        uint64_t k = HEAD(r);
        if (m == 0 || out[m - 1] != k) out[m++] = k;
        if (++at[r] == counts[r]) {
            r = heap[--size];
            if (size == 0) break;
        }
        uint64_t head = HEAD(r);
        int64_t j = 0;  /* sift down */
        for (;;) {
            int64_t c = 2 * j + 1;
            if (c >= size) break;
            if (c + 1 < size && HEAD(heap[c + 1]) < HEAD(heap[c])) c++;
            if (HEAD(heap[c]) >= head) break;
            heap[j] = heap[c];
            j = c;
        }
        heap[j] = r;
    }
#undef HEAD
    free(heap);
    free(at);
    return m;
}

/* A bucket index of the sorted keys[0..count), for plies_tier_values: shape = (least key,
   shift, buckets) and index[b], for b = 0..buckets, the first key whose (key - least) >> shift
   is at least b; `room` (at least 2) entries of index may be used. */
void plies_tier_index(const uint64_t *keys, int64_t count, int64_t *index, int64_t room,
                      int64_t *shape)
{
    uint64_t least = count ? keys[0] : 0, span = count ? keys[count - 1] - least : 0;
    int shift = 0;
    while ((span >> shift) >= (uint64_t)(room - 1)) shift++;
    int64_t buckets = (int64_t)(span >> shift) + 1, i = 0;
    for (int64_t b = 0; b <= buckets; b++) {
        while (i < count && (int64_t)((keys[i] - least) >> shift) < b) i++;
        index[b] = i;
    }
    shape[0] = (int64_t)least; shape[1] = shift; shape[2] = buckets;
}

/* The record (value: int16, remoteness: uint16, little-endian) of each key, from its
   children's records in the solved later tiers: tier_ids[t], whose sorted keys and records are
   tier_keys[t] and tier_records[t] (tier_counts[t] of them), found through the bucket index
   tier_index[t] of shape tier_shape[3t..3t+2] (plies_tier_index). out: the kind, the key
   reached, and for TIER_INDEX (a tier needed whose index is NULL) that tier's t. */
int plies_tier_values(const int64_t *spec, const uint64_t *keys, int64_t n, int64_t ntiers,
                      const int64_t *tier_ids, uint64_t **tier_keys, uint8_t **tier_records,
                      const int64_t *tier_counts, int64_t **tier_index,
                      const int64_t *tier_shape, uint8_t *records, int64_t *out)
{
    worker_t *w;
    int refused = tier_begin(spec, out, &w);
    if (refused) return refused;
    int64_t kind = 0, last = 0;
    volatile int64_t i = 0;
    if (setjmp(w->escape) == 0) {
        ply_t *p = ply_at(0);
        state_t s;  /* as in plies_tier_found */
        memset(&s, 0, sizeof s);
        for (; i < n && !kind; i++) {
            int64_t utility, value, far;
            unpack_next(keys[i], &s);
            if (outcome(&s, &utility)) {
                value = utility;
                far = 0;
            } else {
                int maximizing = to_move(&s) == 1;
                expansion_t x = {p->buf, 0, MODE_QUIET, 0, 0, 0, 0, -1};
                expand(&s, &x);
                if (x.n == 0) { kind = F_NO_MOVES; break; }
                int64_t kid_value[x.n], kid_far[x.n], here = tier_of_state(&s);
                if (!image_keys(&s, parent_images)) { kind = TIER_PACK; break; }
                /* In three passes over the children, so that their memory is fetched side by
                   side (a solved tier is larger than the caches): each child's key, tier and
                   bucket (its index entry prefetched); its bucket's bounds (its first key
                   prefetched); the search in the bucket and the child's record. */
                uint64_t kid_key[x.n];
                int64_t kid_t[x.n], kid_lo[x.n], kid_hi[x.n];
                for (int c = 0; c < x.n; c++) {
                    uint64_t key = keys[i];
                    int64_t tier = here;
                    if (!child_key(&s, &p->buf[c].st, &key, &tier, parent_images)) {
                        kind = TIER_PACK;
                        break;
                    }
                    int64_t t = last;
                    if (t >= ntiers || tier_ids[t] != tier) {
                        t = 0;
                        while (t < ntiers && tier_ids[t] != tier) t++;
                        if (t == ntiers) { kind = TIER_MISSING; break; }
                        last = t;
                    }
                    const int64_t *index = tier_index[t], *shape = tier_shape + 3 * t;
                    if (!index) { kind = TIER_INDEX; out[2] = t; break; }
                    uint64_t bucket = (key - (uint64_t)shape[0]) >> shape[1];
                    if (key < (uint64_t)shape[0] || bucket >= (uint64_t)shape[2]) {
                        kind = TIER_MISSING;
                        break;
                    }
                    __builtin_prefetch(index + bucket);
                    kid_key[c] = key;
                    kid_t[c] = t;
                    kid_lo[c] = (int64_t)bucket;
                }
                if (kind) break;
                for (int c = 0; c < x.n; c++) {
                    const int64_t *index = tier_index[kid_t[c]];
                    int64_t bucket = kid_lo[c];
                    kid_lo[c] = index[bucket];
                    kid_hi[c] = index[bucket + 1];
                    __builtin_prefetch(tier_keys[kid_t[c]] + kid_lo[c]);
                }
                for (int c = 0; c < x.n; c++) {
                    /* the first key of the bucket not below the child's, by halving without
                       a branch on the keys (which way a search goes is not predictable) */
                    const uint64_t *sorted = tier_keys[kid_t[c]], *at = sorted + kid_lo[c];
                    uint64_t key = kid_key[c];
                    int64_t left = kid_hi[c] - kid_lo[c];
                    if (left == 0) { kind = TIER_MISSING; break; }
                    while (left > 1) {
                        int64_t half = left / 2;
                        at = at[half - 1] < key ? at + half : at;
                        left -= half;
                    }
                    if (*at != key) { kind = TIER_MISSING; break; }
                    const uint8_t *r = tier_records[kid_t[c]] + 4 * (at - sorted);
                    kid_value[c] = (int16_t)(r[0] | (r[1] << 8));
                    kid_far[c] = r[2] | (r[3] << 8);
                    if (kid_far[c] >= 0xFFFE && kid_far[c] != 0xFFFF) { kind = TIER_VALUE; break; }
                }
                if (kind) break;
                value = kid_value[0];
                for (int c = 1; c < x.n; c++)
                    if (maximizing ? kid_value[c] > value : kid_value[c] < value) value = kid_value[c];
                int hurry = value == 0 || (value > 0) == maximizing;
                far = hurry ? 0xFFFF : -1;
                for (int c = 0; c < x.n; c++) {
                    if (kid_value[c] != value) continue;
                    if (hurry) {
                        if (kid_far[c] != 0xFFFF && kid_far[c] + 1 < far) far = kid_far[c] + 1;
                    } else if (kid_far[c] == 0xFFFF || far == 0xFFFF) {
                        far = 0xFFFF;
                    } else if (kid_far[c] + 1 > far) {
                        far = kid_far[c] + 1;
                    }
                }
            }
            if (value < -0x7FFF || value > 0x7FFF || far > 0xFFFF || far < 0) {
                kind = TIER_VALUE;
                break;
            }
            uint8_t *r = records + 4 * i;
            r[0] = (uint8_t)(value & 0xFF); r[1] = (uint8_t)((value >> 8) & 0xFF);
            r[2] = (uint8_t)(far & 0xFF); r[3] = (uint8_t)((far >> 8) & 0xFF);
        }
    } else {
        kind = w->fault_kind;
    }
    out[0] = kind; out[1] = i;
    free_worker(w);
    me = NULL;
    return (int)kind;
}
