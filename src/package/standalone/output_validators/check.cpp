// The Rotation Game: the output validator (Kattis convention).
//
//     check INPUT ANSWER FEEDBACK_DIR [space_change_sensitive] < OUTPUT
//
// Exit 42 when the output is right, 43 when it is wrong (a wrong output
// format included), 3 when the jury is wrong (a bad test file or a wrong
// ANSWER). The verdict, one line, goes to FEEDBACK_DIR/judgemessage.txt and
// to standard error: "ok N cases", "wrong answer case C: ...",
// "wrong output format case C: ..." or "FAIL ...".
//
// The checker works the right answers out itself, so it judges the jury's
// ANSWER too, and fails when it is wrong. For one digit, what matters is the
// set of eight cells its tiles occupy; a breadth-first search from the
// centre gives every such set's exact distance, and a board's optimal length
// is the least of its digits' distances. The lexicographically smallest
// shortest sequence plays, from the board, the first move in order A..H that
// lowers the optimal length by one, until it is 0.
//
// Per case the output holds a line of moves (letters A-H, or exactly
// "No moves needed") and a line with the centre digit. A line in neither
// form, a missing line, or a digit line that is not one digit 1-3 is a wrong
// output format; moves that leave the centre mixed, the wrong digit, more
// moves than needed, or a shortest sequence that is not the smallest are a
// wrong answer, and so is anything but whitespace after the last case.
// Trailing spaces, tabs and CRs, a missing final newline and blank lines
// after the last case are accepted, unless the judge passes
// space_change_sensitive. An output over 8 MiB is a wrong answer whatever it
// holds.
//
// The verdicts are those of `rotation-game check --kattis`: a test of
// rotation-game runs both on the same outputs and requires the same verdict.
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const long long OUTPUT_LIMIT = 8LL << 20;
const char NO_MOVES_NEEDED[] = "No moves needed";

// The seven cells each move rotates: the first cell takes the tile of the
// second, ..., the last takes the first's.
const int LINE[8][7] = {
    {0, 2, 6, 11, 15, 20, 22},   {1, 3, 8, 12, 17, 21, 23},
    {10, 9, 8, 7, 6, 5, 4},      {19, 18, 17, 16, 15, 14, 13},
    {23, 21, 17, 12, 8, 3, 1},   {22, 20, 15, 11, 6, 2, 0},
    {13, 14, 15, 16, 17, 18, 19}, {4, 5, 6, 7, 8, 9, 10},
};
const uint32_t CENTRE = 1u << 6 | 1u << 7 | 1u << 8 | 1u << 11 | 1u << 12 | 1u << 15 |
                        1u << 16 | 1u << 17;
const uint8_t UNREACHED = 255;

uint32_t by_byte[8][3][256];
std::vector<uint8_t> distance;

uint32_t rotate(int move, uint32_t set) {
    return by_byte[move][0][set & 255] | by_byte[move][1][(set >> 8) & 255] |
           by_byte[move][2][set >> 16];
}

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
    distance.assign(1u << 24, UNREACHED);
    std::vector<uint32_t> queue{CENTRE};
    distance[CENTRE] = 0;
    for (size_t next = 0; next < queue.size(); ++next) {
        uint32_t set = queue[next];
        for (int move = 0; move < 8; ++move) {
            uint32_t moved = rotate(move, set);
            if (distance[moved] == UNREACHED) {
                distance[moved] = distance[set] + 1;
                queue.push_back(moved);
            }
        }
    }
}

// A board: the cells of digits 1, 2 and 3.
struct Board {
    uint32_t of[3];

    Board play(int move) const {
        return {{rotate(move, of[0]), rotate(move, of[1]), rotate(move, of[2])}};
    }
    int optimal_length() const {
        int best = distance[of[0]];
        for (int d = 1; d < 3; ++d) best = distance[of[d]] < best ? distance[of[d]] : best;
        return best;
    }
    int uniform_centre() const {
        for (int d = 0; d < 3; ++d) if (of[d] == CENTRE) return d + 1;
        return 0;
    }
};

// The right answer for a board: the smallest shortest sequence.
std::string smallest_shortest(Board board) {
    std::string moves;
    for (int remaining = board.optimal_length(); remaining > 0; --remaining) {
        for (int move = 0; move < 8; ++move) {
            Board next = board.play(move);
            if (next.optimal_length() == remaining - 1) {
                moves += static_cast<char>('A' + move);
                board = next;
                break;
            }
        }
    }
    return moves;
}

enum Kind { OK, WRONG_ANSWER, WRONG_FORMAT, FAIL };

struct Verdict {
    Kind kind;
    int case_number;  // 0 when the verdict is about the whole output
    std::string reason;
};

