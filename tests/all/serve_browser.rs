//! `duckchess serve` in a real browser: headless Chromium driven through chromedriver
//! over WebDriver ([`crate::browser`]). Each scenario is a function of the page it
//! opens, so that `site_browser` runs the same ones on the static site; each ends by
//! checking who answered the API and that the console showed no error.
//!
//! - One game: click a piece and check the target marks, click a target and check the
//!   judge's line in the move list, try an invalid move, play to a capture, undo,
//!   reload from the address, let the computer move, load a saved game, and replay a
//!   judge input opened as a file, stepping through it.
//! - The layout at 1920x1080, 1280x1024, 1280x800, 800x600 and 390x844: the board, the
//!   side to move and the move controls on the screen without scrolling sideways, the
//!   panel beside or under the board, the replay's current line with the board, every
//!   colour pair of the page at WCAG AA contrast, and the use of the window: the labels'
//!   and the graph's words on the screen, the graph as wide as the panel and drawn at
//!   its size, board and panel across a wide window.
//! - A whole move by keyboard, with what a screen reader is told on the way.
//! - The analysis of a replay and of a game: the graph with its marks, a click on a
//!   point and the arrow keys moving the board, the engine's evaluation bar and arrows,
//!   a look at an earlier position of the game, a cancel, and a hint that is shown and
//!   not played; neither the hint nor the engine's arrow hides the piece it moves.
//! - The letters the page switches to by itself on a machine without a Chinese font
//!   (the fonts hidden from Chromium by a fontconfig file), and the Chinese names
//!   where the machine has such a font.
//!
//! - The guides' pictures (`docs/serve*.png`) drawn again in fixed windows with fixed
//!   fonts and compared with those in `docs/`, pixel by pixel in the browser.
//!
//! In the full tier, which needs Chromium and chromedriver (`.ci/run` installs both,
//! and the pictures' fonts; without them a test fails, saying so).
//! `scripts/screenshot-serve.sh` draws the pictures into `docs/` with the pictures' test.

use crate::browser::{self, browser_present, Browser, ENTER, ESCAPE, LEFT, RIGHT, TAB, UP};
use crate::serve_common;

use duckchess::cli::json::Json;
use serve_common::Server;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The page a scenario opens: where, the name its files start with, and who answers
/// its API.
pub struct Page<'a> {
    /// The page's address.
    pub url: &'a str,
    /// `serve` for the served page, `site` for the static one.
    pub name: &'a str,
    /// `server` (`duckchess serve` answers) or `browser` (the page's own workers).
    pub api: &'a str,
}

impl<'a> Page<'a> {
    /// The page `duckchess serve` serves at `url`.
    pub fn served(url: &'a str) -> Page<'a> {
        Page {
            url,
            name: "serve",
            api: "server",
        }
    }

    /// Fails the test if the API was answered by another than the page's, or if the
    /// browser's console showed an error.
    pub fn check(&self, browser: &Browser) {
        let api = browser.eval_text("document.body.dataset.api");
        assert_eq!(api, self.api, "{}: who answered the API", self.name);
        let mut errors = browser.console_errors();
        // A server whose search slots are all taken answers 503, and the page asks
        // again a moment later, by design; the browser logs the 503 all the same.
        if self.api == "server" {
            errors.retain(|e| !e.contains("status of 503"));
        }
        assert!(
            errors.is_empty(),
            "{}: the console showed {errors:#?}",
            self.name
        );
    }
}

/// Whether the machine has a font for the Chinese names, as fontconfig sees it.
fn machine_has_cjk_font() -> bool {
    Command::new("fc-list")
        .args([":lang=zh-cn", "family"])
        .output()
        .map(|o| !String::from_utf8_lossy(&o.stdout).trim().is_empty())
        .unwrap_or(false)
}

/// A fontconfig file that offers Chromium every font of the machine but those that
/// can draw Chinese (or Japanese or Korean): a machine without a CJK font, wherever
/// the test runs.
fn fonts_without_cjk(dir: &Path, name: &str) -> PathBuf {
    let patterns: String = ["zh-cn", "zh-tw", "zh-hk", "ja", "ko"]
        .iter()
        .map(|lang| {
            format!(
                "      <pattern><patelt name=\"lang\"><string>{lang}</string></patelt></pattern>\n"
            )
        })
        .collect();
    let text = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\">\n\
         <fontconfig>\n  <include ignore_missing=\"yes\">/etc/fonts/fonts.conf</include>\n\
         \x20 <selectfont>\n    <rejectfont>\n{patterns}    </rejectfont>\n  </selectfont>\n\
         </fontconfig>\n"
    );
    let path = dir.join(format!(
        "fonts-without-cjk-{name}-{}.conf",
        std::process::id()
    ));
    fs::write(&path, text).expect("the fontconfig file is written");
    path
}

/// The game of the pictures and the layouts: a few moves in, a capture made, the red
/// horse to be selected.
const SHOWN_GAME: &str = "#moves=0122.9172.3444.6454.4454.6253";

/// Opens the replay tab and the statement's sample in it, through the file picker (a
/// copy named for `test`, which the caller removes).
fn replay_statement(browser: &Browser, test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let input = dir.join(format!("{test}-{}.in", std::process::id()));
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/statement.in"),
        &input,
    )
    .unwrap();
    browser.click("#tab-replay");
    browser.type_into("#replay-file", &input.display().to_string());
    browser.until("document.querySelectorAll('#replay-steps li').length === 18");
    input
}

#[test]
fn base64_decodes() {
    assert_eq!(browser::base64("aGVsbG8="), b"hello");
    assert_eq!(browser::base64("aGVsbG8h"), b"hello!");
    assert_eq!(browser::base64("aGk="), b"hi");
}

#[test]
#[ignore = "a browser (headless Chromium): the full tier runs it"]
fn play_and_replay_in_a_browser() {
    browser_present();
    let server = Server::start(&[]);
    play_and_replay_in_a_browser_at(&Page::served(&server.url));
    let (status, _) = server.stop();
    assert!(status.success());
}

