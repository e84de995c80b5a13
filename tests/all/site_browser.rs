//! The board as a static site (`scripts/site.sh`) in a real browser: the files served by
//! a plain static file server (not `duckchess serve`), in a folder of the host, so that
//! the rules, the engine and the judge run in the browser (WebAssembly in Web Workers).
//!
//! - Every scenario of the served board (`serve_browser`) on the static page: a game by
//!   clicks against the computer, a saved game loaded, a judge input replayed; the
//!   analysis with its graph, the evaluation bar, a cancel and a hint; the layout at
//!   three screen sizes; a whole move by keyboard; letters without a Chinese font.
//! - The judge's tools: the exact output of every sample, `validate`'s verdict, a
//!   validation error with its line and column, an input the judge stops on.
//! - The workers: a new game, a loaded one or a resignation ends the computer's search
//!   (a move or a hint) at once; a search past its deadline ends its worker without
//!   being asked again, and the next request starts another; a cancelled analysis
//!   ends its worker.
//! - The computer at levels 1 to 7, which count nodes, not time: the very moves of
//!   the native build, with the same seeds.
//! - A page opened as a file, where browsers run no worker: it says how to serve it.
//!
//! Each checks that the page's own workers answered and that the console showed no
//! error. In the full tier: it needs the site, built by `scripts/site.sh DIR` and named
//! by `DUCKCHESS_SITE` (`.ci/run` does both), and Chromium.

use crate::browser::{browser_present, Browser, StaticFiles};
use crate::serve_browser::{self, Page};

use duckchess::cli::json::Json;
use std::fs;
use std::path::{Path, PathBuf};

/// The folder `scripts/site.sh` wrote.
fn site() -> PathBuf {
    match std::env::var_os("DUCKCHESS_SITE").map(PathBuf::from) {
        Some(dir) if dir.join("duckchess.wasm").is_file() => dir,
        _ => panic!(
            "cannot run here: build the static site with scripts/site.sh DIR and set \
             DUCKCHESS_SITE=DIR (.ci/run does both)"
        ),
    }
}

/// Runs `scenario` on the static site, served from a folder of a plain static host.
fn on_the_site(scenario: impl FnOnce(&Page)) {
    browser_present();
    let files = StaticFiles::start(&site(), "board");
    scenario(&Page {
        url: &files.url,
        name: "site",
        api: "browser",
    });
}

#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn play_and_replay_from_static_files() {
    on_the_site(serve_browser::play_and_replay_in_a_browser_at);
}

#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn analysis_from_static_files() {
    on_the_site(serve_browser::analysis_in_a_browser_at);
}

#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn the_layout_from_static_files() {
    on_the_site(serve_browser::the_layout_follows_the_screen_at);
}

#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn a_whole_move_by_keyboard_from_static_files() {
    on_the_site(serve_browser::a_whole_move_by_keyboard_at);
}

#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn the_computer_answers_from_static_files() {
    on_the_site(serve_browser::the_computer_answers_the_first_move_at);
}

#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn letters_from_static_files() {
    on_the_site(serve_browser::letters_by_themselves_without_a_chinese_font_at);
}

/// `text` as a JavaScript string literal (JSON's is one).
fn js_string(text: &str) -> String {
    Json::str(text).to_string()
}

/// Replays `input` in the replay tab and waits for the judge's verdicts.
fn judge_in_the_page(browser: &Browser, input: &str) {
    browser.script(&format!(
        "document.getElementById('validate-verdict').textContent = '';\
         document.getElementById('replay-text').value = {};",
        js_string(input)
    ));
    browser.click("#replay-run");
    browser.until("document.getElementById('validate-verdict').textContent !== ''");
    browser.idle();
}

/// The judge's output and what it says on standard error, run here.
fn judged_here(input: &str) -> (String, Option<String>) {
    let mut output = Vec::new();
    let error = duckchess::judge::run(input.as_bytes(), &mut output)
        .err()
        .map(|e| e.to_string());
    (String::from_utf8(output).unwrap(), error)
}

/// What the page says `validate` finds, found here: for an input the judge reads
/// whole, a refusal is a note.
fn validated_here(input: &str) -> String {
    use duckchess::show::format::{validate, DEFAULT_MAX_Q};
    match validate(input.as_bytes(), DEFAULT_MAX_Q) {
        Ok(q) => format!("validate: ok: {q} command{}", if q == 1 { "" } else { "s" }),
        Err(e) if judged_here(input).1.is_none() => format!(
            "note: the judge reads this input; only the strict format of official data, \
             which validate checks, refuses it: {e}"
        ),
        Err(e) => format!("validate: {e}"),
    }
}