Verdict verdict(Kind kind, int case_number, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

Verdict verdict(Kind kind, int case_number, const char *format, ...) {
    char text[512];
    va_list arguments;
    va_start(arguments, format);
    std::vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    return {kind, case_number, text};
}

// Up to 60 bytes of a line, quoted, for messages.
std::string quote(const std::string &text) {
    std::string out = "\"";
    for (size_t i = 0; i < text.size() && i < 60; ++i) {
        unsigned char byte = text[i];
        if (byte >= 32 && byte < 127 && byte != '"' && byte != '\\') {
            out += static_cast<char>(byte);
        } else {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        }
    }
    out += text.size() > 60 ? "\"..." : "\"";
    return out;
}

bool is_blank(char byte) { return byte == ' ' || byte == '\t' || byte == '\r'; }

// One line of an output and what the checker needs to know of it.
struct Line {
    long long number = 0;
    std::string core;  // the line without its trailing blanks
    bool has_trailing_blanks = false;
    bool ends_with_cr = false;
    bool has_newline = false;
    bool has_inner_blank = false;  // a blank followed by a non-blank
    bool letters_only = true;      // every non-blank byte is a letter A-H
};

// Reads an output in memory, line by line.
struct Lines {
    const std::string &text;
    size_t position = 0;
    long long count = 0;

    bool next(Line &line) {
        if (position >= text.size()) return false;
        size_t end = text.find('\n', position);
        line = Line();
        line.has_newline = end != std::string::npos;
        if (!line.has_newline) end = text.size();
        std::string whole = text.substr(position, end - position);
        position = line.has_newline ? end + 1 : end;
        line.number = ++count;
        size_t core = whole.size();
        while (core > 0 && is_blank(whole[core - 1])) --core;
        line.core = whole.substr(0, core);
        line.has_trailing_blanks = core < whole.size();
        line.ends_with_cr = !whole.empty() && whole.back() == '\r';
        bool blank_seen = false;
        for (char byte : line.core) {
            if (is_blank(byte)) {
                blank_seen = true;
            } else {
                if (blank_seen) line.has_inner_blank = true;
                if (byte < 'A' || byte > 'H') line.letters_only = false;
            }
        }
        return true;
    }
};

// In strict mode, what is wrong with a line's whitespace ("" when nothing).
std::string whitespace_fault(const Line &line, bool strict) {
    char text[96] = "";
    if (!strict) return text;
    if (line.ends_with_cr && line.has_newline) {
        std::snprintf(text, sizeof text, "line %lld: CRLF line end, expected LF (strict mode)", line.number);
    } else if (line.has_trailing_blanks) {
        std::snprintf(text, sizeof text, "line %lld: trailing whitespace (strict mode)", line.number);
    } else if (!line.has_newline) {
        std::snprintf(text, sizeof text, "line %lld: no newline at the end of the output (strict mode)",
                      line.number);
    }
    return text;
}

// Judges `output` for `boards`, whose right answers are `truth`.
Verdict judge(const std::vector<Board> &boards, const std::vector<std::string> &truth,
              const std::string &output, bool strict) {
    if (static_cast<long long>(output.size()) > OUTPUT_LIMIT) {
        return verdict(WRONG_ANSWER, 0, "output limit exceeded: more than %lld bytes", OUTPUT_LIMIT);
    }
    Lines lines{output};
    Line line;
    for (size_t index = 0; index < boards.size(); ++index) {
        int number = static_cast<int>(index) + 1;
        const Board &board = boards[index];
        if (!lines.next(line)) {
            return verdict(WRONG_FORMAT, number, "line %lld: expected the moves, found the end of the output",
                           lines.count + 1);
        }
        std::string fault = whitespace_fault(line, strict);
        if (!fault.empty()) return verdict(WRONG_FORMAT, number, "%s", fault.c_str());
        std::string moves;
        bool none_needed = line.core == NO_MOVES_NEEDED;
        if (!none_needed) {
            if (line.core.empty()) {
                return verdict(WRONG_FORMAT, number,
                               "line %lld: expected the moves (letters A-H, or \"%s\"), found an empty line",
                               line.number, NO_MOVES_NEEDED);
            }
            if (!line.letters_only || line.has_inner_blank) {
                return verdict(WRONG_FORMAT, number, "line %lld: expected the moves (letters A-H, or \"%s\"), found %s",
                               line.number, NO_MOVES_NEEDED, quote(line.core).c_str());
            }
            moves = line.core;
        }
        Board end = board;
        for (char letter : moves) end = end.play(letter - 'A');
        if (!lines.next(line)) {
            return verdict(WRONG_FORMAT, number,
                           "line %lld: expected the centre digit, found the end of the output", lines.count + 1);
        }
        fault = whitespace_fault(line, strict);
        if (!fault.empty()) return verdict(WRONG_FORMAT, number, "%s", fault.c_str());
        if (line.core.size() != 1 || line.core[0] < '1' || line.core[0] > '3') {
            return verdict(WRONG_FORMAT, number, "line %lld: expected the centre digit (1, 2 or 3), found %s",
                           line.number, quote(line.core).c_str());
        }
        int digit = line.core[0] - '0';
        const std::string &right = truth[index];
        int optimal = static_cast<int>(right.size());
        int centre = end.uniform_centre();
        if (centre == 0 && none_needed) {
            return verdict(WRONG_ANSWER, number, "\"%s\" but the centre is mixed (optimal is %d moves)",
                           NO_MOVES_NEEDED, optimal);
        }
        if (centre == 0) {
            return verdict(WRONG_ANSWER, number, "the moves %s leave the centre mixed (optimal is %d moves)",
                           quote(moves).c_str(), optimal);
        }
        if (centre != digit) {
            return verdict(WRONG_ANSWER, number, "the moves leave %d in the centre, found %d", centre, digit);
        }
        if (moves.size() > right.size()) {
            return verdict(WRONG_ANSWER, number, "%zu moves, optimal is %d", moves.size(), optimal);
        }
        if (moves.size() < right.size()) {
            return verdict(FAIL, number, "%zu moves solve the case but the checker's optimum is %d", moves.size(),
                           optimal);
        }
        if (moves != right) {
            return verdict(WRONG_ANSWER, number,
                           "optimal length but not the lexicographically smallest: expected %s, found %s",
                           right.c_str(), moves.c_str());
        }
    }
    while (lines.next(line)) {
        if (!line.core.empty()) {
            return verdict(WRONG_ANSWER, 0, "line %lld: extra output after the last case: %s", line.number,
                           quote(line.core).c_str());
        }
        if (strict) {
            return verdict(WRONG_FORMAT, 0, "line %lld: blank line after the last case (strict mode)",
                           line.number);
        }
    }
    return verdict(OK, 0, "%zu case%s", boards.size(), boards.size() == 1 ? "" : "s");
}

// Reads at most `limit` + 1 bytes of `file`.
std::string read_at_most(FILE *file, long long limit) {
    std::string text;
    char buffer[1 << 16];
    size_t read;
    while (static_cast<long long>(text.size()) <= limit &&
           (read = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
        text.append(buffer, read);
    }
    if (static_cast<long long>(text.size()) > limit + 1) text.resize(limit + 1);
    return text;
}

// Reads the boards of a judge input, or says what is wrong with it.
std::string read_boards(FILE *input, std::vector<Board> &boards) {
    char token[8];
    for (int case_number = 1; std::fscanf(input, "%7s", token) == 1; ++case_number) {
        if (std::strcmp(token, "0") == 0) return "";
        Board board{{0, 0, 0}};
        for (int cell = 0; cell < 24; ++cell) {
            if (cell > 0 && std::fscanf(input, "%7s", token) != 1) {
                return "case " + std::to_string(case_number) + ": the input ends inside the case";
            }
            if (std::strlen(token) != 1 || token[0] < '1' || token[0] > '3') {
                return "case " + std::to_string(case_number) + ": expected 1, 2 or 3, found \"" + token + "\"";
            }
            board.of[token[0] - '1'] |= 1u << cell;
        }
        for (uint32_t set : board.of) {
            if (__builtin_popcount(set) != 8) {
                return "case " + std::to_string(case_number) + ": each digit must appear 8 times";
            }
        }
        boards.push_back(board);
    }
    return "";
}

std::string describe(const Verdict &v) {
    const char *label = v.kind == OK             ? "ok"
                        : v.kind == WRONG_ANSWER ? "wrong answer"
                        : v.kind == WRONG_FORMAT ? "wrong output format"
                                                 : "FAIL";
    std::string text = label;
    if (v.case_number > 0) text += " case " + std::to_string(v.case_number);
    text += v.kind == OK ? " " : ": ";
    return text + v.reason;
}

int finish(const Verdict &v, const char *feedback_dir) {
    std::string message = describe(v) + "\n";
    std::fputs(message.c_str(), stderr);
    std::string path = std::string(feedback_dir) + "/judgemessage.txt";
    if (FILE *file = std::fopen(path.c_str(), "w")) {
        std::fputs(message.c_str(), file);
        std::fclose(file);
    }
    return v.kind == OK ? 42 : v.kind == FAIL ? 3 : 43;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s INPUT ANSWER FEEDBACK_DIR [space_change_sensitive] < OUTPUT\n", argv[0]);
        return 3;
    }
    bool strict = false;
    for (int i = 4; i < argc; ++i) strict = strict || std::strcmp(argv[i], "space_change_sensitive") == 0;
    FILE *input = std::fopen(argv[1], "r");
    FILE *answer = std::fopen(argv[2], "r");
    if (input == nullptr || answer == nullptr) {
        return finish(verdict(FAIL, 0, "cannot open %s", input == nullptr ? argv[1] : argv[2]), argv[3]);
    }
    std::vector<Board> boards;
    std::string bad_input = read_boards(input, boards);
    if (!bad_input.empty()) return finish(verdict(FAIL, 0, "bad judge input: %s", bad_input.c_str()), argv[3]);
    build_tables();
    std::vector<std::string> truth;
    for (const Board &board : boards) truth.push_back(smallest_shortest(board));
    Verdict jury = judge(boards, truth, read_at_most(answer, OUTPUT_LIMIT), false);
    if (jury.kind != OK) {
        return finish(verdict(FAIL, jury.case_number, "the jury answer is wrong: %s", jury.reason.c_str()),
                      argv[3]);
    }
    return finish(judge(boards, truth, read_at_most(stdin, OUTPUT_LIMIT), strict), argv[3]);
}