/// The scenario of [`play_and_replay_in_a_browser`], on the page at `page`.
pub fn play_and_replay_in_a_browser_at(page: &Page) {
    let browser = Browser::start();
    browser.open(page.url);
    browser.until("document.body.dataset.ready === '1'");

    // The page knows whether this machine can draw the Chinese names: letters by
    // themselves, with a note, exactly when it cannot.
    let letters = browser.script("return document.getElementById('letters').checked;");
    let note_shown = browser.script("return !document.getElementById('font-note').hidden;");
    let cjk = machine_has_cjk_font();
    assert_eq!(
        letters,
        Json::Bool(!cjk),
        "letters by themselves: a CJK font here is {cjk}"
    );
    assert_eq!(note_shown, Json::Bool(!cjk));
    if !cjk {
        // The person may still ask for the Chinese names (drawn as boxes here): the
        // rest of this test checks them in the page.
        browser.click("#letters");
    }

    // Two people at the board (the page starts against the computer: see
    // `the_computer_answers_the_first_move`).
    browser.click("#opponent-human");

    // The start position, in Chinese names and the two colours.
    assert_eq!(browser.count("#board .piece"), 32);
    assert_eq!(browser.text("#status"), "red to move");
    assert_eq!(
        browser.script(
            "return document.querySelector('.piece[data-x=\"0\"][data-y=\"0\"] text').textContent;"
        ),
        Json::str("车")
    );
    assert_eq!(browser.count(".piece.red"), 16);
    assert_eq!(browser.count(".piece.blue"), 16);
    assert_eq!(browser.text("#side-marker"), "红");

    // Select the red horse: its one target is marked; then move there.
    browser.click_square(0, 1);
    assert_eq!(browser.squares(".selected"), vec!["0,1"]);
    assert_eq!(browser.squares(".target"), vec!["2,2"]);
    browser.click_square(2, 2);
    browser.until("document.querySelectorAll('#moves li').length === 1");
    assert_eq!(browser.text("#moves li .line"), "red horse;NA;no;no");
    assert_eq!(browser.text("#moves li .why"), "red horse (0, 1) -> (2, 2)");
    assert_eq!(browser.squares(".last"), vec!["0,1", "2,2"]);
    assert_eq!(browser.text("#status"), "blue to move");
    assert!(browser
        .script("return location.hash;")
        .as_str()
        .unwrap()
        .contains("moves=0122"));

    // An invalid move: the judge's verdict and reason, and nothing changes.
    browser.click_square(9, 0);
    assert_eq!(browser.squares(".target"), vec!["8,0"]);
    browser.click_square(5, 0);
    let message = browser.text("#message");
    assert!(
        message.contains("Invalid command") && message.contains("blocked at (7, 0)"),
        "{message}"
    );
    assert_eq!(browser.count("#moves li"), 1);

    // Three more moves, then a capture: red soldier takes blue soldier.
    for (from, to) in [
        ((9, 1), (7, 2)),
        ((3, 4), (4, 4)),
        ((6, 4), (5, 4)),
        ((4, 4), (5, 4)),
    ] {
        browser.click_square(from.0, from.1);
        browser.click_square(to.0, to.1);
    }
    browser.until("document.querySelectorAll('#moves li').length === 5");
    assert_eq!(
        browser.text("#moves li:last-child .line"),
        "red soldier;blue soldier;no;no"
    );
    assert_eq!(browser.text("#lost-blue"), "兵");

    // Undo takes the capture back; a reload restores the game from the address.
    browser.click("#undo");
    browser.idle();
    browser.until("document.querySelectorAll('#moves li').length === 4");
    assert_eq!(browser.text("#lost-blue"), "");
    browser.call("POST", &browser.at("/refresh"), Some(&Json::obj([])));
    browser.until("document.body.dataset.ready === '1'");
    assert_eq!(browser.count("#moves li"), 4);
    browser.click_square(4, 4);
    browser.click_square(5, 4);
    browser.until("document.querySelectorAll('#moves li').length === 5");

    // Letters instead of Chinese names; the flipped board puts row 0 on top.
    browser.click("#letters");
    assert_eq!(
        browser.script(
            "return document.querySelector('.piece[data-x=\"0\"][data-y=\"0\"] text').textContent;"
        ),
        Json::str("R")
    );
    browser.click("#letters");
    let top_of = |b: &Browser| {
        b.script("return Number(document.querySelector('.hit[data-x=\"0\"][data-y=\"0\"]').getAttribute('y'));")
            .as_int()
            .unwrap()
    };
    let before = top_of(&browser);
    browser.click("#flip");
    assert!(top_of(&browser) < before, "row 0 moves to the top");
    browser.click("#flip");

    // The computer plays blue (quickly) and answers the position.
    browser.script("document.getElementById('think').value = '200';");
    browser.script(
        "const s = document.getElementById('player-blue'); s.value = 'ai'; s.dispatchEvent(new Event('change'));",
    );
    browser.until("document.querySelectorAll('#moves li').length === 6");
    browser.idle();
    assert!(browser.text("#status").starts_with("red to move"));
    browser.script(
        "const s = document.getElementById('player-blue'); s.value = 'human'; s.dispatchEvent(new Event('change'));",
    );

    // Load a saved game through the file picker.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let saved = dir.join(format!("{}-browser-{}.txt", page.name, std::process::id()));
    fs::write(&saved, "4k4/9/9/9/9/9/9/9/9/R3K4 r\n1\n0 0 9 0\n").unwrap();
    browser.type_into("#load", &saved.display().to_string());
    browser.until("document.querySelectorAll('#moves li').length === 1");
    browser.idle();
    assert_eq!(browser.text("#moves li .line"), "red car;NA;yes;no");
    assert_eq!(browser.squares(".checked"), vec!["9,4"]);
    assert!(browser.text("#status").contains("check"));

    // Replay a judge input opened as a file, and step through it.
    let input = replay_statement(&browser, &format!("{}-browser", page.name));
    assert_eq!(
        browser.text("#replay-pos"),
        "command 0 of 18 (the start position)"
    );
    assert_eq!(browser.text("#replay-invalid"), "1 2 3 4 6 9 10 15 18");
    browser.click("#replay-next");
    assert_eq!(browser.text("#replay-line"), "Invalid command");
    assert_eq!(
        browser.text("#replay-reason"),
        "invalid: the car is blocked at (2, 0)"
    );
    assert_eq!(browser.squares(".highlight"), vec!["2,0"]);
    for _ in 0..4 {
        browser.click("#replay-next");
    }
    assert_eq!(browser.text("#replay-command"), "0 3 1 2");
    assert_eq!(browser.text("#replay-line"), "red guard;NA;no;no");
    assert_eq!(browser.text("#replay-reason"), "red guard (0, 3) -> (1, 2)");
    browser.click("#replay-prev");
    assert_eq!(browser.text("#replay-pos"), "command 4 of 18");
    browser.script("document.getElementById('replay-goto').value = '';");
    browser.type_into("#replay-goto", "17");
    browser.click("#replay-go");
    assert_eq!(browser.text("#replay-line"), "red duck;blue captain;no;yes");
    assert_eq!(
        browser.text("#replay-reason"),
        "red duck (6, 6) -> (9, 4), captures the blue captain; game over, red wins"
    );
    assert_eq!(browser.count(".piece"), 30);
    browser.click("#replay-invalid button[data-index=\"15\"]");
    assert_eq!(browser.text("#replay-pos"), "command 15 of 18");
    assert_eq!(browser.text("#replay-line"), "Invalid command");

    let _ = fs::remove_file(saved);
    let _ = fs::remove_file(input);
    page.check(&browser);
    drop(browser);
}

/// The browser test's analysis of the statement sample: the graph with the blunders
/// marked, a click on a point and the arrow keys moving the board, the engine's view
/// (the bar and the arrows), the analysis of the game in the game tab with a look at an
/// earlier position, a cancel, and a hint that shows a move without playing it.
#[test]
#[ignore = "a browser (headless Chromium): the full tier runs it"]
fn analysis_in_a_browser() {
    browser_present();
    let server = Server::start(&[]);
    analysis_in_a_browser_at(&Page::served(&server.url));
    let (status, _) = server.stop();
    assert!(status.success());
}

