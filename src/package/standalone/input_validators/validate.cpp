// The Rotation Game: the input validator (Kattis convention: exit 42 when
// the test file is valid, 43 when it is not).
//
// A valid test file holds at most MAX_CASES cases, one per line: 24 values,
// each a single digit 1, 2 or 3, separated by single spaces, with no space at
// the start or the end of the line, each digit exactly eight times. Lines end
// with LF (no CR anywhere). A line holding only 0 ends the file.
//
// The first rule broken is reported on standard output as
// "line L, column C: reason" (columns count bytes from 1), and only it. The
// validator reads byte by byte and keeps nothing but the current case. It
// accepts exactly what `rotation-game validate --max-cases MAX_CASES` accepts,
// and names the same line and column: a test of rotation-game checks both.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace {

const int MAX_CASES = 30;
const int VALUES = 24;

enum State { LINE_START, AFTER_VALUE, AFTER_SPACE, AFTER_ZERO, FINISHED };

long long line = 1;
long long column = 1;

// A byte as the messages show it.
const char *found(int byte) {
    static char text[16];
    switch (byte) {
        case ' ': return "a space";
        case '\t': return "a tab";
        case '\r': return "a CR (line ends must be LF only)";
        case '\n': return "the line end";
    }
    if (byte >= 32 && byte < 127) std::snprintf(text, sizeof text, "'%c'", byte);
    else std::snprintf(text, sizeof text, "'\\x%02x'", byte);
    return text;
}

// Reports the rule broken at the current position and rejects the file.
[[noreturn]] void reject(const char *format, ...) {
    std::printf("line %lld, column %lld: ", line, column);
    va_list arguments;
    va_start(arguments, format);
    std::vprintf(format, arguments);
    va_end(arguments);
    std::printf("\n");
    std::exit(43);
}

}  // namespace

int main() {
    State state = LINE_START;
    int values = 0;
    int count[4] = {0, 0, 0, 0};
    int cases = 0;
    for (int byte; (byte = std::getchar()) != EOF;) {
        switch (state) {
            case LINE_START:
                if (byte == '0') {
                    state = AFTER_ZERO;
                } else if (byte >= '1' && byte <= '3') {
                    if (cases >= MAX_CASES) reject("more than %d cases, the limit", MAX_CASES);
                    count[1] = count[2] = count[3] = 0;
                    count[byte - '0'] = 1;
                    values = 1;
                    state = AFTER_VALUE;
                } else {
                    reject("expected a case (values 1, 2 or 3) or the final 0 line, found %s", found(byte));
                }
                break;
            case AFTER_VALUE:
                if (byte == ' ' && values < VALUES) {
                    state = AFTER_SPACE;
                } else if (byte == '\n' && values == VALUES) {
                    state = LINE_START;
                    ++cases;
                } else if (byte == '\n') {
                    reject("the line ends after %d values, expected 24", values);
                } else if (values == VALUES) {
                    reject("expected the line end after 24 values, found %s", found(byte));
                } else {
                    reject("expected a single space after value %d, found %s", values, found(byte));
                }
                break;
            case AFTER_SPACE:
                if (byte >= '1' && byte <= '3') {
                    if (++count[byte - '0'] > 8) {
                        reject("a ninth %c: each of 1, 2 and 3 must appear exactly 8 times", byte);
                    }
                    ++values;
                    state = AFTER_VALUE;
                } else if (byte == ' ') {
                    reject("expected a value 1, 2 or 3 (value %d of 24), found a second space",
                           values + 1);
                } else if (byte == '\n') {
                    reject("trailing space at the end of the line");
                } else if (byte == '0') {
                    reject("expected a value 1, 2 or 3 (value %d of 24), found \"0\": 0 is only the final line",
                           values + 1);
                } else {
                    reject("expected a value 1, 2 or 3 (value %d of 24), found %s", values + 1, found(byte));
                }
                break;
            case AFTER_ZERO:
                if (byte != '\n') reject("expected the line end after the final 0, found %s", found(byte));
                state = FINISHED;
                break;
            case FINISHED:
                reject("expected the end of the file after the final 0 line, found %s", found(byte));
        }
        if (byte == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    if (state == LINE_START) reject("expected the final 0 line, found the end of the file");
    if (state != FINISHED) reject("the file ends inside a line: every line must end with LF");
    std::printf("ok %d case%s\n", cases, cases == 1 ? "" : "s");
    return 42;
}