#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn the_judges_tools_from_static_files() {
    on_the_site(|page| {
        let browser = Browser::start();
        browser.open(page.url);
        browser.until("document.body.dataset.ready === '1'");
        browser.click("#tab-replay");

        // Every sample: the judge's exact output, and the verdict of `validate` (some
        // samples end without a newline, which the strict format refuses).
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
        let mut inputs: Vec<PathBuf> = fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .collect();
        inputs.sort();
        assert!(inputs.len() >= 8, "the samples: {inputs:?}");
        for input in &inputs {
            let text = fs::read_to_string(input).unwrap();
            let answer = fs::read_to_string(input.with_extension("out")).unwrap();
            judge_in_the_page(&browser, &text);
            let shown = browser.eval_text("document.getElementById('judge-output').textContent");
            assert_eq!(shown, answer, "{}", input.display());
            assert_eq!(
                browser.text("#validate-verdict"),
                validated_here(&text),
                "{}",
                input.display()
            );
            // The judge reads every sample: whatever the strict format says, no red.
            assert_ne!(
                browser.eval_text("document.getElementById('validate-verdict').className"),
                "error",
                "{}",
                input.display()
            );
            assert_eq!(browser.text("#judge-stderr"), "");
        }

        // A lenient input the judge reads whole, which the strict format refuses at
        // its line and column: a space before the end of line 3.
        let lenient = "3\n0 3 1 2\n9 4 8 4 \n0 0 7 0\n";
        judge_in_the_page(&browser, lenient);
        let verdict = browser.text("#validate-verdict");
        assert!(
            verdict.starts_with("note: the judge reads this input")
                && verdict.contains(": line 3, column 8: "),
            "{verdict}"
        );
        assert_eq!(verdict, validated_here(lenient));
        assert_eq!(
            browser.eval_text("document.getElementById('validate-verdict').className"),
            "note"
        );
        let shown = browser.eval_text("document.getElementById('judge-output').textContent");
        assert_eq!(shown, judged_here(lenient).0);

        // An input the judge stops on: the lines before it, then its reason.
        let broken = "3\n0 3 1 2\n9 4 x 4\n0 0 7 0\n";
        judge_in_the_page(&browser, broken);
        let (output, error) = judged_here(broken);
        let error = error.expect("the judge stops");
        assert!(error.contains("line 3, column 5"), "{error}");
        let shown = browser.eval_text("document.getElementById('judge-output').textContent");
        assert_eq!(shown, output);
        assert_eq!(output.lines().count(), 1);
        assert_eq!(
            browser.text("#judge-stderr"),
            format!("the judge stops: {error}")
        );
        // There the strict format's refusal is no note: the input fails.
        assert_eq!(browser.text("#validate-verdict"), validated_here(broken));
        assert_eq!(
            browser.eval_text("document.getElementById('validate-verdict').className"),
            "error"
        );
        page.check(&browser);
    });
}