/// The scenario of [`analysis_in_a_browser`], on the page at `page`.
pub fn analysis_in_a_browser_at(page: &Page) {
    let browser = Browser::start();
    browser.open(page.url);
    browser.until("document.body.dataset.ready === '1'");
    assert_eq!(
        browser.script("return document.getElementById('graph-box').hidden;"),
        Json::Bool(true)
    );

    // The statement's sample, analysed at 0.1 s a position.
    let input = replay_statement(&browser, &format!("{}-analysis", page.name));
    assert_eq!(browser.text("#analyse"), "Analyse the input");
    browser.script(
        "const s = document.getElementById('analysis-time'); s.value = '100'; s.dispatchEvent(new Event('change'));",
    );
    browser.click("#analyse");
    browser.until("document.body.dataset.analysing === '0' && document.querySelectorAll('#graph .point').length === 10");
    assert_eq!(browser.text("#analysis-status"), "");
    // Blue's captain walking into the duck's reach (command 16, position 8) is a
    // blunder: a diamond and '??' on the graph, the verdict in the list and the table.
    assert_eq!(
        browser.count("#graph polygon.mark.v-blunder[data-index=\"8\"]"),
        1
    );
    assert_eq!(
        browser.eval_text(
            "document.querySelector('#graph .mark-label[data-index=\"8\"]').textContent"
        ),
        "??"
    );
    assert_eq!(browser.count("#replay-steps li .verdict"), 9);
    assert_eq!(
        browser.text("#replay-steps li[data-index=\"16\"] .verdict"),
        "?? blunder"
    );
    assert!(browser
        .text("#replay-steps li[data-index=\"16\"] .better")
        .starts_with("· better: blue "));
    assert_eq!(
        browser.text("#replay-steps li[data-index=\"17\"] .verdict"),
        "best"
    );
    assert_eq!(browser.count("#graph-rows tr"), 9);
    let summary = browser.text("#analysis-summary");
    assert!(
        summary.starts_with("red: 5 moves, average loss "),
        "{summary}"
    );
    assert!(summary.contains("blue: 4 moves"), "{summary}");
    // A long game's graph stays readable: drawn for 150 made-up moves, each verdict in
    // turn, it has a thinner line, no points, no inaccuracies, the other verdicts'
    // marks, and symbols for the blunders and missed wins only, apart.
    assert_eq!(
        browser.eval_text(&format!("(() => {{ {LONG_GRAPH_CHECK} }})()")),
        "75 marks, 1.5px line"
    );
    browser.script("duckchess.renderAll();");
    assert_eq!(browser.count("#graph .point"), 10);
    assert_eq!(browser.count("#graph.crowded"), 0);

    // A click on the point of position 3 (command 8, red soldier 3 2 2 3) moves the
    // board there; the arrow keys on the graph step on.
    browser.click("#graph .point[data-index=\"3\"]");
    assert_eq!(browser.text("#replay-pos"), "command 8 of 18");
    assert_eq!(
        browser.eval_text(
            "document.querySelector('.piece[data-x=\"2\"][data-y=\"3\"]').dataset.piece"
        ),
        "S"
    );
    assert_eq!(
        browser.eval_text("document.getElementById('graph').getAttribute('aria-valuenow')"),
        "3"
    );
    browser.script("document.getElementById('graph').focus();");
    browser.keys(&[RIGHT]);
    assert_eq!(browser.text("#replay-pos"), "command 11 of 18");
    assert!(browser
        .eval_text("document.getElementById('graph').getAttribute('aria-valuetext')")
        .starts_with("after move 4, blue elephant 9 2 7 4: "));
    assert_eq!(
        browser.text("#announce"),
        browser.eval_text("document.getElementById('graph').getAttribute('aria-valuetext')")
    );

    // The engine's view: the bar says the score in words, the line is drawn as
    // numbered arrows.
    browser.click("#engine-view");
    browser.until("document.querySelectorAll('#board .arrow.best').length === 1");
    assert!(
        browser.text("#evalbar-text").starts_with("engine: +"),
        "{}",
        browser.text("#evalbar-text")
    );
    assert!(browser.count("#board .arrow.next") >= 1);
    let contrast = browser.eval_text(&format!("(() => {{ {CONTRAST_CHECK} }})()"));
    assert_eq!(contrast, "", "contrast with the analysis shown");
    let clear = browser.eval_text(&format!("(() => {{ {ARROWS_CLEAR_CHECK} }})()"));
    assert_eq!(clear, "", "the engine's arrows");

    // The game tab: a game analysed, an earlier position looked at, then the game again.
    browser.click("#tab-game");
    browser.open(&format!("{}{SHOWN_GAME}", page.url));
    browser.until("document.body.dataset.ready === '1'");
    browser.idle();
    browser.until("document.querySelectorAll('#board .arrow.best').length === 1");
    let said = browser.text("#evalbar-text");
    assert!(said.contains("; best: red "), "{said}");
    assert!(said.ends_with(" in UCI)"), "{said}");
    let clear = browser.eval_text(&format!("(() => {{ {ARROWS_CLEAR_CHECK} }})()"));
    assert_eq!(clear, "", "the engine's arrows in the game");
    assert_eq!(browser.text("#analyse"), "Analyse the game");
    browser.click("#analyse");
    browser.until("document.body.dataset.analysing === '0' && document.querySelectorAll('#graph .point').length === 7");
    assert_eq!(browser.count("#moves li .verdict"), 6);
    browser.click("#graph .point[data-index=\"2\"]");
    browser.idle();
    assert_eq!(
        browser.text("#viewing-text"),
        "the position after move 2 of 6"
    );
    assert_eq!(
        browser.eval_text(
            "document.querySelector('.piece[data-x=\"7\"][data-y=\"2\"]').dataset.piece"
        ),
        "h"
    );
    assert_eq!(
        browser.count(".piece[data-x=\"4\"][data-y=\"4\"]"),
        0,
        "the soldier has not moved yet"
    );
    browser.click_square(2, 2);
    assert_eq!(browser.count(".selected"), 0, "no play while looking back");
    browser.click("#view-live");
    browser.idle();
    assert_eq!(
        browser.script("return document.getElementById('viewing').hidden;"),
        Json::Bool(true)
    );
    assert_eq!(browser.count(".piece[data-x=\"5\"][data-y=\"4\"]"), 1);

    // A cancel stops the analysis at once.
    browser.script(
        "const s = document.getElementById('analysis-time'); s.value = '1000'; s.dispatchEvent(new Event('change'));",
    );
    browser.click("#analyse");
    browser.until("document.body.dataset.analysing === '1'");
    browser.click("#analysis-cancel");
    browser.until("document.body.dataset.analysing === '0'");
    assert!(browser
        .text("#analysis-status")
        .starts_with("cancelled after "));

    // A hint: an arrow and its words, and the game unchanged.
    browser.click("#engine-view");
    browser.script("document.getElementById('level').value = '2';");
    browser.click("#hint");
    browser.idle();
    assert_eq!(browser.count("#board .arrow.hint"), 1);
    assert_eq!(browser.count("#board .arrow.hint .ring"), 1);
    assert_eq!(browser.count("#board .arrow.best"), 0);
    let clear = browser.eval_text(&format!("(() => {{ {ARROWS_CLEAR_CHECK} }})()"));
    assert_eq!(clear, "", "the hint hides none of the piece it moves");
    let said = browser.text("#message");
    assert!(said.starts_with("hint: red "), "{said}");
    assert!(said.ends_with("(the computer's move at level 2)"), "{said}");
    assert_eq!(browser.count("#moves li"), 6);
    assert!(browser
        .script("return location.hash;")
        .as_str()
        .unwrap()
        .contains("moves=0122.9172.3444.6454.4454.6253"));
    assert_eq!(browser.text("#status"), "red to move");
    let contrast = browser.eval_text(&format!("(() => {{ {CONTRAST_CHECK} }})()"));
    assert_eq!(contrast, "", "contrast with a hint");

    let _ = fs::remove_file(input);
    page.check(&browser);
    drop(browser);
}

/// Whether an arrow hides any of the piece it moves, as failures, one a line: every
/// point of the piece's disc is hit-tested, and no part of its arrow (the shaft, the
/// head, a hint's ring, the label) may be there. The hint and the engine's first move
/// start from a piece on the board (the later moves of its line may start from a
/// square that is empty until then).
const ARROWS_CLEAR_CHECK: &str = r#"
const failures = [];
for (const a of document.querySelectorAll('#board .arrow.hint, #board .arrow.best')) {
  const [x, y] = a.dataset.move.split(' ').map(Number);
  const disc = document.querySelector(`#board .piece[data-x="${x}"][data-y="${y}"] .disc`);
  if (!disc) {
    failures.push(`no piece under the arrow ${a.dataset.move}`);
    continue;
  }
  const r = disc.getBoundingClientRect();
  const [cx, cy, radius] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2, r.width / 2];
  let covered = 0;
  for (let dy = -radius; dy <= radius; dy += 1.5) {
    for (let dx = -radius; dx <= radius; dx += 1.5) {
      if (dx * dx + dy * dy > radius * radius) continue;
      if (document.elementsFromPoint(cx + dx, cy + dy).some((e) => e.closest('.arrow') === a)) covered++;
    }
  }
  if (covered) failures.push(`${a.getAttribute('class')} ${a.dataset.move} covers ${covered} points of its piece`);
}
return failures.join('\n');
"#;

/// The graph drawn for a made-up game of 150 moves whose verdicts go round (best, good,
/// inaccuracy, mistake, blunder, missed win): its marks and line width, or what is
/// wrong with it.
const LONG_GRAPH_CHECK: &str = r#"
const verdicts = ['best', 'good', 'inaccuracy', 'mistake', 'blunder', 'missed win'];
const st = {
  moves: Array(150).fill([0, 1, 2, 2]),
  positions: Array.from({ length: 151 }, (_, k) => ({ eval: { cp: (k % 7) * 100 - 300 } })),
  reviews: Array.from({ length: 151 }, (_, k) => (k === 0 ? undefined
    : { verdict: verdicts[k % 6], piece: 'red horse', move: [0, 1, 2, 2] })),
};
duckchess.drawGraph(st, 0);
const g = document.getElementById('graph');
const wrong = [];
if (!g.classList.contains('crowded')) wrong.push('not drawn as crowded');
const points = g.querySelectorAll('.point:not(.mark)').length;
if (points) wrong.push(`${points} points`);
if (g.querySelector('.mark.v-inaccuracy')) wrong.push('inaccuracies marked');
const labels = [...g.querySelectorAll('.mark-label')];
if (!labels.length) wrong.push('no symbols');
let last = -Infinity;
for (const t of labels) {
  if (t.textContent !== '??' && t.textContent !== '×') wrong.push(`symbol ${t.textContent}`);
  const x = Number(t.getAttribute('x'));
  if (x - last < 30) wrong.push(`symbols ${x - last} apart`);
  last = x;
}
if (wrong.length) return wrong.join('; ');
const width = getComputedStyle(g.querySelector('.graph-line')).strokeWidth;
return `${g.querySelectorAll('.mark').length} marks, ${width} line`;
"#;

