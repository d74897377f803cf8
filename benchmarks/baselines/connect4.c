/* A hand-written Connect Four solver, as tight as we know how to write one: the baseline that
   `plies solve games/connect4.game --backend native` is measured against
   (benchmarks/connect4_native.py).

   Weak solve: win (+1), draw (0) or loss (-1) for the first player, on any board of at most 55
   bit positions (width * (height + 1)), 7x6 included. The techniques are the classic ones:

   - Bitboards. Column c owns bits c*(H+1) .. c*(H+1)+H-1 (bottom up) and one empty bit above,
     so that no line test by shifting wraps from one column into the next. A position is
     `mine` (the stones of the player to move) and `mask` (all stones).
   - The cells where a player would complete four are found for the whole board at once by
     shifts in the four directions (`winning_cells`).
   - Immediate-loss pruning: a node never plays below a cell where the opponent would win
     (the opponent would win there next), answers a single playable opponent threat at once,
     and is lost when the opponent has two. So no child ever has an immediate win, and only
     the root tests for one.
   - Move ordering by threats: the moves left are tried by the number of cells where the mover
     would then complete four, centre first among equals, after the table's best move.
   - A transposition table of 8-byte entries, a prime number of them: a key (the position as
     mine + mask + bottom row, unique) is stored as its low 32 bits, which with its index
     (the key modulo the prime, larger than 2^(bits - 32)) tell it apart from every other key.
     Each entry keeps a lower and an upper bound and the best column; a newer entry replaces
     an older one.
   - Null-window searches: is the first player's value above 0? then above -1 or below 1.
   - Symmetry: a position that is its own mirror image (the empty board, discs in the middle
     column only) has mirror moves of equal worth; in such a position of fewer than
     SYMMETRY_PLIES discs the moves right of the middle are not searched. plies does the same
     from games/connect4.game's `symmetry mirror` (plies/solvers/symmetry.py).

   Build: cc -O3 -shared -fPIC connect4.c -o connect4.so (c4_solve through ctypes) or
   cc -O3 -DC4_MAIN connect4.c -o connect4 (./connect4 WIDTH HEIGHT prints value, nodes,
   seconds); -DWIDTH=6 -DHEIGHT=5 fixes the board when compiling, as the benchmark does. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef WIDTH  /* a board fixed when compiling (-DWIDTH=7 -DHEIGHT=6): shifts by constants */
enum { W = WIDTH, H = HEIGHT };
#else
static int W, H;
#endif
static uint64_t bottom, board;  /* the bottom cell of every column; every cell */
static uint64_t columns[16];     /* the cells of each column */
static int order[16];            /* centre first */
static int64_t nodes;

typedef struct {
    uint32_t key;
    int8_t lower, upper;
    uint8_t best;  /* the column of the best move, 255 for none */
    uint8_t used;
} entry_t;

static entry_t *table;
static uint64_t slots;

static uint64_t winning_cells(uint64_t mine, uint64_t mask)
{
    uint64_t r = (mine << 1) & (mine << 2) & (mine << 3);  /* vertical: three below */
    const int steps[3] = {H + 1, H, H + 2};                /* horizontal and both diagonals */
    for (int k = 0; k < 3; k++) {
        int s = steps[k];
        uint64_t two = (mine << s) & (mine << 2 * s);      /* the two cells on one side */
        r |= two & (mine << 3 * s);
        r |= two & (mine >> s);
        two = (mine >> s) & (mine >> 2 * s);               /* ... on the other side */
        r |= two & (mine << s);
        r |= two & (mine >> 3 * s);
    }
    return r & (board ^ mask);
}

static inline uint64_t playable(uint64_t mask) { return (mask + bottom) & board; }

enum { SYMMETRY_PLIES = 16 };

static uint64_t mirror(uint64_t x)  /* the position turned left to right */
{
    uint64_t m = 0, column = ((uint64_t)1 << (H + 1)) - 1;
    for (int c = 0; c < W; c++) m |= ((x >> (c * (H + 1))) & column) << ((W - 1 - c) * (H + 1));
    return m;
}

static inline int count_bits(uint64_t x) { return __builtin_popcountll(x); }

static int is_prime(uint64_t n)
{
    if (n < 2) return 0;
    for (uint64_t d = 2; d * d <= n; d++) if (n % d == 0) return 0;
    return 1;
}

/* The value for the player to move of a position where that player cannot win at once:
   fail-soft alpha-beta within (alpha, beta) on the values -1, 0, 1. */
