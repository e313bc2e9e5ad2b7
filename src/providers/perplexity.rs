//! Perplexity chat completions: `[n]` markers in `choices[0].message.content` cite the
//! n-th entry of `search_results` (`title`, `url`, `date`, `snippet`) or of the older
//! `citations` list of URLs. The markers are the citations: no declared list, no
//! offsets to convert.
//!
//! Shapes from docs.perplexity.ai/api-reference/chat-completions.

use super::{Builder, Json, bad, web_source};
use crate::error::Error;
use crate::model::Source;

/// Chat-completion `choices` with a top-level `search_results` or `citations` list.
pub fn recognizes(response: &Json) -> bool {
    response.field("choices").is_some()
        && (response.field("search_results").is_some()
            || response
                .list("citations")
                .first()
                .is_some_and(|c| c.text().is_some()))
}

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    out.response_id = response.text_at("id");
    out.model = response.text_at("model");
    let content = response
        .list("choices")
        .iter()
        .next()
        .and_then(|c| c.field("message"))
        .and_then(|m| m.text_at("content"))
        .ok_or_else(|| bad(".choices[0].message.content", "missing"))?;
    out.push_text(&content);
    if out.given {
        return Ok(());
    }
    let results = response.list("search_results");
    if results.is_empty() {
        for url in response.list("citations").iter().filter_map(|c| c.text()) {
            out.sources.push(web_source(url, None));
        }
    }
    for result in results {
        out.sources.push(Source {
            text: result.text_at("snippet"),
            ..web_source(
                &result.text_at("url").unwrap_or_default(),
                result.text_at("title"),
            )
        });
    }
    Ok(())
}
