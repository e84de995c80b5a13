// The strict input format of THUPC 2019 "Duck Chess" (Luogu P5380), as
// `duckchess validate` checks it: Q alone on the first line (0 <= Q <= 1000),
// then exactly Q lines "xs ys xt yt" separated by single spaces, with
// 0 <= xs, xt <= 9 and 0 <= ys, yt <= 8, numbers written without a sign or a
// leading zero, every line ending in '\n', nothing after the last line.
// Written by `duckchess export`; build it against testlib.h:
//   g++ -O2 -o validator validator.cpp && ./validator < 1.in
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerValidation(argc, argv);
    int q = inf.readInt(0, 1000, "Q");
    inf.readEoln();
    for (int i = 0; i < q; i++) {
        inf.readInt(0, 9, "xs");
        inf.readSpace();
        inf.readInt(0, 8, "ys");
        inf.readSpace();
        inf.readInt(0, 9, "xt");
        inf.readSpace();
        inf.readInt(0, 8, "yt");
        inf.readEoln();
    }
    inf.readEof();
    return 0;
}