static int negamax(uint64_t mine, uint64_t mask, int moves, int alpha, int beta)
{
    nodes++;
    uint64_t theirs = mine ^ mask;
    uint64_t threats = winning_cells(theirs, mask);
    uint64_t open = playable(mask);
    uint64_t forced = open & threats;
    if (forced) {
        if (forced & (forced - 1)) return -1;  /* two threats: one of them wins */
        open = forced;
    }
    open &= ~(threats >> 1);                  /* never play below an opponent's win */
    if (!open) return -1;
    if (moves >= W * H - 2) return 0;         /* two cells left, neither side wins there */

    uint64_t key = mine + mask + bottom;
    entry_t *e = &table[key % slots];
    int best = 255;
    if (e->used && e->key == (uint32_t)key) {
        if (e->lower >= beta) return e->lower;
        if (e->upper <= alpha) return e->upper;
        if (e->lower > alpha) alpha = e->lower;
        if (e->upper < beta) beta = e->upper;
        best = e->best;
    }
    if (alpha < -1) alpha = -1;
    if (beta > 1) beta = 1;
    if (moves < SYMMETRY_PLIES && mirror(mask) == mask && mirror(mine) == mine) {
        for (int c = (W + 1) / 2; c < W; c++) open &= ~columns[c];  /* the mirror moves */
        if (best != 255 && best >= (W + 1) / 2) best = W - 1 - best;
    }

    /* the moves, best first: the table's move, then by the threats each one makes */
    uint64_t move[16];
    int score[16], column[16], n = 0;
    for (int i = 0; i < W; i++) {
        int c = order[i];
        uint64_t m = open & columns[c];
        if (!m) continue;
        int s = c == best ? 1000 : count_bits(winning_cells(mine | m, mask | m));
        int j = n++;
        while (j > 0 && score[j - 1] < s) {   /* insertion, stable for equal scores */
            move[j] = move[j - 1]; score[j] = score[j - 1]; column[j] = column[j - 1]; j--;
        }
        move[j] = m; score[j] = s; column[j] = c;
    }

    int alpha_in = alpha, v = -2, best_column = 255;
    for (int i = 0; i < n; i++) {
        int x = -negamax(theirs, mask | move[i], moves + 1, -beta, -alpha);
        if (x > v) {
            v = x; best_column = column[i];
            if (v >= beta) break;
            if (v > alpha) alpha = v;
        }
    }

    int lower = -1, upper = 1;
    if (e->used && e->key == (uint32_t)key) { lower = e->lower; upper = e->upper; }
    else { e->used = 1; e->key = (uint32_t)key; }
    if (v <= alpha_in) { if (v < upper) upper = v; }
    else if (v >= beta) { if (v > lower) lower = v; }
    else lower = upper = v;
    e->lower = (int8_t)lower; e->upper = (int8_t)upper; e->best = (uint8_t)best_column;
    return v;
}

/* The value for the first player of the empty width x height board (+1 a win, 0 a draw, -1
   a loss); the nodes searched go to *counted. -2: the board is too large or no memory. */
int c4_solve(int width, int height, int64_t *counted)
{
    if (width < 1 || height < 1 || width > 15 || width * (height + 1) > 55) return -2;
#ifdef WIDTH
    if (width != W || height != H) return -2;
#else
    W = width; H = height;
#endif
    bottom = board = 0;
    for (int c = 0; c < W; c++) {
        uint64_t b = (uint64_t)1 << (c * (H + 1));
        bottom |= b;
        columns[c] = ((b << H) - b);
        board |= columns[c];
    }
    int n = 0;  /* centre first: by the distance |2c - (W - 1)|, the left column first */
    for (int d = (W - 1) & 1; d < W; d += 2)
        for (int c = 0; c < W; c++) if (abs(2 * c - (W - 1)) == d) order[n++] = c;
    /* the table: a prime number of slots above 2^(key bits - 32), about 2^(cells - 4) */
    int bits = W * (H + 1), log = W * H - 4;
    if (log < 16) log = 16;
    if (log > 24) log = 24;
    if (log < bits - 32 + 1) log = bits - 32 + 1;
    slots = ((uint64_t)1 << log) - 1;
    while (!is_prime(slots)) slots -= 2;
    table = calloc(slots, sizeof(entry_t));
    if (!table) return -2;
    nodes = 0;
    int v;
    if (winning_cells(0, 0) & playable(0)) {
        v = 1;
    } else {  /* null windows: above 0?, then above -1 or below 1 */
        v = negamax(0, 0, 0, 0, 1) >= 1 ? 1 : negamax(0, 0, 0, -1, 0) <= -1 ? -1 : 0;
    }
    free(table);
    table = NULL;
    *counted = nodes;
    return v;
}

#ifdef C4_MAIN
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: %s WIDTH HEIGHT\n", argv[0]); return 2; }
    struct timespec a, b;
    int64_t counted;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int v = c4_solve(atoi(argv[1]), atoi(argv[2]), &counted);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (v == -2) { fprintf(stderr, "board too large (width * (height + 1) <= 55)\n"); return 1; }
    printf("%d %lld %.3f\n", v, (long long)counted,
           (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9);
    return 0;
}
#endif