/// Every colour pair of the page that carries meaning, from the computed colours: text
/// against its background (4.5:1), and the pieces, the marks on the board, the grid
/// and the borders of the controls against theirs (3:1). Returns the failures, one a
/// line. Disabled controls are exempt, as WCAG has it.
const CONTRAST_CHECK: &str = r#"
const parse = (text) => {
  const m = /rgba?\(([^)]+)\)/.exec(text || '');
  if (!m) return null;
  const v = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  return { r: v[0], g: v[1], b: v[2], a: v.length > 3 ? v[3] : 1 };
};
const lum = (c) => {
  const f = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
};
const ratio = (a, b) => {
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};
const over = (top, under) => ({
  r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
  b: top.b * top.a + under.b * (1 - top.a), a: 1,
});
const background = (el) => {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
  }
  let bg = { r: 255, g: 255, b: 255, a: 1 };
  for (const c of layers.reverse()) bg = over(c, bg);
  return bg;
};
const shown = (e) => {
  const r = e.getBoundingClientRect();
  return r.width > 1 && r.height > 1 && getComputedStyle(e).visibility !== 'hidden' && !e.closest('.sr-only');
};
const name = (e) => e.id ? '#' + e.id : (e.className && e.className.baseVal !== undefined ? e.className.baseVal : e.className) || e.tagName;
const failures = [];
const need = (what, fg, bg, min) => {
  if (!fg || !bg) return;
  const r = ratio(fg, bg);
  if (r < min) failures.push(`${what}: ${r.toFixed(2)} < ${min}`);
};
for (const e of document.querySelectorAll('body *')) {
  if (e.closest('svg') || !shown(e) || e.closest(':disabled')) continue;
  const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const style = getComputedStyle(e);
  if (own || e.tagName === 'SELECT') {
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const large = size >= 24 || (size >= 18.66 && bold);
    need(`text of ${name(e)} "${e.textContent.trim().slice(0, 20)}"`, parse(style.color), background(e), large ? 3 : 4.5);
  }
  if (['BUTTON', 'SELECT', 'TEXTAREA', 'INPUT'].includes(e.tagName) && !e.classList.contains('link')
      && e.type !== 'checkbox' && e.type !== 'file') {
    const outside = background(e.parentElement);
    const fill = background(e);
    // A control stands out by its border, or by a fill of its own.
    if (ratio(fill, outside) < 3) need(`border of ${name(e)}`, parse(style.borderTopColor), outside, 3);
  }
}
const svg = document.getElementById('board');
const paper = parse(getComputedStyle(svg.querySelector('.wood')).fill);
const fill = (e) => parse(getComputedStyle(e).fill);
const stroke = (e) => parse(getComputedStyle(e).stroke);
for (const t of svg.querySelectorAll('.labels text')) need('coordinate label', fill(t), paper, 4.5);
for (const g of svg.querySelectorAll('.piece')) {
  const disc = g.querySelector('.disc');
  const base = fill(disc).a > 0 ? fill(disc) : paper;
  need(`glyph of ${g.dataset.piece} on ${g.dataset.x},${g.dataset.y}`, fill(g.querySelector('text')), base, 4.5);
  const edge = ratio(base, paper) >= 3 ? base : stroke(disc);
  need(`disc of ${g.dataset.piece}`, edge, paper, 3);
}
for (const m of svg.querySelectorAll('.marker')) need('side marker', fill(m), paper, 4.5);
for (const cls of ['target', 'selected', 'tried', 'checked', 'highlight', 'cursor']) {
  for (const e of svg.querySelectorAll('.' + cls)) need(cls, stroke(e), paper, 3);
}
for (const l of svg.querySelectorAll('.grid line')) { need('grid line', stroke(l), paper, 3); break; }
// The engine's arrows and a hint's ring, as drawn (with their opacity) on the board.
for (const a of svg.querySelectorAll('.arrow')) {
  const alpha = parseFloat(getComputedStyle(a).opacity);
  const line = stroke(a.querySelector('line'));
  need(`arrow ${a.getAttribute('class')}`, over({ ...line, a: alpha }, paper), paper, 3);
  for (const ring of a.querySelectorAll('.ring')) need(`ring ${a.getAttribute('class')}`, over({ ...stroke(ring), a: alpha }, paper), paper, 3);
  need(`arrow label ${a.getAttribute('class')}`, fill(a.querySelector('text')), fill(a.querySelector('.badge')), 4.5);
}
// The analysis graph: its line, points, marks and words against its white ground.
const graph = document.getElementById('graph');
if (graph && shown(graph)) {
  const ground = fill(graph.querySelector('.graph-bg'));
  for (const e of graph.querySelectorAll('.graph-line, .graph-axis, .graph-cursor')) need(`graph ${e.getAttribute('class')}`, stroke(e), ground, 3);
  for (const e of graph.querySelectorAll('.point')) need(`graph point ${e.getAttribute('class')}`, fill(e), ground, 3);
  for (const e of graph.querySelectorAll('.graph-label, .mark-label')) need(`graph text ${e.textContent}`, fill(e), ground, 4.5);
}
for (const c of document.querySelectorAll('.chip.red, .chip.blue')) {
  if (shown(c)) need('turn marker', parse(getComputedStyle(c).color), background(c), 4.5);
}
return failures.join('\n');
"#;

/// The problems of the layout at this size: what is not on the screen, a page wider
/// than the screen, the panel neither beside nor under the board.
const LAYOUT_CHECK: &str = r#"
const problems = [];
const box = (id) => document.getElementById(id).getBoundingClientRect();
const inView = (id) => {
  const r = box(id);
  if (r.width < 1 || r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
    problems.push(`${id} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} is not on the ${innerWidth}x${innerHeight} screen`);
  }
};
if (document.documentElement.scrollWidth > innerWidth) {
  problems.push(`the page is ${document.documentElement.scrollWidth} px wide on a ${innerWidth} px screen`);
}
for (const id of ARGS) inView(id);
return problems.join('\n');
"#;

/// What the page makes of the window, measured from the DOM: the panel's width, the
/// graph's width on the screen and its share of the panel's (less the panel's
/// padding), the scale it is drawn at (its box's
/// width over its drawing's), the smallest of its words on the screen, how much of the
/// window's width the board and the panel span, and how much of its height the board
/// takes.
const USE_OF_THE_WINDOW: &str = r#"(() => {
  const graph = document.getElementById('graph');
  const panel = document.querySelector('aside');
  const aside = panel.getBoundingClientRect();
  const style = getComputedStyle(panel);
  const inside = aside.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const table = document.getElementById('table').getBoundingClientRect();
  const board = document.getElementById('board').getBoundingClientRect();
  const graphScale = graph.clientWidth / graph.viewBox.baseVal.width;
  const words = [...graph.querySelectorAll('.graph-label, .mark-label')]
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * graphScale);
  return JSON.stringify({
    panel: aside.width,
    graph: graph.getBoundingClientRect().width,
    graphInPanel: graph.getBoundingClientRect().width / inside,
    graphScale,
    graphWords: Math.min(...words),
    across: (Math.max(aside.right, table.right) - Math.min(aside.left, table.left)) / innerWidth,
    boardHeight: board.height / innerHeight,
  });
})()"#;

#[test]
#[ignore = "a browser (headless Chromium): the full tier runs it"]
fn the_layout_follows_the_screen() {
    browser_present();
    let server = Server::start(&[]);
    the_layout_follows_the_screen_at(&Page::served(&server.url));
    let (status, _) = server.stop();
    assert!(status.success());
}

