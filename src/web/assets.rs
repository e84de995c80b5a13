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

/// Every file of the page.
pub const ASSETS: [Asset; 6] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("page/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("page/app.js"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("page/style.css"),
    },
    Asset {
        path: "/worker.js",
        content_type: "text/javascript; charset=utf-8",
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

/// The file served at `path`, if any.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_only_its_own_files() {
        // The page names its files, and the script the worker it starts, relative to
        // the page: a static site may live in any folder.
        let page = find("/").expect("the page").body;
        let script = find("/app.js").expect("the script").body;
        for asset in &ASSETS[1..] {
            let named = page.contains(&format!("\"{}\"", &asset.path[1..]))
                || script.contains(&format!("'{}'", &asset.path[1..]));
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
}
