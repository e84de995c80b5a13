// Reference solution of THUPC 2019 Duck Chess (Luogu P5380), written for duckchess;
// reads Q and Q commands, prints one line per command.
//
// Board: 10 rows (x = 0..9) by 9 columns (y = 0..8); red starts on rows 0-3 and moves first.
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

enum Kind { NONE, CAPTAIN, GUARD, ELEPHANT, HORSE, CAR, DUCK, SOLDIER };
const char *const KIND_NAME[] = {"", "captain", "guard", "elephant", "horse", "car", "duck", "soldier"};
const char *const SIDE_NAME[] = {"red", "blue"};

struct Cell {
    int kind = NONE;  // NONE means empty
    int side = 0;     // 0 red, 1 blue
};

const int ROWS = 10, COLS = 9;
Cell board[ROWS][COLS];

bool onBoard(int x, int y) { return x >= 0 && x < ROWS && y >= 0 && y < COLS; }
bool empty(int x, int y) { return board[x][y].kind == NONE; }

// Whether the piece on (xs, ys) may move to (xt, yt) by its own movement rule, ignoring
// what stands on the target. All squares passed to empty() are on the board whenever the
// target is, since each blocking square lies between source and target.
bool reaches(int xs, int ys, int xt, int yt) {
    const int dx = xt - xs, dy = yt - ys;
    const int ax = std::abs(dx), ay = std::abs(dy);
    const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    switch (board[xs][ys].kind) {
    case CAPTAIN:
        return ax + ay == 1;
    case GUARD:
        return ax == 1 && ay == 1;
    case ELEPHANT:
        return ax == 2 && ay == 2 && empty(xs + sx, ys + sy);
    case HORSE:
        if (ax == 2 && ay == 1) return empty(xs + sx, ys);
        if (ax == 1 && ay == 2) return empty(xs, ys + sy);
        return false;
    case CAR: {
        if ((dx == 0) == (dy == 0)) return false;  // same square, or not in a line
        const int stepx = dx == 0 ? 0 : sx, stepy = dy == 0 ? 0 : sy;
        for (int x = xs + stepx, y = ys + stepy; x != xt || y != yt; x += stepx, y += stepy)
            if (!empty(x, y)) return false;
        return true;
    }
    case DUCK:
        if (ax == 3 && ay == 2) return empty(xs + sx, ys) && empty(xs + 2 * sx, ys + sy);
        if (ax == 2 && ay == 3) return empty(xs, ys + sy) && empty(xs + sx, ys + 2 * sy);
        return false;
    case SOLDIER:
        return ax <= 1 && ay <= 1 && ax + ay > 0;
    default:
        return false;
    }
}

// A legal move for whoever owns the source piece (turn order is checked by the caller).
bool legal(int xs, int ys, int xt, int yt) {
    if (!onBoard(xs, ys) || !onBoard(xt, yt) || empty(xs, ys)) return false;
    if (!empty(xt, yt) && board[xt][yt].side == board[xs][ys].side) return false;
    return reaches(xs, ys, xt, yt);
}

// Check: either side (not only the one to move) could capture the other's captain now.
bool inCheck() {
    for (int x = 0; x < ROWS; ++x)
        for (int y = 0; y < COLS; ++y) {
            if (board[x][y].kind != CAPTAIN) continue;
            for (int a = 0; a < ROWS; ++a)
                for (int b = 0; b < COLS; ++b)
                    if (!empty(a, b) && board[a][b].side != board[x][y].side && legal(a, b, x, y))
                        return true;
        }
    return false;
}

void setup() {
    const int back[COLS] = {CAR, HORSE, ELEPHANT, GUARD, CAPTAIN, GUARD, ELEPHANT, HORSE, CAR};
    for (int side = 0; side < 2; ++side) {
        // Row as seen from this side's own edge: red counts up from 0, blue down from 9.
        auto put = [side](int r, int y, int kind) {
            Cell &c = board[side == 0 ? r : ROWS - 1 - r][y];
            c.kind = kind;
            c.side = side;
        };
        for (int y = 0; y < COLS; ++y) put(0, y, back[y]);
        put(2, 0, DUCK);
        put(2, 8, DUCK);
        for (int y = 0; y < COLS; y += 2) put(3, y, SOLDIER);
    }
}

std::string name(const Cell &c) { return std::string(SIDE_NAME[c.side]) + " " + KIND_NAME[c.kind]; }

}  // namespace

int main() {
    setup();
    int q;
    if (std::scanf("%d", &q) != 1) return 1;
    int turn = 0;  // side to move
    bool over = false;
    std::string out;
    for (int i = 0; i < q; ++i) {
        // Coordinates are read wide so that an absurd value is just an off-board square.
        long long c[4];
        if (std::scanf("%lld %lld %lld %lld", &c[0], &c[1], &c[2], &c[3]) != 4) {
            std::fputs(out.c_str(), stdout);
            std::fprintf(stderr, "command %d: expected four integers\n", i + 1);
            return 1;
        }
        int v[4];
        for (int k = 0; k < 4; ++k) v[k] = c[k] >= 0 && c[k] < 16 ? static_cast<int>(c[k]) : -1;
        const int xs = v[0], ys = v[1], xt = v[2], yt = v[3];
        if (over || !onBoard(xs, ys) || empty(xs, ys) || board[xs][ys].side != turn ||
            !legal(xs, ys, xt, yt)) {
            out += "Invalid command\n";
            continue;
        }
        const Cell mover = board[xs][ys], taken = board[xt][yt];
        board[xt][yt] = mover;
        board[xs][ys] = Cell();
        if (taken.kind == CAPTAIN) over = true;
        const bool check = !over && inCheck();  // no check once the game is over
        out += name(mover) + ";" + (taken.kind == NONE ? std::string("NA") : name(taken)) + ";" +
               (check ? "yes" : "no") + ";" + (over ? "yes" : "no") + "\n";
        turn ^= 1;
    }
    std::fputs(out.c_str(), stdout);
    return 0;
}
