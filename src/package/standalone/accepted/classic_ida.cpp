// The Rotation Game: the classic solution, iterative deepening A* (IDA*).
//
// A depth-first search tries the moves in order A..H, so the first solution
// it meets at a given depth is the lexicographically smallest of that
// length. It prunes a board when its depth plus an estimate of the moves
// still needed exceeds the bound, and raises the bound to the least value it
// pruned until a pass finds a solution. The estimate is 8 minus the count of
// the commonest digit in the centre: a move takes one tile out of the centre
// and brings one in, so it never overestimates. The search never plays the
// inverse of the move it has just played.
//
// A board is two 24-bit masks, the cells of the 1s and of the 2s (the 3s
// are the rest), and a move maps each mask through three byte tables.
//
// Built with -DREPORT_NODES it also prints on standard error, per case, the
// number of boards the search generated (the start and every child), so that
// a test can check rotation-game's model of this search, whose node counts
// the package's report gives.
#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace {

// The seven cells each move rotates: the first cell takes the tile of the
// second, ..., the last takes the first's.
const int LINE[8][7] = {
    {0, 2, 6, 11, 15, 20, 22},   {1, 3, 8, 12, 17, 21, 23},
    {10, 9, 8, 7, 6, 5, 4},      {19, 18, 17, 16, 15, 14, 13},
    {23, 21, 17, 12, 8, 3, 1},   {22, 20, 15, 11, 6, 2, 0},
    {13, 14, 15, 16, 17, 18, 19}, {4, 5, 6, 7, 8, 9, 10},
};
const int INVERSE[8] = {5, 4, 7, 6, 1, 0, 3, 2};
const uint32_t CENTRE = 1u << 6 | 1u << 7 | 1u << 8 | 1u << 11 | 1u << 12 | 1u << 15 |
                        1u << 16 | 1u << 17;

uint32_t by_byte[8][3][256];

void build_tables() {
    for (int move = 0; move < 8; ++move) {
        for (int position = 0; position < 3; ++position) {
            for (uint32_t byte = 0; byte < 256; ++byte) {
                uint32_t set = byte << (8 * position), moved = set;
                for (int i = 0; i < 7; ++i) {
                    int to = LINE[move][i], from = LINE[move][(i + 1) % 7];
                    moved &= ~(1u << to);
                    moved |= ((set >> from) & 1u) << to;
                }
                by_byte[move][position][byte] = moved;
            }
        }
    }
}

uint32_t rotate(int move, uint32_t set) {
    return by_byte[move][0][set & 255] | by_byte[move][1][(set >> 8) & 255] |
           by_byte[move][2][set >> 16];
}

// The cells of the 1s and of the 2s; the 3s are on the rest.
struct Board {
    uint32_t ones, twos;
};

Board play(Board board, int move) { return {rotate(move, board.ones), rotate(move, board.twos)}; }

int estimate(Board board) {
    int ones = __builtin_popcount(board.ones & CENTRE), twos = __builtin_popcount(board.twos & CENTRE);
    return 8 - std::max(std::max(ones, twos), 8 - ones - twos);
}

int centre_digit(Board board) {
    if ((board.ones & CENTRE) == CENTRE) return 1;
    if ((board.twos & CENTRE) == CENTRE) return 2;
    return (board.ones | board.twos) & CENTRE ? 0 : 3;
}

char path[32];
int solution_length;
unsigned long long generated;

// Searches below `board`, at `depth`, reached by `last` (-1 at the start).
// Returns 0 when a solution is in `path`, otherwise the least depth plus
// estimate it pruned.
int search(Board board, int depth, int last, int bound) {
    if (estimate(board) == 0) {
        solution_length = depth;
        return 0;
    }
    int child_depth = depth + 1;
    if (child_depth > bound) return child_depth;
    int least = 1000;
    for (int move = 0; move < 8; ++move) {
        if (last >= 0 && move == INVERSE[last]) continue;
        Board child = play(board, move);
        ++generated;
        int value = estimate(child);
        if (child_depth + value > bound) {
            least = std::min(least, child_depth + value);
            continue;
        }
        path[depth] = static_cast<char>('A' + move);
        int found = search(child, child_depth, move, bound);
        if (found == 0) return 0;
        least = std::min(least, found);
    }
    return least;
}

}  // namespace

int main() {
    build_tables();
    int value;
    while (std::scanf("%d", &value) == 1 && value != 0) {
        Board board{0, 0};
        for (int cell = 0; cell < 24; ++cell) {
            if (cell > 0 && std::scanf("%d", &value) != 1) return 1;
            if (value == 1) board.ones |= 1u << cell;
            if (value == 2) board.twos |= 1u << cell;
        }
        generated = 1;
        int bound = estimate(board);
        for (int least; (least = search(board, 0, -1, bound)) != 0;) bound = least;
        path[solution_length] = '\0';
        for (int i = 0; i < solution_length; ++i) board = play(board, path[i] - 'A');
        std::printf("%s\n%d\n", solution_length == 0 ? "No moves needed" : path, centre_digit(board));
#ifdef REPORT_NODES
        std::fprintf(stderr, "%llu\n", generated);
#endif
    }
    return 0;
}
