//! `renderHtml` and `citationTree`: plain JS (`render.js`), exported through the
//! binding so that every target of the package has them.

use wasm_bindgen::prelude::*;

use crate::wire::from_js::read::MAX_LIST_ITEMS;

#[wasm_bindgen(module = "/js/render.js")]
extern "C" {
    #[wasm_bindgen(js_name = renderHtml, catch)]
    fn render_html_js(report: &JsValue, options: &JsValue, limit: usize)
    -> Result<String, JsValue>;
    #[wasm_bindgen(js_name = citationChips, catch)]
    fn citation_chips_js(
        report: &JsValue,
        options: &JsValue,
        limit: usize,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = citationTree, catch)]
    fn citation_tree_js(
        report: &JsValue,
        options: &JsValue,
        limit: usize,
    ) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen]
extern "C" {
    /// The options of `renderHtml` / `citationTree` (see `types.d.ts`).
    #[wasm_bindgen(typescript_type = "RenderOptions")]
    pub type RenderOptionsArg;
}

fn or_undefined(options: Option<RenderOptionsArg>) -> JsValue {
    options.map_or(JsValue::UNDEFINED, Into::into)
}

/// The report's cleaned answer as HTML with citation chips: a markdown subset
/// (paragraphs, headings, lists, quotes, code, emphasis, links), every text escaped,
/// links only for `http:` / `https:` URLs. `options.sources` adds titles and links.
/// Needs no dependency; `citeproof/markdown` has a `renderHtml` for the whole of GFM
/// (tables included) on the remark stack.
/// Throws `too_large` for a list of more than [`MAX_LIST_ITEMS`] items and
/// `invalid_input` / `invalid_option` for a revoked Proxy.
#[wasm_bindgen(js_name = renderHtml)]
pub fn render_html(
    #[wasm_bindgen(unchecked_param_type = "Report | { segments: Segment[] }")] report: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RenderOptions | undefined")] options: JsValue,
) -> Result<String, JsValue> {
    render_html_js(&report, &options, MAX_LIST_ITEMS)
}

/// The render tree `renderHtml` and the React components draw: blocks, inline nodes
/// and chips with their cards (title, safe link, located quote, validity). Throws as
/// `renderHtml` does.
#[wasm_bindgen(js_name = citationTree, unchecked_return_type = "Block[]")]
pub fn citation_tree(
    #[wasm_bindgen(unchecked_param_type = "Report | { segments: Segment[] }")] report: JsValue,
    options: Option<RenderOptionsArg>,
) -> Result<JsValue, JsValue> {
    citation_tree_js(&report, &or_undefined(options), MAX_LIST_ITEMS)
}

/// The chip of each `cite` segment of a report (or of a stream's `{ segments }`), in
/// order: badge, validity, why not, and each cited source's card (title, safe link,
/// located quote, evidence). For renderers that place chips themselves, as
/// `citeproof/remark` does. Throws as `renderHtml` does.
#[wasm_bindgen(js_name = citationChips, unchecked_return_type = "Chip[]")]
pub fn citation_chips(
    #[wasm_bindgen(unchecked_param_type = "Report | { segments: Segment[] }")] report: JsValue,
    options: Option<RenderOptionsArg>,
) -> Result<JsValue, JsValue> {
    citation_chips_js(&report, &or_undefined(options), MAX_LIST_ITEMS)
}
