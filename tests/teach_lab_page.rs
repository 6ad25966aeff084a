//! The example lab page embeds three presets with relative links that work from any sub-path
//! and load nothing from other hosts; the bundle copies it next to index.html. Its script
//! (`lab-example.js`, copied next to it) sizes the embeds from their resize messages and shows the
//! quiz score from `tidemark:quiz-answered` (e2e/host-api.test.mjs drives it in the browser).

use tidemark::teach::presets;

const PAGE: &str = include_str!("../assets/lab-example.html");
const SCRIPT: &str = include_str!("../assets/lab-example.js");

/// The `src` of every iframe, `&amp;` decoded.
fn iframe_sources(html: &str) -> Vec<String> {
    html.split("<iframe")
        .skip(1)
        .filter_map(|tag| {
            let rest = tag.split_once("src=\"")?.1;
            Some(rest.split_once('"')?.0.replace("&amp;", "&"))
        })
        .collect()
}

/// Three iframes, 700×450, each `index.html#preset=<a real preset>&mode=embed&step=<a step of it>`.
#[test]
fn the_lab_page_embeds_three_presets() {
    let sources = iframe_sources(PAGE);
    assert_eq!(
        sources,
        vec![
            "index.html#preset=lab-6-1&mode=embed&step=2&quiz=1",
            "index.html#preset=lab-6-2&mode=embed&step=3",
            "index.html#preset=lab-6-3&mode=embed&step=4",
        ]
    );
    for src in &sources {
        let fragment = src.split_once('#').map(|(_, f)| f).unwrap_or("");
        let param =
            |name: &str| fragment.split('&').find_map(|p| p.strip_prefix(&format!("{name}="))).map(str::to_string);
        let id = param("preset").unwrap_or_default();
        let Some(p) = presets::by_id(&id) else { panic!("{src}: no preset {id}") };
        let step: usize = param("step").and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
        assert!(step <= p.steps(), "{src}: step past the end");
        assert_eq!(param("mode").as_deref(), Some("embed"));
    }
    for tag in PAGE.split("<iframe").skip(1).filter_map(|t| t.split_once('>').map(|(attrs, _)| attrs)) {
        assert!(tag.contains(r#"width="700" height="450""#), "{tag}");
        assert!(tag.contains(r#"title="Lab 6."#), "every iframe has a title: {tag}");
    }
}

/// Relative links only: no other host, no absolute path, no protocol-relative URL.
#[test]
fn the_lab_page_stays_local() {
    for bad in ["http://", "https://", "src=\"/", "href=\"/", "src=\"//", "href=\"//", "@import", "url("] {
        assert!(!PAGE.contains(bad), "the lab page contains {bad:?}");
    }
    for bad in ["http://", "https://", "fetch(", "eval(", "innerHTML", "import("] {
        assert!(!SCRIPT.contains(bad), "lab-example.js contains {bad:?}");
    }
    let index = include_str!("../index.html");
    assert!(index.contains(r#"<link data-trunk rel="copy-file" href="assets/lab-example.html" />"#));
    assert!(index.contains(r#"<link data-trunk rel="copy-file" href="assets/lab-example.js" />"#));
}

/// The page's script comes from next to it, reads only its own origin's messages, sizes the
/// embeds from all three resize formats and shows the quiz score; the quiz embed has a score line.
#[test]
fn the_lab_page_listens_to_its_embeds() {
    assert!(PAGE.contains(r#"<script src="lab-example.js" defer></script>"#));
    assert_eq!(PAGE.matches("<script").count(), 1, "one script, and it is the external file");
    assert!(SCRIPT.contains("if (e.origin !== location.origin) return;"));
    for format in ["'tidemark:resize'", "'lti.frameResize'", "'iframe.resize'", "'tidemark:quiz-answered'"] {
        assert!(SCRIPT.contains(format), "lab-example.js does not read {format}");
    }
    assert!(PAGE.contains("data-quiz-score"), "no score line next to the quiz embed");
}