/// The scenario of [`the_layout_follows_the_screen`], on the page at `page`.
pub fn the_layout_follows_the_screen_at(page: &Page) {
    let browser = Browser::start();
    let sample =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/statement.in"))
            .unwrap();
    let mut report = Vec::new();
    for (width, height) in [
        (1920, 1080),
        (1280, 1024),
        (1280, 800),
        (800, 600),
        (390, 844),
    ] {
        let size = format!("{width}x{height}");
        browser.viewport(width, height);
        browser.open("about:blank");
        browser.open(&format!("{}{SHOWN_GAME}", page.url));
        browser.until("document.body.dataset.ready === '1'");
        browser.idle();
        browser.click_square(2, 2);
        assert_eq!(
            browser.squares(".target").len(),
            4,
            "{size}: the horse's targets"
        );
        let compact = width < 1000;
        assert_eq!(
            browser.script("return document.body.classList.contains('compact');"),
            Json::Bool(compact),
            "{size}: the drawing"
        );
        // The board, the side to move (the marker beside the board, or before the
        // status under a compact one) and the move controls, all on the screen.
        let marker = if compact {
            "turn-marker"
        } else {
            "side-marker"
        };
        let ids = ["board", "status", marker, "new", "undo", "resign", "ai-now"];
        let check = LAYOUT_CHECK.replace("ARGS", &format!("{ids:?}"));
        let problems = browser.eval_text(&format!("(() => {{ {check} }})()"));
        assert_eq!(problems, "", "{size}");
        let beside = browser.script(
            "const b = document.getElementById('table').getBoundingClientRect(); \
             const a = document.querySelector('aside').getBoundingClientRect(); \
             return a.left >= b.right ? 'beside' : a.top >= b.bottom ? 'under' : 'overlapping';",
        );
        let expected = if width < 600 { "under" } else { "beside" };
        assert_eq!(beside, Json::str(expected), "{size}: the panel");
        let square = browser
            .script("return Math.floor(document.getElementById('sq-4-4').getBoundingClientRect().width);")
            .as_int()
            .unwrap_or(0);
        let button = browser
            .script("return Math.round(document.getElementById('undo').getBoundingClientRect().height);")
            .as_int()
            .unwrap_or(0);
        let label = browser.eval_text(
            "Math.round(parseFloat(document.querySelector('.labels').getAttribute('font-size')) * \
             document.getElementById('board').getBoundingClientRect().width / \
             document.getElementById('board').viewBox.baseVal.width)",
        );
        assert!(
            label.parse::<i64>().unwrap_or(0) >= 12,
            "{size}: labels {label} px"
        );
        if width < 600 {
            // A phone: the squares as wide as nine columns allow, the controls for a
            // finger, and the move list starting on the screen.
            assert!(square >= 40, "{size}: squares {square} px");
            assert!(button >= 44, "{size}: buttons {button} px tall");
            let list_top = browser
                .script("return document.getElementById('moves').getBoundingClientRect().top < innerHeight;");
            assert_eq!(
                list_top,
                Json::Bool(true),
                "{size}: the move list starts on the screen"
            );
        }
        let contrast = browser.eval_text(&format!("(() => {{ {CONTRAST_CHECK} }})()"));
        assert_eq!(contrast, "", "{size}: contrast");

        // The panel and the graph use the window: the game analysed (quickly), then
        // measured from the page.
        browser.script(
            "const s = document.getElementById('analysis-time'); s.value = '100'; s.dispatchEvent(new Event('change'));",
        );
        browser.click("#analyse");
        browser.until("document.body.dataset.analysing === '0' && document.querySelectorAll('#graph .point').length === 7");
        let used = Json::parse(browser.eval_text(USE_OF_THE_WINDOW).as_bytes()).unwrap();
        let number = |key: &str| match used.get(key) {
            Some(Json::Num(v)) => *v,
            _ => -1.0,
        };
        report.push(format!(
            "{size}: squares {square} px, buttons {button} px tall, edge labels {label} px; \
             panel {:.0} px, graph {:.0} px wide ({:.0}% of the panel), drawn at {:.0}%, \
             its words {:.1} px; board and panel across {:.0}% of the width, the board \
             {:.0}% of the height",
            number("panel"),
            number("graph"),
            100.0 * number("graphInPanel"),
            100.0 * number("graphScale"),
            number("graphWords"),
            100.0 * number("across"),
            100.0 * number("boardHeight"),
        ));
        assert!(number("graphWords") >= 11.0, "{size}: {used}");
        assert!(
            (0.98..=1.02).contains(&number("graphScale")),
            "{size}: the graph is drawn at the size of its box: {used}"
        );
        assert!(
            number("graphInPanel") >= 0.95,
            "{size}: the graph spans the panel: {used}"
        );
        if width >= 1100 {
            // A wide window: board and panel take its width, and the panel keeps room
            // for its controls and the graph beside the board.
            assert!(number("across") >= 0.9, "{size}: {used}");
            assert!(number("panel") >= 440.0, "{size}: {used}");
        }
        // The button scrolled the page to it; at the top again, all is on the screen.
        browser.script("window.scrollTo(0, 0);");
        let problems = browser.eval_text(&format!("(() => {{ {check} }})()"));
        assert_eq!(problems, "", "{size}: with the graph");

        // With the engine's evaluation bar under the board, the board leaves it room.
        let engine = "const c = document.getElementById('engine-view'); c.checked = !c.checked; \
                      c.dispatchEvent(new Event('change'));";
        browser.script(engine);
        browser.until("document.querySelectorAll('#board .arrow.best').length === 1");
        let ids = [
            "board", "evalbar", "status", marker, "new", "undo", "resign", "ai-now", "hint",
        ];
        let check = LAYOUT_CHECK.replace("ARGS", &format!("{ids:?}"));
        let problems = browser.eval_text(&format!("(() => {{ {check} }})()"));
        assert_eq!(problems, "", "{size}: with the engine's view");
        let contrast = browser.eval_text(&format!("(() => {{ {CONTRAST_CHECK} }})()"));
        assert_eq!(contrast, "", "{size}: contrast with the engine's view");
        browser.script(engine);

        // The replay: its current command's line stays on the screen with the board.
        browser.click("#tab-replay");
        browser.script(&format!(
            "document.getElementById('replay-text').value = {};",
            Json::str(sample.as_str())
        ));
        browser.click("#replay-run");
        browser.until("document.querySelectorAll('#replay-steps li').length === 18");
        for _ in 0..5 {
            browser.click("#replay-next");
        }
        assert_eq!(browser.text("#replay-line"), "red guard;NA;no;no");
        let ids = [
            "board",
            "replay-current",
            "replay-next",
            "replay-prev",
            "status",
        ];
        let check = LAYOUT_CHECK.replace("ARGS", &format!("{ids:?}"));
        let problems = browser.eval_text(&format!("(() => {{ {check} }})()"));
        assert_eq!(problems, "", "{size}: replay");
        let contrast = browser.eval_text(&format!("(() => {{ {CONTRAST_CHECK} }})()"));
        assert_eq!(contrast, "", "{size}: contrast in the replay");
        browser.click("#tab-game");
    }
    println!("{}", report.join("\n"));
    page.check(&browser);
    drop(browser);
}

#[test]
#[ignore = "a browser (headless Chromium): the full tier runs it"]
fn the_computer_answers_the_first_move() {
    browser_present();
    let server = Server::start(&[]);
    the_computer_answers_the_first_move_at(&Page::served(&server.url));
    let (status, _) = server.stop();
    assert!(status.success());
}

/// Who plays, as the page shows it: the opponent's buttons and the two menus.
fn players(browser: &Browser) -> String {
    browser.eval_text(
        "(document.getElementById('opponent-ai').checked ? 'computer' : '') + \
         (document.getElementById('opponent-human').checked ? 'person' : '') + ': red ' + \
         document.getElementById('player-red').value + ', blue ' + \
         document.getElementById('player-blue').value",
    )
}

/// Where the labels of the board's edges are, as failures, one a line: one numbering
/// on every edge, the judge's: the rows 0-9 on the left and on the right, the columns
/// 0-8 at the top and at the bottom, each in line with its row or column, flipped or
/// not; UCI's names (files a-i, ranks 1-10) only in the labels' tooltips.
const EDGES_CHECK: &str = r#"
const hit = (x, y) => document.getElementById(`sq-${x}-${y}`).getBoundingClientRect();
const mid = (r, axis) => axis === 'x' ? (r.left + r.right) / 2 : (r.top + r.bottom) / 2;
const row = (x) => [...Array(9).keys()].map((y) => hit(x, y));
const col = (y) => [...Array(10).keys()].map((x) => hit(x, y));
const failures = [];
// The label's own text (its title, for a pointer's hover, comes after it).
const text = (t) => t.firstChild.nodeValue;
const check = (cls, names, squares, beside, axis) => {
  const labels = [...document.querySelectorAll(`#board .labels text.${cls}`)];
  const shown = labels.map(text).join(' ');
  if (shown !== names.join(' ')) failures.push(`${cls}: ${shown}`);
  labels.forEach((t, i) => {
    const r = t.getBoundingClientRect();
    const line = squares(i);
    if (Math.abs(mid(r, axis) - mid(line[0], axis)) > 2) failures.push(`${cls} ${text(t)} out of line`);
    if (!beside(r, line)) failures.push(`${cls} ${text(t)} not on its edge`);
  });
};
const range = (n) => [...Array(n).keys()].map(String);
check('row.left', range(10), row, (r, line) => line.every((s) => r.right <= s.left), 'y');
check('row.right', range(10), row, (r, line) => line.every((s) => r.left >= s.right), 'y');
check('col.top', range(9), col, (r, line) => line.every((s) => r.bottom <= s.top), 'x');
check('col.bottom', range(9), col, (r, line) => line.every((s) => r.top >= s.bottom), 'x');
const all = [...document.querySelectorAll('#board .labels text')];
if (all.length !== 38) failures.push(`${all.length} labels on the edges`);
for (const t of all) {
  if (!/^[0-9]$/.test(text(t))) failures.push(`an edge says ${text(t)}`);
}
const titles = all.map((t) => t.querySelector('title').textContent);
if (!titles.includes('row 9, as the judge numbers it (xs or xt); rank 10 in UCI')) failures.push(`titles: ${titles[9]}`);
if (!titles.includes('column 1, as the judge numbers it (ys or yt); file b in UCI')) failures.push('no UCI file in the titles');
return failures.join('\n');
"#;