/// Replays each input of `inputs` (named) in the replay tab, whole, and checks the
/// page's replay and judge against the native ones; the time each replay took.
fn replays_in_the_page(page: &Page, inputs: &[(String, String)]) {
    use duckchess::web::{api::Api, wasm};
    let browser = Browser::start();
    browser.open(page.url);
    browser.until("document.body.dataset.ready === '1'");
    browser.click("#tab-replay");
    let api = Api::new(1, 1);
    for (name, text) in inputs {
        let native = wasm::call(&api, "/api/replay", text.clone().into_bytes());
        assert_eq!(native.status, 200, "{name}");
        let native = Json::parse(&native.body).unwrap();
        let steps = native
            .get("steps")
            .and_then(Json::as_array)
            .map_or(0, <[Json]>::len);
        assert!(steps >= 1000, "{name}: {steps} steps");

        browser.script(&format!(
            "document.getElementById('message').textContent = '';\
             document.getElementById('replay-text').value = {};",
            js_string(text)
        ));
        let started = std::time::Instant::now();
        browser.click("#replay-run");
        browser.until(&format!(
            "document.querySelectorAll('#replay-steps li').length === {steps} \
             || document.getElementById('message').textContent !== ''"
        ));
        let said = browser.eval_text("document.getElementById('message').textContent");
        browser.idle();
        eprintln!("{name}: replayed in the page in {:?}", started.elapsed());
        assert_eq!(said, "", "{name}");
        assert_eq!(browser.count("#replay-steps li"), steps as i64, "{name}");
        let shown = browser.eval_text("document.getElementById('judge-output').textContent");
        assert_eq!(shown, judged_here(text).0, "{name}");
        assert_eq!(
            browser.text("#validate-verdict"),
            validated_here(text),
            "{name}"
        );

        // The worker's answer itself, step by step the native one.
        browser.script(&format!(
            "window.answer = null; duckchess.local.send('/api/replay', {}).then(\
             (a) => {{ window.answer = JSON.stringify(a); }}, (e) => {{ window.answer = String(e); }});",
            js_string(text)
        ));
        browser.until("window.answer !== null");
        let answer = browser.eval_text("window.answer");
        assert!(
            Json::parse(answer.as_bytes()).ok() == Some(native),
            "{name}: the page's replay differs from the native one: {}",
            &answer[..answer.len().min(200)]
        );
    }
    page.check(&browser);
}

/// A replay of an official-size input (1,000 commands, an answer of hundreds of
/// kilobytes, streamed in many parts), made in the browser whole, as natively.
#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn an_official_size_replay_from_static_files() {
    use duckchess::generate::{self, mode::Mode};
    let mut inputs = Vec::new();
    for (seed, mode) in [(1, Mode::Official), (2, Mode::Legal)] {
        let mut text = Vec::new();
        generate::input(seed, 1000, mode, &mut text).unwrap();
        inputs.push((
            format!("gen --seed {seed} --mode {}", mode.name()),
            String::from_utf8(text).unwrap(),
        ));
    }
    on_the_site(|page| replays_in_the_page(page, &inputs));
}

/// The official cases replayed in the browser, as natively.
#[test]
#[ignore = "a browser (headless Chromium), the static site and the official cases \
            (../shared/official/duckchess): the full tier runs it"]
fn the_official_cases_replayed_from_static_files() {
    let dir = crate::official::cases();
    let inputs: Vec<(String, String)> = (2..=4)
        .map(|n| {
            let path = dir.join(format!("{n}.in"));
            (
                path.display().to_string(),
                fs::read_to_string(&path).unwrap(),
            )
        })
        .collect();
    on_the_site(|page| replays_in_the_page(page, &inputs));
}

/// The module refuses a request over its limit before it takes memory for it: a
/// length near 4 GiB or past it, and 300 MB, leave its memory as it was, and the
/// page's worker answers such a request as the server does, with 413.
#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn a_huge_request_takes_no_memory_in_static_files() {
    use duckchess::web::{http::Limits, wasm::MAX_REQUEST};
    on_the_site(|page| {
        let browser = Browser::start();
        browser.open(page.url);
        browser.until("document.body.dataset.ready === '1'");
        // The module itself, instantiated in the page.
        browser.script(
            "window.probe = null;\
             duckchess.wasmModule().then((module) => WebAssembly.instantiate(module, \
               { duckchess: { now_ms: () => performance.now() } })).then((x) => {\
               const e = x.exports;\
               const before = e.memory.buffer.byteLength;\
               const at = [];\
               for (const len of [2n ** 32n - 16n, 2n ** 32n + 10n, 300n * 2n ** 20n, MAXn + 1n]) {\
                 try { at.push(String(e.dc_input(len) >>> 0)); } catch (err) { at.push('trap: ' + err.message); }\
               }\
               const after = e.memory.buffer.byteLength;\
               const status = e.dc_call(10);\
               const fits = e.dc_input(MAXn) >>> 0;\
               window.probe = JSON.stringify({ before, after, at, status, fits });\
             }).catch((err) => { window.probe = JSON.stringify({ error: String(err) }); });"
                .replace("MAX", &MAX_REQUEST.to_string())
                .as_str(),
        );
        browser.until("window.probe !== null");
        let probe = Json::parse(browser.eval_text("window.probe").as_bytes()).unwrap();
        assert_eq!(probe.get("error"), None, "{probe}");
        assert_eq!(
            probe.get("at").unwrap().to_string(),
            r#"["0","0","0","0"]"#,
            "no buffer for any of them"
        );
        let (before, after) = (
            probe.get("before").and_then(Json::as_int).unwrap(),
            probe.get("after").and_then(Json::as_int).unwrap(),
        );
        eprintln!("the module's memory: {before} bytes, then {after}");
        assert!(after <= before + (1 << 20), "{before} bytes, then {after}");
        assert_eq!(probe.get("status").and_then(Json::as_int), Some(413));
        assert_ne!(probe.get("fits").and_then(Json::as_int), Some(0));

        // Through the page's worker: the server's refusal, and the worker goes on.
        let over = Limits::SERVE.body + 1;
        browser.script(&format!(
            "window.answer = null; duckchess.local.send('/api/judge', 'x'.repeat({over})).then(\
             (a) => {{ window.answer = 'answered'; }}, (e) => {{ window.answer = e.status + ' ' + e.message; }});"
        ));
        browser.until("window.answer !== null");
        assert_eq!(
            browser.eval_text("window.answer"),
            format!(
                "413 the request is {over} bytes; at most {} are read",
                Limits::SERVE.body
            )
        );
        browser.script(
            "window.answer = null; duckchess.local.send('/api/judge', '1\\n0 0 1 0\\n').then(\
             (a) => { window.answer = a.output; }, (e) => { window.answer = String(e); });",
        );
        browser.until("window.answer !== null");
        assert_eq!(browser.eval_text("window.answer"), "red car;NA;no;no\n");
        page.check(&browser);
    });
}

