// The strict input format of THUPC 2019 "Duck Chess" (Luogu P5380), as
// `duckchess validate` checks it, for the ICPC problem package (DOMjudge,
// Kattis): Q alone on the first line (0 <= Q <= 1000), then exactly Q lines
// "xs ys xt yt" separated by single spaces, with 0 <= xs, xt <= 9 and
// 0 <= ys, yt <= 8, numbers written without a sign or a leading zero, every
// line ending in '\n', nothing after the last line.
// Exit status 42 accepts the input and 43 rejects it, with the reason on
// standard error, as the package format asks. Plain C++17, no testlib.
// Written by `duckchess export`.
#include <cstdio>
#include <cstdlib>
#include <string>

// The input as it is read: one byte at a time, counting lines for messages.
static int line = 1;

static int next() {
    int c = std::getchar();
    if (c == '\n')
        line++;
    return c;
}

[[noreturn]] static void reject(const std::string& why) {
    std::fprintf(stderr, "line %d: %s\n", line, why.c_str());
    std::exit(43);
}

// Reads a number in [0, most] written without a sign or a leading zero,
// followed by `after`.
static int number(int most, char after, const char* name) {
    int c = next();
    if (c < '0' || c > '9')
        reject(std::string("expected ") + name);
    long value = c - '0';
    bool leadingZero = c == '0';
    for (c = next(); c >= '0' && c <= '9'; c = next()) {
        if (leadingZero)
            reject(std::string(name) + " has a leading zero");
        value = value * 10 + (c - '0');
        if (value > most)
            reject(std::string(name) + " is out of range");
    }
    if (value > most)
        reject(std::string(name) + " is out of range");
    if (c != after) {
        if (after == '\n')
            reject(std::string("expected the end of the line after ") + name);
        reject(std::string("expected one space after ") + name);
    }
    return int(value);
}

int main() {
    int q = number(1000, '\n', "Q");
    for (int i = 0; i < q; i++) {
        number(9, ' ', "xs");
        number(8, ' ', "ys");
        number(9, ' ', "xt");
        number(8, '\n', "yt");
    }
    if (std::getchar() != EOF)
        reject("expected the end of the input");
    return 42;
}
