//! `renderHtml` and `citationTree`: plain JS (`render.js`), exported through the
//! binding so that every target of the package has them.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/render.js")]
extern "C" {
    #[wasm_bindgen(js_name = renderHtml)]
    fn render_html_js(report: &JsValue, options: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = citationTree)]
    fn citation_tree_js(report: &JsValue, options: &JsValue) -> JsValue;
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
#[wasm_bindgen(js_name = renderHtml)]
pub fn render_html(
    #[wasm_bindgen(unchecked_param_type = "Report | { segments: Segment[] }")] report: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RenderOptions | undefined")] options: JsValue,
) -> String {
    render_html_js(&report, &options)
        .as_string()
        .unwrap_or_default()
}

/// The render tree `renderHtml` and the React components draw: blocks, inline nodes
/// and chips with their cards (title, safe link, located quote, validity).
#[wasm_bindgen(js_name = citationTree, unchecked_return_type = "Block[]")]
pub fn citation_tree(
    #[wasm_bindgen(unchecked_param_type = "Report | { segments: Segment[] }")] report: JsValue,
    options: Option<RenderOptionsArg>,
) -> JsValue {
    citation_tree_js(&report, &or_undefined(options))
}