/// The scenario of [`the_computer_answers_the_first_move`], on the page at `page`: a
/// visitor plays red against the computer from the start; two people are one click
/// away, and the choice is kept for the next visit; a browser that refuses the page
/// its storage gets the same page, which then forgets. The board's edges name the
/// rows and columns in both notations.
pub fn the_computer_answers_the_first_move_at(page: &Page) {
    let browser = Browser::start();
    browser.open(page.url);
    browser.until("document.body.dataset.ready === '1'");
    assert_eq!(players(&browser), "computer: red human, blue ai");
    let edges = browser.eval_text(&format!("(() => {{ {EDGES_CHECK} }})()"));
    assert_eq!(edges, "", "the edges");
    browser.click("#flip");
    let edges = browser.eval_text(&format!("(() => {{ {EDGES_CHECK} }})()"));
    assert_eq!(edges, "", "the edges of the flipped board");
    browser.click("#flip");

    // Red's first move gets blue's reply, unasked.
    browser.script("document.getElementById('level').value = '1';");
    browser.click_square(0, 1);
    browser.click_square(2, 2);
    browser.until("document.querySelectorAll('#moves li').length === 2");
    browser.idle();
    assert!(
        browser
            .text("#moves li:last-child .line")
            .starts_with("blue "),
        "{}",
        browser.text("#moves")
    );
    assert_eq!(browser.text("#status"), "red to move");

    // Two people, one click, even while the computer thinks: its search stops, and
    // blue is a person's to move.
    browser.script(
        "document.getElementById('level').value = '8';\
         document.getElementById('think').value = '5000';",
    );
    browser.click_square(3, 4);
    browser.click_square(4, 4);
    browser.until("document.getElementById('status').textContent.includes('thinking')");
    browser.click("#opponent-human");
    assert_eq!(players(&browser), "person: red human, blue human");
    assert_eq!(
        browser.eval_text("String(duckchess.ui.thinking)"),
        "null",
        "the search stopped"
    );
    browser.idle();
    std::thread::sleep(std::time::Duration::from_millis(600));
    assert_eq!(browser.count("#moves li"), 3, "no reply between two people");
    assert_eq!(browser.text("#status"), "blue to move");
    assert_eq!(browser.text("#message"), "");

    // The choice outlives a reload, and so does the game.
    browser.call("POST", &browser.at("/refresh"), Some(&Json::obj([])));
    browser.until("document.body.dataset.ready === '1'");
    assert_eq!(players(&browser), "person: red human, blue human");
    std::thread::sleep(std::time::Duration::from_millis(600));
    browser.idle();
    assert_eq!(browser.count("#moves li"), 3, "no reply after the reload");
    assert_eq!(browser.text("#status"), "blue to move");

    // The computer again, one click: it is blue's turn, and it moves.
    browser.script("document.getElementById('level').value = '1';");
    browser.click("#opponent-ai");
    assert_eq!(players(&browser), "computer: red human, blue ai");
    browser.until("document.querySelectorAll('#moves li').length === 4");
    browser.idle();
    browser.call("POST", &browser.at("/refresh"), Some(&Json::obj([])));
    browser.until("document.body.dataset.ready === '1'");
    assert_eq!(players(&browser), "computer: red human, blue ai");
    // The screen-reader words of the evaluation: a small score is "equal".
    assert_eq!(
        browser.eval_text("duckchess.evalWords({ cp: 12 })"),
        "equal"
    );
    assert_eq!(
        browser.eval_text("duckchess.evalWords({ cp: -40 })"),
        "blue is ahead"
    );
    page.check(&browser);
    drop(browser);

    // Storage refused: the same page and the same game, nothing kept.
    let browser = Browser::start_refusing_storage();
    browser.open(page.url);
    browser.until("document.body.dataset.ready === '1'");
    assert_eq!(
        browser.eval_text(
            "(() => { try { localStorage.getItem('x'); return 'kept'; } \
             catch (e) { return 'refused'; } })()"
        ),
        "refused",
        "this browser refuses the page its storage"
    );
    assert_eq!(players(&browser), "computer: red human, blue ai");
    browser.script("document.getElementById('level').value = '1';");
    browser.click_square(0, 1);
    browser.click_square(2, 2);
    browser.until("document.querySelectorAll('#moves li').length === 2");
    browser.idle();
    browser.click("#opponent-human");
    assert_eq!(players(&browser), "person: red human, blue human");
    browser.click("#letters");
    browser.call("POST", &browser.at("/refresh"), Some(&Json::obj([])));
    browser.until("document.body.dataset.ready === '1'");
    assert_eq!(players(&browser), "computer: red human, blue ai");
    assert_eq!(browser.count("#moves li"), 2);
    page.check(&browser);
    drop(browser);
}

#[test]
#[ignore = "a browser (headless Chromium): the full tier runs it"]
fn a_whole_move_by_keyboard() {
    browser_present();
    let server = Server::start(&[]);
    a_whole_move_by_keyboard_at(&Page::served(&server.url));
    let (status, _) = server.stop();
    assert!(status.success());
}

/// The scenario of [`a_whole_move_by_keyboard`], on the page at `page`.
pub fn a_whole_move_by_keyboard_at(page: &Page) {
    let browser = Browser::start();
    browser.open(page.url);
    browser.until("document.body.dataset.ready === '1'");
    // Two people, so that blue's pieces can be looked at after red's move (chosen
    // without the focus moving: the first Tab is the test's).
    browser.script("document.getElementById('opponent-human').click();");
    let said = |b: &Browser| b.text("#announce");
    let label = |b: &Browser, x: u8, y: u8| {
        b.eval_text(&format!(
            "document.getElementById('sq-{x}-{y}').getAttribute('aria-label')"
        ))
    };

    // The first Tab reaches the board, which shows its cursor on the red captain.
    browser.keys(&[TAB]);
    assert_eq!(browser.eval_text("document.activeElement.id"), "board");
    assert_eq!(
        browser.eval_text("getComputedStyle(document.querySelector('#board .keys')).display"),
        "inline"
    );
    assert_eq!(
        browser.eval_text("document.getElementById('board').getAttribute('aria-activedescendant')"),
        "sq-0-4"
    );
    assert!(
        said(&browser).starts_with("red captain on 0, 4; legal targets 1, 4."),
        "{}",
        said(&browser)
    );

    // Left three times: the red horse and its one target.
    browser.keys(&[LEFT, LEFT, LEFT]);
    assert_eq!(said(&browser), "red horse on 0, 1; legal targets 2, 2");
    assert_eq!(
        label(&browser, 0, 1),
        "red horse on 0, 1; legal targets 2, 2"
    );
    browser.keys(&[ENTER]);
    assert_eq!(browser.squares(".selected"), vec!["0,1"]);
    assert_eq!(browser.squares(".target"), vec!["2,2"]);
    assert!(said(&browser).ends_with("; selected"), "{}", said(&browser));

    // Up twice and right once, onto the target; Enter moves there.
    browser.keys(&[UP, UP, RIGHT]);
    assert_eq!(
        said(&browser),
        "empty square 2, 2; the red horse can move here"
    );
    browser.keys(&[ENTER]);
    browser.until("document.querySelectorAll('#moves li').length === 1");
    assert_eq!(browser.text("#moves li .line"), "red horse;NA;no;no");
    assert_eq!(browser.text("#status"), "blue to move");
    assert!(
        said(&browser).starts_with("red horse (0, 1) -> (2, 2)"),
        "{}",
        said(&browser)
    );
    assert_eq!(
        label(&browser, 2, 2),
        "red horse on 2, 2; last move",
        "the horse's new square"
    );

    // Blue's guard: two targets, named in order; Escape drops the selection.
    browser.keys(&[UP, UP, UP, UP, UP, UP, UP, RIGHT]);
    let guard = said(&browser);
    assert!(
        guard == "blue guard on 9, 3; legal targets 8, 2 and 8, 4"
            || guard == "blue guard on 9, 3; legal targets 8, 4 and 8, 2",
        "{guard}"
    );
    browser.keys(&[" "]);
    assert_eq!(browser.squares(".selected"), vec!["9,3"]);
    browser.keys(&[ESCAPE]);
    assert_eq!(browser.count(".selected"), 0);
    assert_eq!(said(&browser), "selection cancelled");

    // The replay buttons have names for assistive technology.
    for (id, name) in [
        ("replay-first", "first: the start position"),
        ("replay-prev", "previous command"),
        ("replay-next", "next command"),
        ("replay-last", "last command"),
    ] {
        let shown = browser.eval_text(&format!(
            "document.getElementById('{id}').getAttribute('aria-label')"
        ));
        assert_eq!(shown, name);
    }
    page.check(&browser);
    drop(browser);
}

