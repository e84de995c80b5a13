// The comparison of THUPC 2019 "Duck Chess" (Luogu P5380) outputs that
// `duckchess test` makes by default, as online judges compare: line by line,
// where whitespace at the end of a line (space, tab, CR, VT, FF) and blank
// lines at the end of the output do not count, and everything else does
// (spacing inside a line, letter case, a blank line in the middle).
// Written by `duckchess export`; build it against testlib.h:
//   g++ -O2 -o checker checker.cpp && ./checker INPUT OUTPUT ANSWER
#include "testlib.h"

#include <string>
#include <vector>

// Whitespace that does not count at the end of a line.
static bool blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// At most this many bytes of a line are shown in a verdict.
static const size_t SHOWN = 160;

// The answer's lines, each without the whitespace at its end, without the
// blank lines at the end. The answer is the setter's: it is read whole.
static std::vector<std::string> answerLines() {
    std::vector<std::string> lines;
    std::string line;
    bool open = false;
    while (!ans.eof()) {
        char c = ans.readChar();
        if (c == '\n') {
            lines.push_back(line);
            line.clear();
            open = false;
        } else {
            line += c;
            open = true;
        }
    }
    if (open)
        lines.push_back(line);
    for (size_t i = 0; i < lines.size(); i++)
        while (!lines[i].empty() && blank(lines[i][lines[i].size() - 1]))
            lines[i].erase(lines[i].size() - 1);
    while (!lines.empty() && lines.back().empty())
        lines.pop_back();
    return lines;
}

// Ends with a wrong answer on line `index` (from 0) of the output, of which
// `seen` was read: the rest of that line is read for the verdict, up to SHOWN
// bytes.
static void differ(const std::vector<std::string>& expected, size_t index, std::string seen) {
    while (seen.size() < SHOWN && !ouf.eof()) {
        char c = ouf.readChar();
        if (c == '\n')
            break;
        seen += c;
    }
    if (index < expected.size())
        quitf(_wa, "line %d: expected \"%s\", found \"%s\"", int(index + 1),
              expected[index].substr(0, SHOWN).c_str(), seen.c_str());
    quitf(_wa, "line %d: the answer has %d lines, found an extra one: \"%s\"", int(index + 1),
          int(expected.size()), seen.c_str());
}

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    const std::vector<std::string> expected = answerLines();
    const std::string none;
    // The output is streamed: the line being read, how far, its first bytes.
    size_t index = 0, at = 0;
    std::string seen;
    bool open = false;
    while (!ouf.eof()) {
        const std::string& want = index < expected.size() ? expected[index] : none;
        char c = ouf.readChar();
        if (c == '\n') {
            if (at < want.size())
                differ(expected, index, seen);
            index++;
            at = 0;
            seen.clear();
            open = false;
            continue;
        }
        open = true;
        if (seen.size() < SHOWN)
            seen += c;
        if (at < want.size() ? c != want[at] : !blank(c))
            differ(expected, index, seen);
        if (at < want.size())
            at++;
    }
    if (open) {
        const std::string& want = index < expected.size() ? expected[index] : none;
        if (at < want.size())
            differ(expected, index, seen);
        index++;
    }
    if (index < expected.size())
        quitf(_wa, "the output has %d lines, the answer %d: line %d, \"%s\", is missing",
              int(index), int(expected.size()), int(index + 1),
              expected[index].substr(0, SHOWN).c_str());
    quitf(_ok, "%d lines", int(expected.size()));
}
