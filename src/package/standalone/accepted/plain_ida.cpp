// The Rotation Game: IDA* as contestants write it, and nothing more.
//
// The board is an array of 24 digits. The estimate is the statement's: 8
// minus the count of the commonest digit in the centre (a move changes one
// centre cell, so it never overestimates). Each pass of the search raises
// the bound by one and tries the moves in order A..H at every level, so the
// first solution found is the lexicographically smallest of the fewest
// moves. There is no move pruning (it even tries undoing the move it has
// just played) and no bit tricks: this is the slowest reasonable correct
// solution, and the package's time limit is set from it.
#include <cstdio>

// The seven cells of each move, in the direction the tiles travel against:
// the first cell takes the tile of the second, ..., the last takes the
// first's.
int line_of[8][7] = {
    {0, 2, 6, 11, 15, 20, 22},    // A
    {1, 3, 8, 12, 17, 21, 23},    // B
    {10, 9, 8, 7, 6, 5, 4},       // C
    {19, 18, 17, 16, 15, 14, 13}, // D
    {23, 21, 17, 12, 8, 3, 1},    // E
    {22, 20, 15, 11, 6, 2, 0},    // F
    {13, 14, 15, 16, 17, 18, 19}, // G
    {4, 5, 6, 7, 8, 9, 10},       // H
};
int opposite[8] = {5, 4, 7, 6, 1, 0, 3, 2};
int centre[8] = {6, 7, 8, 11, 12, 15, 16, 17};

int cell[24];
char moves[64];
int bound;

void rotate(int m) {
    int first = cell[line_of[m][0]];
    for (int i = 0; i < 6; i++) cell[line_of[m][i]] = cell[line_of[m][i + 1]];
    cell[line_of[m][6]] = first;
}

int estimate() {
    int count[4] = {0, 0, 0, 0};
    for (int i = 0; i < 8; i++) count[cell[centre[i]]]++;
    int most = count[1];
    if (count[2] > most) most = count[2];
    if (count[3] > most) most = count[3];
    return 8 - most;
}

bool dfs(int depth) {
    int h = estimate();
    if (h == 0) return true;
    if (depth + h > bound) return false;
    for (int m = 0; m < 8; m++) {
        rotate(m);
        moves[depth] = 'A' + m;
        if (dfs(depth + 1)) return true;
        rotate(opposite[m]);
    }
    return false;
}

int main() {
    while (scanf("%d", &cell[0]) == 1 && cell[0] != 0) {
        for (int i = 1; i < 24; i++) scanf("%d", &cell[i]);
        bound = estimate();
        while (!dfs(0)) bound++;
        if (bound == 0) {
            printf("No moves needed\n");
        } else {
            moves[bound] = '\0';
            printf("%s\n", moves);
        }
        printf("%d\n", cell[centre[0]]);
    }
    return 0;
}