#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn a_new_game_or_a_late_search_ends_the_worker() {
    on_the_site(|page| {
        let browser = Browser::start();
        browser.open(page.url);
        browser.until("document.body.dataset.ready === '1'");
        let worker =
            "duckchess.local.lanes.moves ? String(!!duckchess.local.lanes.moves.worker) : 'none'";
        // Two people: the computer moves only when asked (Computer move).
        browser.click("#opponent-human");

        // The computer at full strength, 5 s a move, to play red: a new game half a
        // second in ends its worker at once, and nothing is played.
        browser.script(
            "document.getElementById('level').value = '8';\
             document.getElementById('think').value = '5000';",
        );
        browser.click("#ai-now");
        browser
            .until("duckchess.local.lanes.moves && duckchess.local.lanes.moves.current !== null");
        std::thread::sleep(std::time::Duration::from_millis(500));
        assert_eq!(browser.eval_text(worker), "true");
        browser.click("#new");
        browser.until("duckchess.local.lanes.moves.worker === null");
        browser.idle();
        assert_eq!(browser.count("#moves li"), 0);
        assert_eq!(browser.text("#message"), "");
        // The same for a hint.
        browser.click("#hint");
        browser
            .until("duckchess.local.lanes.moves && duckchess.local.lanes.moves.current !== null");
        browser.click("#new");
        browser.until("duckchess.local.lanes.moves.worker === null");
        browser.idle();
        assert_eq!(browser.text("#message"), "");

        // One move by the computer at 0.2 s: the moves lane has a worker again.
        browser.script("document.getElementById('think').value = '200';");
        browser.click("#ai-now");
        browser.until("document.querySelectorAll('#moves li').length === 1");
        browser.idle();
        assert_eq!(browser.eval_text(worker), "true");

        // A search that passes its deadline (made 1 ms here) is ended with the
        // reason at once, not asked again, and the next move starts a new worker,
        // which answers.
        browser.script(
            "window.realDeadline = duckchess.local.deadline; duckchess.local.deadline = () => 1;",
        );
        let asked = std::time::Instant::now();
        browser.click("#ai-now");
        browser.until("document.getElementById('message').textContent !== ''");
        browser.idle();
        assert!(
            asked.elapsed() < std::time::Duration::from_secs(3),
            "no retries"
        );
        let said = browser.eval_text("document.getElementById('message').textContent");
        assert!(said.contains("did not answer within 1 ms"), "{said}");
        assert_eq!(browser.eval_text(worker), "false");
        browser.script("duckchess.local.deadline = window.realDeadline;");
        browser.click("#ai-now");
        browser.until("document.querySelectorAll('#moves li').length === 2");
        assert_eq!(browser.eval_text(worker), "true");

        // A cancelled analysis ends the analysis worker.
        browser.script(
            "const s = document.getElementById('analysis-time'); s.value = '1000'; s.dispatchEvent(new Event('change'));",
        );
        browser.click("#analyse");
        browser.until(
            "duckchess.local.lanes.analysis && duckchess.local.lanes.analysis.current !== null",
        );
        browser.click("#analysis-cancel");
        browser.until("document.body.dataset.analysing === '0'");
        assert_eq!(
            browser.eval_text("String(duckchess.local.lanes.analysis.worker)"),
            "null"
        );

        // Loading a saved game, and resigning, stop the computer's search too.
        for stop in ["resign", "load"] {
            browser.click("#new");
            browser.idle();
            browser.script("document.getElementById('think').value = '5000';");
            browser.click("#ai-now");
            browser.until(
                "duckchess.local.lanes.moves && duckchess.local.lanes.moves.current !== null",
            );
            if stop == "resign" {
                browser.click("#resign");
            } else {
                let saved =
                    std::env::temp_dir().join(format!("site-load-{}.txt", std::process::id()));
                fs::write(&saved, "4k4/9/9/9/9/9/9/9/9/R3K4 r\n1\n0 0 9 0\n").unwrap();
                browser.type_into("#load", &saved.display().to_string());
                browser
                    .until("document.getElementById('message').textContent.startsWith('loaded')");
                let _ = fs::remove_file(saved);
            }
            browser.until("duckchess.local.lanes.moves.worker === null");
            browser.idle();
        }
        page.check(&browser);
    });
}

