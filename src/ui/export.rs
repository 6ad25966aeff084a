//! The browser side of sharing and exporting: the canvas as a standalone SVG (with the app's
//! stylesheet inlined) or a PNG drawn from it, the scenario as a JSON file, and the clipboard.
//! Every function reports failure as text for a banner; none panics.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, Document, Element, HtmlAnchorElement, HtmlCanvasElement, HtmlImageElement, Url};

/// The page's stylesheets as text, read from the CSSOM when exporting (rather than compiled
/// in: it costs the bundle nothing), so that an exported SVG looks the same anywhere.
fn page_css() -> String {
    use js_sys::Reflect;
    let get = |o: &JsValue, k: &str| Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED);
    let len = |o: &JsValue| get(o, "length").as_f64().unwrap_or(0.0) as u32;
    let Ok(doc) = document() else { return String::new() };
    let sheets = get(&doc, "styleSheets");
    let mut out = String::new();
    for i in 0..len(&sheets) {
        let sheet = Reflect::get_u32(&sheets, i).unwrap_or(JsValue::UNDEFINED);
        let rules = get(&sheet, "cssRules");
        for j in 0..len(&rules) {
            if let Some(text) = get(&Reflect::get_u32(&rules, j).unwrap_or(JsValue::UNDEFINED), "cssText").as_string() {
                out.push_str(&text);
                out.push('\n');
            }
        }
    }
    out
}

const SVG_NS: &str = "http://www.w3.org/2000/svg";

fn document() -> Result<Document, String> {
    web_sys::window().and_then(|w| w.document()).ok_or_else(|| "no document".to_string())
}

fn js_err(what: &str) -> impl Fn(JsValue) -> String + '_ {
    move |e| format!("{what} failed: {}", e.as_string().unwrap_or_else(|| format!("{e:?}")))
}

/// A file name from a scenario name: letters, digits, `-` and `_`, never empty.
pub fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .collect::<String>()
        .trim_matches('-')
        .chars()
        .take(60)
        .collect();
    if stem.is_empty() { "tidemark".into() } else { stem }
}

fn blob_of_text(text: &str, mime: &str) -> Result<Blob, String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = BlobPropertyBag::new();
    opts.set_type(mime);
    Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(js_err("Blob"))
}

