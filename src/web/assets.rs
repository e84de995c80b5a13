//! The page's files, built into the binary so that the server touches no file and the
//! page loads nothing from anywhere else: it works offline.

/// One file the server sends for `GET`.
#[derive(Clone, Copy, Debug)]
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its text.
    pub body: &'static str,
}

/// Every file of the page. Its scripts are ES modules, one a job (each says what lives
/// in it), loaded by the browser as they are, with no build step; the worker's script
/// and the one for a page opened as a file are classic scripts.
pub const ASSETS: [Asset; 14] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("page/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: JS,
        body: include_str!("page/app.js"),
    },
    Asset {
        path: "/shared.js",
        content_type: JS,
        body: include_str!("page/shared.js"),
    },
    Asset {
        path: "/api.js",
        content_type: JS,
        body: include_str!("page/api.js"),
    },
    Asset {
        path: "/board.js",
        content_type: JS,
        body: include_str!("page/board.js"),
    },
    Asset {
        path: "/game.js",
        content_type: JS,
        body: include_str!("page/game.js"),
    },
    Asset {
        path: "/replay.js",
        content_type: JS,
        body: include_str!("page/replay.js"),
    },
    Asset {
        path: "/analysis.js",
        content_type: JS,
        body: include_str!("page/analysis.js"),
    },
    Asset {
        path: "/graph.js",
        content_type: JS,
        body: include_str!("page/graph.js"),
    },
    Asset {
        path: "/opened-as-file.js",
        content_type: JS,
        body: include_str!("page/opened-as-file.js"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("page/style.css"),
    },
    Asset {
        path: "/worker.js",
        content_type: JS,
        body: include_str!("page/worker.js"),
    },
    // Who answers the page's API: this server (the static site's own file says
    // "browser": its workers answer).
    Asset {
        path: "/api.json",
        content_type: "application/json",
        body: "{\"api\":\"server\"}\n",
    },
    Asset {
        path: "/favicon.svg",
        content_type: "image/svg+xml",
        body: include_str!("page/favicon.svg"),
    },
];

/// The type of every script: browsers run a module only when it is served as
/// JavaScript.
const JS: &str = "text/javascript; charset=utf-8";

/// The file served at `path`, if any.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scripts among the files.
    fn scripts() -> impl Iterator<Item = &'static Asset> {
        ASSETS.iter().filter(|a| a.path.ends_with(".js"))
    }

    #[test]
    fn the_page_names_only_its_own_files() {
        // The page names its files, and the scripts the modules they import and the
        // files they fetch, relative to the page: a static site may live in any folder.
        let page = find("/").expect("the page").body;
        for asset in &ASSETS[1..] {
            let name = &asset.path[1..];
            let named = page.contains(&format!("\"{name}\""))
                || scripts().any(|s| {
                    s.body.contains(&format!("'{name}'")) || s.body.contains(&format!("'./{name}'"))
                });
            assert!(named, "{}", asset.path);
        }
        // Offline: no address of another host in any file (the SVG namespace is a
        // name, not something loaded).
        for asset in &ASSETS {
            let text = asset.body.replace("http://www.w3.org/2000/svg", "");
            for scheme in ["http:", "https:", "url(", "@import"] {
                assert!(!text.contains(scheme), "{} mentions {scheme}", asset.path);
            }
        }
    }

    #[test]
    fn every_module_imported_is_served() {
        for script in scripts() {
            for part in script.body.split(" from './").skip(1) {
                let name = part.split('\'').next().unwrap();
                assert!(
                    find(&format!("/{name}")).is_some(),
                    "{} imports {name}, which is not served",
                    script.path
                );
            }
        }
    }

    #[test]
    fn every_file_of_the_page_is_served() {
        // A module added to the folder and forgotten here would be missing from the
        // served page (scripts/site.sh copies the whole folder).
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web/page");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let path = if name == "index.html" {
                "/".to_string()
            } else {
                format!("/{name}")
            };
            let asset = find(&path).unwrap_or_else(|| panic!("{name} is not served"));
            if name.ends_with(".js") {
                assert_eq!(asset.content_type, JS, "{name}");
            }
        }
    }

    #[test]
    fn each_script_starts_by_saying_what_lives_there() {
        for script in scripts() {
            assert!(script.body.starts_with("// "), "{}", script.path);
        }
    }
}