#[test]
#[ignore = "a browser (headless Chromium): the full tier runs it"]
fn letters_by_themselves_without_a_chinese_font() {
    browser_present();
    let server = Server::start(&[]);
    letters_by_themselves_without_a_chinese_font_at(&Page::served(&server.url));
    let (status, _) = server.stop();
    assert!(status.success());
}

/// The scenario of [`letters_by_themselves_without_a_chinese_font`], on the page at `page`.
pub fn letters_by_themselves_without_a_chinese_font_at(page: &Page) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let config = fonts_without_cjk(&dir, page.name);
    let browser = Browser::start_with(&[("FONTCONFIG_FILE", config.as_path())]);
    // Two people, chosen first: the game below has blue to move.
    browser.open(page.url);
    browser.until("document.body.dataset.ready === '1'");
    browser.click("#opponent-human");
    browser.open("about:blank");
    browser.open(&format!("{}#moves=3444.6454.4454", page.url));
    browser.until("document.body.dataset.ready === '1'");
    browser.idle();

    assert_eq!(
        browser.script("return document.getElementById('letters').checked;"),
        Json::Bool(true),
        "letters by themselves"
    );
    let note = browser.text("#font-note");
    assert_eq!(
        note,
        "(no font for the Chinese names on this machine: letters shown)"
    );
    assert_eq!(
        browser.eval_text(
            "document.querySelector('.piece[data-x=\"0\"][data-y=\"0\"] text').textContent"
        ),
        "R"
    );
    assert_eq!(browser.text("#side-marker"), "blue");
    assert_eq!(browser.text("#lost-blue"), "s");
    // The Chinese decorations of the buttons and the title are gone, not boxes.
    assert_eq!(
        browser.eval_text("getComputedStyle(document.querySelector('#new .zh-deco')).display"),
        "none"
    );
    assert_eq!(browser.text("#new"), "New game");
    let contrast = browser.eval_text(&format!("(() => {{ {CONTRAST_CHECK} }})()"));
    assert_eq!(contrast, "", "contrast with letters");

    // The person may still choose the Chinese names; the note says what they will get.
    browser.click("#letters");
    assert_eq!(
        browser.text("#font-note"),
        "(no font for the Chinese names on this machine: they may show as boxes)"
    );
    assert_eq!(browser.text("#side-marker"), "蓝");
    page.check(&browser);
    drop(browser);
    let _ = fs::remove_file(config);
}

/// The guides' pictures (`docs/`): each file, the window it is taken in, and what it
/// shows. Wide enough for board and panel side by side, and the three sizes of
/// `the_layout_follows_the_screen`'s table in the guide.
const PICTURES: [(&str, i64, i64, Picture); 7] = [
    ("serve.png", 1280, 1024, Picture::Game),
    ("serve-replay.png", 1280, 1024, Picture::Replay),
    ("serve-engine.png", 1280, 1024, Picture::Engine),
    ("serve-analysis.png", 1280, 1024, Picture::Analysis),
    ("serve-1280x800.png", 1280, 800, Picture::Game),
    ("serve-800x600.png", 800, 600, Picture::Game),
    ("serve-390x844.png", 390, 844, Picture::Game),
];

/// What a picture shows.
#[derive(Clone, Copy, Debug)]
enum Picture {
    /// A game in progress against the computer, the red horse selected, its targets
    /// marked.
    Game,
    /// The statement's sample replayed to command 17, the judge's output beside it.
    Replay,
    /// The game with the engine's evaluation bar and its line as arrows.
    Engine,
    /// The replay analysed: the graph, the verdicts in the list, the engine's view of
    /// the blunder at command 16.
    Analysis,
}

/// The share of a picture's pixels that may differ from the one in `docs/`: 1%.
/// A pixel differs when no pixel within one pixel of its place in the other picture
/// has its colour (each channel within 40 of 255), so that a glyph drawn a fraction of
/// a pixel aside or with other anti-aliasing (another Chromium, another FreeType) does
/// not count, and a word, a mark or a layout that changed does. Drawn again on the
/// same machine, the pictures differ only where the engine's searches, bounded by
/// time, end elsewhere (a verdict, the summary's words, the graph's line): at most
/// 0.2% of their pixels; a picture one version of the page old (before the edges'
/// labels and the opponent's row) differs in 2.6% to 10%.
const PICTURE_TOLERANCE: f64 = 0.01;

/// The fonts the pictures are drawn with, and only those: DejaVu Sans for the words,
/// DejaVu Sans Mono for the code and the letters, WenQuanYi Micro Hei for the Chinese
/// names (Debian's fonts-dejavu-core and fonts-wqy-microhei), whatever else the machine
/// has, so that every machine draws the same pictures. Returns the fontconfig file that
/// offers Chromium those alone.
fn picture_fonts(dir: &Path) -> PathBuf {
    let files = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    ];
    let fonts = dir.join("fonts");
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(&fonts).unwrap();
    for file in files {
        let file = Path::new(file);
        assert!(
            file.is_file(),
            "cannot run here: the pictures are drawn with {} (install fonts-dejavu-core and \
             fonts-wqy-microhei; scripts/screenshot-serve.sh and .ci/run do)",
            file.display()
        );
        #[cfg(unix)]
        std::os::unix::fs::symlink(file, fonts.join(file.file_name().unwrap())).unwrap();
    }
    let alias = |generic: &str, family: &str| {
        format!(
            "  <alias binding=\"same\"><family>{generic}</family>\
             <prefer><family>{family}</family></prefer></alias>\n"
        )
    };
    let text = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\">\n\
         <fontconfig>\n  <dir>{}</dir>\n  <cachedir>{}</cachedir>\n{}{}{}{}</fontconfig>\n",
        fonts.display(),
        dir.join("cache").display(),
        alias("system-ui", "DejaVu Sans"),
        alias("sans-serif", "DejaVu Sans"),
        alias("serif", "DejaVu Sans"),
        alias("monospace", "DejaVu Sans Mono"),
    );
    let config = dir.join("fonts.conf");
    fs::write(&config, text).unwrap();
    config
}

/// Moves the pointer off the page's controls and takes the focus from them: nothing
/// hovered or focused changes a picture.
fn rest(browser: &Browser) {
    let body = Json::obj([(
        "actions",
        Json::Arr(vec![Json::obj([
            ("type", Json::str("pointer")),
            ("id", Json::str("mouse")),
            (
                "actions",
                Json::Arr(vec![Json::obj([
                    ("type", Json::str("pointerMove")),
                    ("x", Json::int(0)),
                    ("y", Json::int(0)),
                    ("duration", Json::int(0)),
                ])]),
            ),
        ])]),
    )]);
    browser.call("POST", &browser.at("/actions"), Some(&body));
    browser.script("if (document.activeElement) document.activeElement.blur();");
    // The browser takes the hover from the last control clicked a moment later.
    browser.until(
        "![...document.querySelectorAll(':hover')].some((e) => e.matches('button, select, input, label, a'))",
    );
}