/// Saves `blob` as `name` through a temporary `<a download>`.
pub fn download_blob(blob: &Blob, name: &str) -> Result<(), String> {
    let doc = document()?;
    let url = Url::create_object_url_with_blob(blob).map_err(js_err("createObjectURL"))?;
    let a: HtmlAnchorElement = doc
        .create_element("a")
        .map_err(js_err("createElement"))?
        .dyn_into()
        .map_err(|_| "not an anchor".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    a.set_attribute("data-testid", "download-link").map_err(js_err("setAttribute"))?;
    let body = doc.body().ok_or("no body")?;
    body.append_child(&a).map_err(js_err("appendChild"))?;
    a.click();
    let _ = body.remove_child(&a);
    // Revoke later: the download reads the URL after this function returns.
    gloo::timers::callback::Timeout::new(60_000, move || {
        let _ = Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}

pub fn download_text(text: &str, mime: &str, name: &str) -> Result<(), String> {
    download_blob(&blob_of_text(text, mime)?, name)
}

/// The Canvas 2D backend's bulk drawing, when the scene is drawn by it (more than 2,000 elements).
fn bulk_canvas(doc: &Document) -> Option<HtmlCanvasElement> {
    doc.query_selector("canvas[data-testid=\"bulk-canvas\"]").ok().flatten().and_then(|c| c.dyn_into().ok())
}

/// Where the bulk drawing is in the scene (CSS px): it covers the scrolled-to band of lanes.
fn bulk_band(canvas: &HtmlCanvasElement) -> (f64, f64) {
    let top = canvas.get_attribute("data-top").and_then(|t| t.parse().ok()).unwrap_or(0.0);
    (top, canvas.get_bounding_client_rect().height())
}

/// The canvas `<svg>` as a standalone document: the stylesheet inlined, a white background,
/// the animation classes off. With the canvas backend the `<svg>` is the overlay: `bulk` puts
/// the bulk drawing under it as an embedded PNG (the SVG export), or leaves it out and the
/// background transparent (the PNG export draws the two itself). Returns the text and the size
/// in CSS px.
pub fn canvas_svg() -> Result<(String, f64, f64), String> {
    svg_document(true)
}

fn svg_document(bulk: bool) -> Result<(String, f64, f64), String> {
    let doc = document()?;
    let canvas = doc
        .query_selector("[data-testid=\"canvas\"]")
        .map_err(js_err("querySelector"))?
        .ok_or("the canvas is not on the page")?;
    let rect = canvas.get_bounding_client_rect();
    let (w, h) = (rect.width().max(1.0), rect.height().max(1.0));
    let copy = one_svg(&canvas)?;
    copy.set_attribute("class", "canvas").map_err(js_err("setAttribute"))?;
    copy.set_attribute("xmlns", SVG_NS).map_err(js_err("setAttribute"))?;
    copy.set_attribute("width", &format!("{w:.0}")).map_err(js_err("setAttribute"))?;
    copy.set_attribute("height", &format!("{h:.0}")).map_err(js_err("setAttribute"))?;
    let _ = copy.remove_attribute("style");
    let style = doc.create_element_ns(Some(SVG_NS), "style").map_err(js_err("createElementNS"))?;
    // The canvas's own stylesheet; `:root` matches the standalone `<svg>`, so its colour
    // variables apply. Fonts fall back to the viewer's sans-serif.
    style.set_text_content(Some(&format!(
        "{}\n.effects, .fx-fly, .fx-pulse, .fx-flash {{ display: none; }}\n.canvas .lane-bg {{ visibility: visible; }}\n",
        page_css()
    )));
    let bg = doc.create_element_ns(Some(SVG_NS), "rect").map_err(js_err("createElementNS"))?;
    for (k, v) in [("x", "0"), ("y", "0"), ("width", "100%"), ("height", "100%"), ("fill", "#ffffff")] {
        bg.set_attribute(k, v).map_err(js_err("setAttribute"))?;
    }
    let first = copy.first_child();
    match bulk_canvas(&doc) {
        Some(canvas) if bulk => {
            let image = doc.create_element_ns(Some(SVG_NS), "image").map_err(js_err("createElementNS"))?;
            let png = canvas.to_data_url().map_err(js_err("toDataURL"))?;
            let (top, band) = bulk_band(&canvas);
            let (ys, ws, hs) = (format!("{top:.0}"), format!("{w:.0}"), format!("{band:.0}"));
            let attrs = [
                ("x", "0"),
                ("y", ys.as_str()),
                ("width", ws.as_str()),
                ("height", hs.as_str()),
                ("href", png.as_str()),
            ];
            for (k, v) in attrs {
                image.set_attribute(k, v).map_err(js_err("setAttribute"))?;
            }
            copy.insert_before(&image, first.as_ref()).map_err(js_err("insertBefore"))?;
            copy.insert_before(&bg, Some(&image)).map_err(js_err("insertBefore"))?;
        }
        Some(_) => {
            copy.insert_before(&bg, first.as_ref()).map_err(js_err("insertBefore"))?;
            bg.set_attribute("fill", "none").map_err(js_err("setAttribute"))?;
        }
        None => {
            copy.insert_before(&bg, first.as_ref()).map_err(js_err("insertBefore"))?;
        }
    }
    copy.insert_before(&style, Some(&bg)).map_err(js_err("insertBefore"))?;
    let text = web_sys::XmlSerializer::new()
        .map_err(js_err("XMLSerializer"))?
        .serialize_to_string(&copy)
        .map_err(js_err("serializeToString"))?;
    Ok((format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{text}"), w, h))
}

/// A copy of the canvas as one `<svg>`: the canvas backend's overlay is one; the SVG backend draws
/// in `<svg>` layers that share the scene's coordinates (`backend.rs`), whose children go into a
/// copy of the first, in their order.
fn one_svg(canvas: &Element) -> Result<Element, String> {
    let deep = |e: &Element| -> Result<Element, String> {
        e.clone_node_with_deep(true).map_err(js_err("cloneNode"))?.dyn_into().map_err(|_| "clone".to_string())
    };
    if canvas.tag_name().eq_ignore_ascii_case("svg") {
        return deep(canvas);
    }
    let layers = canvas.children();
    let copy = deep(&layers.item(0).ok_or("the canvas has no drawing")?)?;
    for i in 1..layers.length() {
        let Some(layer) = layers.item(i) else { continue };
        let nodes = layer.child_nodes();
        for j in 0..nodes.length() {
            if let Some(node) = nodes.item(j) {
                let node = node.clone_node_with_deep(true).map_err(js_err("cloneNode"))?;
                copy.append_child(&node).map_err(js_err("appendChild"))?;
            }
        }
    }
    for attr in ["role", "aria-label"] {
        if let Some(v) = canvas.get_attribute(attr) {
            copy.set_attribute(attr, &v).map_err(js_err("setAttribute"))?;
        }
    }
    Ok(copy)
}

pub fn export_svg(stem: &str) -> Result<(), String> {
    let (text, _, _) = canvas_svg()?;
    download_text(&text, "image/svg+xml", &format!("{stem}.svg"))
}

/// Draws the exported SVG onto a canvas at `scale`× and saves it as a PNG. Asynchronous: the
/// image loads first; `on_error` hears about a failure after this returns.
pub fn export_png(stem: &str, scale: f64, on_error: impl FnOnce(String) + 'static) -> Result<(), String> {
    let (text, w, h) = svg_document(false)?;
    let blob = blob_of_text(&text, "image/svg+xml")?;
    let url = Url::create_object_url_with_blob(&blob).map_err(js_err("createObjectURL"))?;
    let img = HtmlImageElement::new().map_err(js_err("Image"))?;
    let name = format!("{stem}.png");
    let (img2, url2) = (img.clone(), url.clone());
    let on_error = std::rc::Rc::new(std::cell::RefCell::new(Some(on_error)));
    let on_error2 = on_error.clone();
    let onload = Closure::once_into_js(move || {
        let result = (|| -> Result<(), String> {
            let doc = document()?;
            let canvas: HtmlCanvasElement = doc
                .create_element("canvas")
                .map_err(js_err("createElement"))?
                .dyn_into()
                .map_err(|_| "not a canvas".to_string())?;
            canvas.set_width((w * scale).round() as u32);
            canvas.set_height((h * scale).round() as u32);
            let ctx: web_sys::CanvasRenderingContext2d = canvas
                .get_context("2d")
                .map_err(js_err("getContext"))?
                .ok_or("no 2d context")?
                .dyn_into()
                .map_err(|_| "not a 2d context".to_string())?;
            // The canvas backend: white, its bulk drawing, then the overlay on top.
            if let Some(bulk) = bulk_canvas(&doc) {
                ctx.set_fill_style_str("#ffffff");
                ctx.fill_rect(0.0, 0.0, w * scale, h * scale);
                let (top, band) = bulk_band(&bulk);
                ctx.draw_image_with_html_canvas_element_and_dw_and_dh(&bulk, 0.0, top * scale, w * scale, band * scale)
                    .map_err(js_err("drawImage"))?;
            }
            ctx.draw_image_with_html_image_element_and_dw_and_dh(&img2, 0.0, 0.0, w * scale, h * scale)
                .map_err(js_err("drawImage"))?;
            let on_blob = Closure::once_into_js(move |blob: JsValue| {
                if let Ok(blob) = blob.dyn_into::<Blob>()
                    && let Err(e) = download_blob(&blob, &name)
                    && let Some(f) = on_error2.borrow_mut().take()
                {
                    f(e);
                }
            });
            canvas.to_blob(on_blob.unchecked_ref()).map_err(js_err("toBlob"))?;
            Ok(())
        })();
        let _ = Url::revoke_object_url(&url2);
        if let Err(e) = result
            && let Some(f) = on_error.borrow_mut().take()
        {
            f(e);
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&url);
    Ok(())
}

/// Writes `text` to the clipboard; `done(true)` when the browser took it. Inside an iframe
/// without the clipboard permission the browser refuses: `done(false)`.
pub fn copy_text(text: &str, done: impl FnOnce(bool) + 'static) {
    let Some(window) = web_sys::window() else { return done(false) };
    let promise = window.navigator().clipboard().write_text(text);
    let done = std::rc::Rc::new(std::cell::RefCell::new(Some(done)));
    let (d1, d2) = (done.clone(), done);
    let ok: Closure<dyn FnMut(JsValue)> = Closure::once(move |_: JsValue| {
        if let Some(f) = d1.borrow_mut().take() {
            f(true);
        }
    });
    let err: Closure<dyn FnMut(JsValue)> = Closure::once(move |_: JsValue| {
        if let Some(f) = d2.borrow_mut().take() {
            f(false);
        }
    });
    let _ = promise.then2(&ok, &err);
    // One of the two runs, once; both are small and live as long as the page.
    ok.forget();
    err.forget();
}

/// The page's address without the fragment.
pub fn base_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default()
}
