// Tidemark's loader, an external file so that the Content-Security-Policy in index.html can forbid
// inline script. Trunk.toml's `pattern_script` replaces Trunk's default inline `<script type="module">`
// with `<script type="module" src="./boot.js" data-js="…" data-wasm="…">`, naming the hashed
// wasm-bindgen glue and .wasm of this build; this file does what the inline loader did.
const me = document.querySelector('script[data-wasm][data-js]');
// The canvas objects' accessible descriptions (index.html) go next to <body>: the app replaces
// <body>'s children when it starts, and `aria-describedby` finds them anywhere in the document.
const descriptions = document.getElementById('descriptions');
if (descriptions) document.documentElement.append(descriptions);
const { default: init } = await import(new URL(me.dataset.js, import.meta.url).href);
const wasm = await init({ module_or_path: new URL(me.dataset.wasm, import.meta.url).href });
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