/// Takes the picture `what` of the page at `url` into `path`, in a window of
/// `width` x `height`.
fn take_picture(
    browser: &Browser,
    url: &str,
    what: Picture,
    (width, height): (i64, i64),
    path: &Path,
) {
    browser.viewport(width, height);
    // No scroll bars: a phone's fade out some time after a scroll, and they are the
    // browser's, not the page's.
    let hidden = Json::obj([
        ("cmd", Json::str("Emulation.setScrollbarsHidden")),
        ("params", Json::obj([("hidden", Json::Bool(true))])),
    ]);
    browser.call("POST", &browser.at("/goog/cdp/execute"), Some(&hidden));
    browser.open("about:blank");
    match what {
        Picture::Game | Picture::Engine => {
            browser.open(&format!("{url}{SHOWN_GAME}"));
            browser.until("document.body.dataset.ready === '1'");
            browser.idle();
            if let Picture::Engine = what {
                // A second a position: the engine's line the same from run to run.
                browser.script(
                    "const s = document.getElementById('analysis-time'); s.value = '1000'; \
                     s.dispatchEvent(new Event('change'));",
                );
                browser.click("#engine-view");
                browser.until("document.querySelectorAll('#board .arrow.best').length === 1");
            } else {
                browser.click_square(2, 2);
                assert_eq!(browser.squares(".target").len(), 4);
            }
        }
        Picture::Replay | Picture::Analysis => {
            browser.open(url);
            browser.until("document.body.dataset.ready === '1'");
            let sample = fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/statement.in"),
            )
            .unwrap();
            browser.click("#tab-replay");
            browser.script(&format!(
                "document.getElementById('replay-text').value = {};",
                Json::str(sample.as_str())
            ));
            browser.click("#replay-run");
            browser.until("document.querySelectorAll('#replay-steps li').length === 18");
            if let Picture::Analysis = what {
                browser.script(
                    "const s = document.getElementById('analysis-time'); s.value = '1000'; \
                     s.dispatchEvent(new Event('change'));",
                );
                browser.click("#analyse");
                browser.until(
                    "document.body.dataset.analysing === '0' && \
                     document.querySelectorAll('#graph .point').length === 10",
                );
                browser.click("#engine-view");
                browser.click("#graph .point[data-index=\"8\"]");
                browser.until("document.querySelectorAll('#board .arrow.best').length === 1");
                // The page scrolled to the graph, the board beside it.
                browser.script(
                    "document.getElementById('analysis-summary').scrollIntoView({ block: 'end' });",
                );
            } else {
                browser.script("document.getElementById('replay-goto').value = '17';");
                browser.click("#replay-go");
                assert_eq!(browser.text("#replay-line"), "red duck;blue captain;no;yes");
            }
        }
    }
    browser.idle();
    rest(browser);
    // Two frames: whatever the last step changed is drawn.
    browser.script("window.drawn = false; requestAnimationFrame(() => requestAnimationFrame(() => { window.drawn = true; }));");
    browser.until("window.drawn");
    browser.screenshot(path);
    // The next picture starts from the page's defaults, not from the choices made here
    // (the engine's view, the analysis's time), which the page remembers.
    browser.script("localStorage.clear();");
}

/// `bytes` in base64, for a `data:` address.
fn base64_encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(DIGITS[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Compares two PNG pictures in the browser (a canvas decodes them): the share of
/// `new`'s pixels that differ from `old`'s as [`PICTURE_TOLERANCE`] counts them, the
/// share that differ at all, and a picture of where they differ (red on a faded
/// `new`), as a `data:` address; or why they cannot be compared.
const PICTURE_DIFF: &str = r#"
window.compared = null;
const load = (src) => new Promise((ok, fail) => {
  const image = new Image();
  image.onload = () => ok(image);
  image.onerror = () => fail(new Error('not a picture'));
  image.src = src;
});
const pixels = (image) => {
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  context.drawImage(image, 0, 0);
  return context.getImageData(0, 0, image.width, image.height).data;
};
Promise.all([load(arguments[0]), load(arguments[1])]).then(([a, b]) => {
  if (a.width !== b.width || a.height !== b.height) {
    window.compared = JSON.stringify({ error: `${a.width}x${a.height}, in docs/ ${b.width}x${b.height}` });
    return;
  }
  const [w, h] = [a.width, a.height];
  const p = pixels(a), q = pixels(b);
  const near = (i, j) => Math.abs(p[i] - q[j]) <= 40 && Math.abs(p[i + 1] - q[j + 1]) <= 40 && Math.abs(p[i + 2] - q[j + 2]) <= 40;
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const context = canvas.getContext('2d');
  const out = context.createImageData(w, h);
  let differ = 0, changed = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 4 * (y * w + x);
      const same = p[i] === q[i] && p[i + 1] === q[i + 1] && p[i + 2] === q[i + 2];
      let matched = same;
      for (let dy = -1; dy <= 1 && !matched; dy++) {
        for (let dx = -1; dx <= 1 && !matched; dx++) {
          const [u, v] = [x + dx, y + dy];
          if (u >= 0 && v >= 0 && u < w && v < h && near(i, 4 * (v * w + u))) matched = true;
        }
      }
      if (!same) changed++;
      if (!matched) differ++;
      out.data[i] = matched ? 255 - (255 - p[i]) / 4 : 220;
      out.data[i + 1] = matched ? 255 - (255 - p[i + 1]) / 4 : 0;
      out.data[i + 2] = matched ? 255 - (255 - p[i + 2]) / 4 : 0;
      out.data[i + 3] = 255;
    }
  }
  context.putImageData(out, 0, 0);
  window.compared = JSON.stringify({ differ: differ / (w * h), changed: changed / (w * h), where: canvas.toDataURL('image/png') });
}, (e) => { window.compared = JSON.stringify({ error: String(e) }); });
"#;

/// The share of `new`'s pixels that differ from `old`'s (and the share that differ
/// at all); where they differ is drawn into `diff`.
fn compare_pictures(
    browser: &Browser,
    new: &Path,
    old: &Path,
    diff: &Path,
) -> Result<(f64, f64), String> {
    let url = |path: &Path| {
        let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok::<Json, String>(Json::str(format!(
            "data:image/png;base64,{}",
            base64_encode(&bytes)
        )))
    };
    browser.open("about:blank");
    // The pictures go as the script's arguments.
    let body = Json::obj([
        ("script", Json::str(PICTURE_DIFF)),
        ("args", Json::Arr(vec![url(new)?, url(old)?])),
    ]);
    browser.call("POST", &browser.at("/execute/sync"), Some(&body));
    browser.until("window.compared !== null");
    let compared = Json::parse(browser.eval_text("window.compared").as_bytes()).unwrap();
    if let Some(error) = compared.get("error").and_then(Json::as_str) {
        return Err(error.to_string());
    }
    let share = |key: &str| match compared.get(key) {
        Some(Json::Num(v)) => *v,
        _ => 1.0,
    };
    let picture = compared.get("where").and_then(Json::as_str).unwrap_or("");
    let png = browser::base64(picture.trim_start_matches("data:image/png;base64,"));
    fs::write(diff, png).unwrap();
    Ok((share("differ"), share("changed")))
}

/// The guides' pictures are the page as it is: each is drawn again, on the served page
/// in fixed windows with fixed fonts, and compared with the one in `docs/`; a picture
/// that differs by more than [`PICTURE_TOLERANCE`] of its pixels fails, and the test's
/// folder keeps the new picture and one of where it differs. With
/// `DUCKCHESS_PICTURES=DIR` (`scripts/screenshot-serve.sh` gives `docs`) it writes the
/// pictures there instead, and compares nothing.
#[test]
#[ignore = "a browser (headless Chromium) and the pictures' fonts: the full tier runs it"]
fn the_guides_pictures_show_the_page() {
    browser_present();
    let started = std::time::Instant::now();
    let tmp =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pictures-{}", std::process::id()));
    let config = picture_fonts(&tmp.join("fontconfig"));
    let update = std::env::var_os("DUCKCHESS_PICTURES").map(PathBuf::from);
    let out = update.clone().unwrap_or_else(|| tmp.clone());
    fs::create_dir_all(&out).unwrap();
    let server = Server::start(&[]);
    let browser = Browser::start_with(&[("FONTCONFIG_FILE", config.as_path())]);
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut report = Vec::new();
    let mut wrong = Vec::new();
    for (name, width, height, what) in PICTURES {
        take_picture(
            &browser,
            &server.url,
            what,
            (width, height),
            &out.join(name),
        );
    }
    Page::served(&server.url).check(&browser);
    for (name, ..) in PICTURES {
        let path = out.join(name);
        if update.is_some() {
            report.push(format!("{name}: written"));
            continue;
        }
        let diff = tmp.join(name.replace(".png", ".diff.png"));
        match compare_pictures(&browser, &path, &docs.join(name), &diff) {
            Ok((differ, changed)) => {
                report.push(format!(
                    "{name}: {:.3}% of its pixels differ ({:.3}% at all)",
                    100.0 * differ,
                    100.0 * changed
                ));
                if differ > PICTURE_TOLERANCE {
                    wrong.push(format!(
                        "docs/{name} differs from the page in {:.2}% of its pixels (new: {}, where: {})",
                        100.0 * differ,
                        path.display(),
                        diff.display()
                    ));
                }
            }
            Err(why) => wrong.push(format!("docs/{name}: {why}")),
        }
    }
    drop(browser);
    let (status, _) = server.stop();
    assert!(status.success());
    println!(
        "{}\nin {:.1} s",
        report.join("\n"),
        started.elapsed().as_secs_f64()
    );
    assert!(
        wrong.is_empty(),
        "{}\nscripts/screenshot-serve.sh draws them again",
        wrong.join("\n")
    );
    let _ = fs::remove_dir_all(&tmp);
}
