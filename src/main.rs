//! The wasm entry: render the app.
fn main() {
    tidemark::ui::install_panic_hook();
    yew::Renderer::<tidemark::ui::App>::new().render();
}
