// The Rotation Game, a planted wrong solution: a best-first search (A*) with
// the classic estimate, which takes the boards in order of moves plus
// estimate (first found first on ties) and stops at the first solved board
// it generates, before it has looked at the rest of that level. Its answers
// are shortest, since the estimate never overestimates and changes by at
// most one per move, but not always the lexicographically smallest.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

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

// A board reached by the search: how, and from where.
struct Node {
    Board board;
    int moves;   // how many moves from the start
    int parent;  // the node it was reached from (-1 for the start)
    int last;    // the move that reached it (-1 for the start)
};

std::vector<Node> nodes;

uint64_t key(Board board) { return board.ones | static_cast<uint64_t>(board.twos) << 24; }

// Prints the moves that lead to node `index`, then `move`, then the digit.
void print_path(int index, int move, Board end) {
    std::string moves(1, static_cast<char>('A' + move));
    for (; nodes[index].parent >= 0; index = nodes[index].parent) moves += static_cast<char>('A' + nodes[index].last);
    std::reverse(moves.begin(), moves.end());
    std::printf("%s\n%d\n", moves.c_str(), centre_digit(end));
}

// Solves `board` and prints the answer.
void answer(Board board) {
    if (estimate(board) == 0) {
        std::printf("No moves needed\n%d\n", centre_digit(board));
        return;
    }
    nodes.assign(1, Node{board, 0, -1, -1});
    std::unordered_map<uint64_t, int> fewest_moves{{key(board), 0}};
    // Open boards by moves plus estimate, then by the order they were found.
    using Entry = std::pair<int, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
    open.push({estimate(board), 0});
    while (!open.empty()) {
        int index = open.top().second;
        open.pop();
        Node node = nodes[index];
        if (fewest_moves[key(node.board)] < node.moves) continue;
        for (int move = 0; move < 8; ++move) {
            if (node.last >= 0 && move == INVERSE[node.last]) continue;
            Board child = play(node.board, move);
            if (estimate(child) == 0) {
                print_path(index, move, child);
                return;
            }
            auto seen = fewest_moves.find(key(child));
            if (seen != fewest_moves.end() && seen->second <= node.moves + 1) continue;
            fewest_moves[key(child)] = node.moves + 1;
            nodes.push_back(Node{child, node.moves + 1, index, move});
            open.push({node.moves + 1 + estimate(child), static_cast<int>(nodes.size()) - 1});
        }
    }
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
        answer(board);
    }
    return 0;
}