#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn the_weaker_levels_play_the_native_moves() {
    use duckchess::web::{api::Api, wasm};
    on_the_site(|page| {
        let browser = Browser::start();
        browser.open(page.url);
        browser.until("document.body.dataset.ready === '1'");
        let api = Api::new(1, 1);
        let games = [
            r#""moves":[]"#,
            r#""moves":[[3,4,4,4],[6,4,5,4]]"#,
            r#""start":"4k4/9/9/9/9/9/9/9/9/R3K4 r","moves":[]"#,
        ];
        let mut asked = 0;
        for level in 1..=7 {
            for (g, game) in games.iter().enumerate() {
                let body = format!(r#"{{{game},"level":{level},"seed":{}}}"#, 11 * g + level);
                let native = wasm::call(&api, "/api/ai", body.clone().into_bytes());
                assert_eq!(native.status, 200);
                let native = Json::parse(&native.body).unwrap();
                browser.script(&format!(
                    "window.answer = null; duckchess.local.send('/api/ai', {}).then((a) => {{ window.answer = a; }});",
                    js_string(&body)
                ));
                browser.until("window.answer !== null");
                let shown = browser.script("return JSON.stringify(window.answer.move);");
                assert_eq!(
                    shown.as_str().map(str::to_string),
                    native.get("move").map(|m| m.to_string()),
                    "level {level}, {body}"
                );
                asked += 1;
            }
        }
        assert_eq!(asked, 21);
        page.check(&browser);
    });
}

/// `scripts/site.sh` takes no option for its folder (`-` would `cd` to the last
/// folder): a usage error, before anything is built or made.
#[cfg(unix)]
#[test]
fn the_site_script_refuses_an_option_for_its_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let here = std::env::temp_dir().join(format!("site-sh-{}", std::process::id()));
    fs::create_dir_all(&here).unwrap();
    for dir in ["-", "-x", "--"] {
        let out = std::process::Command::new("bash")
            .arg(root.join("scripts/site.sh"))
            .arg(dir)
            .current_dir(&here)
            .env("OLDPWD", &here)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{dir}: {said}");
        assert_eq!(
            said,
            format!(
                "scripts/site.sh: DIR '{dir}' looks like an option; write ./{dir} for a folder \
                 so named\nusage: scripts/site.sh DIR\n"
            )
        );
        assert!(out.stdout.is_empty());
    }
    assert_eq!(fs::read_dir(&here).unwrap().count(), 0, "nothing made");
    fs::remove_dir(&here).unwrap();
}

#[test]
#[ignore = "a browser (headless Chromium) and the static site: the full tier runs it"]
fn a_page_opened_as_a_file_says_how_to_serve_it() {
    browser_present();
    let browser = Browser::start();
    browser.open(&format!("file://{}", site().join("index.html").display()));
    browser.until("document.getElementById('message').textContent !== ''");
    let said = browser.text("#message");
    assert!(
        said.contains("only for a page from a web server") && said.contains("http.server"),
        "{said}"
    );
}
