//! The cleaned answer and its segments for chips (DESIGN.md §6).
//!
//! Cleaning keeps the answer byte-exact except for the markers it removes (with the one
//! space before each) or relabels: markdown, newlines, tables and code are untouched.

use crate::model::{Marker, MarkerKind, Options, Policy, Refs, Segment};
use crate::validate::SourceIndex;

/// What validation decided about one marker: each ref as written, and the retrieved
/// source (position in `sources`) it resolved to, if any.
pub(crate) struct MarkerFate {
    /// `(label as written, resolved source position)` per ref.
    pub refs: Vec<(String, Option<usize>)>,
}

/// Applies the policy: returns the cleaned answer and its segments.
pub(crate) fn rewrite(
    answer: &str,
    markers: &[Marker<'_>],
    fates: &[MarkerFate],
    index: &SourceIndex<'_>,
    options: &Options,
) -> (String, Vec<Segment>) {
    let flag = options.policy == Policy::Flag;
    let renumbering = options.renumber && !flag;
    let new_labels = renumbering.then(|| first_use_order(fates, index.len()));
    let mut out = String::with_capacity(answer.len());
    let mut segments = Vec::new();
    let mut text_start = 0; // start in `out` of the pending text segment
    let mut last = 0; // end in `answer` of what has been copied
    for (marker, fate) in markers.iter().zip(fates) {
        let kept: Vec<usize> = fate.refs.iter().filter_map(|(_, p)| *p).collect();
        let all_valid = kept.len() == fate.refs.len() && !fate.refs.is_empty();
        let keep = flag || !kept.is_empty();
        let start = marker.span.start.max(last);
        let mut before = &answer[last..start];
        let mut skip_after = 0;
        if !keep {
            if let Some(trimmed) = before.strip_suffix(' ') {
                before = trimmed;
            } else if (start == 0 || answer[..start].ends_with('\n'))
                && answer[marker.span.end..].starts_with(' ')
            {
                skip_after = 1;
            }
        }
        out.push_str(before);
        last = marker.span.end + skip_after;
        if !keep {
            continue;
        }
        let labels: Vec<String> = if flag {
            fate.refs.iter().map(|(label, _)| label.clone()).collect()
        } else {
            kept.iter()
                .map(|&p| {
                    new_labels
                        .as_ref()
                        .map_or_else(|| index.label(p), |map| map[p])
                        .to_string()
                })
                .collect()
        };
        let text =
            if flag || (all_valid && !renumbering) || !matches!(marker.refs, Refs::Numbers(_)) {
                marker.raw.to_string()
            } else {
                relabel(marker, &labels)
            };
        if out.len() > text_start {
            segments.push(Segment::Text {
                text: out[text_start..].to_string(),
            });
        }
        let first = kept.first().map(|&p| index.source(p));
        segments.push(Segment::Cite {
            label: text.clone(),
            refs: labels,
            source_index: kept.first().map(|&p| index.label(p)),
            title: first.and_then(|s| s.title.clone()),
            url: first.and_then(|s| s.url.clone()),
            valid: all_valid,
        });
        out.push_str(&text);
        text_start = out.len();
    }
    out.push_str(&answer[last..]);
    if out.len() > text_start {
        segments.push(Segment::Text {
            text: out[text_start..].to_string(),
        });
    }
    (out, segments)
}

/// New labels 1..n in order of first use; indexed by source position.
fn first_use_order(fates: &[MarkerFate], sources: usize) -> Vec<u32> {
    let mut labels = vec![0; sources];
    let mut next = 1;
    for &p in fates
        .iter()
        .flat_map(|f| f.refs.iter().filter_map(|(_, p)| p.as_ref()))
    {
        if labels[p] == 0 {
            labels[p] = next;
            next += 1;
        }
    }
    labels
}

/// The marker with its label list replaced by `labels`, keeping its form (`[…]`,
/// `【…†source】`, `[Sources: …]`, `[…](url)`).
fn relabel(marker: &Marker<'_>, labels: &[String]) -> String {
    let raw = marker.raw;
    let limit = match marker.kind {
        MarkerKind::Link => raw.find("](").unwrap_or(raw.len()),
        MarkerKind::Cjk => raw.find('†').unwrap_or(raw.len()),
        _ => raw.len(),
    };
    let head = &raw[..limit];
    let (Some(first), Some(last)) = (
        head.find(|c: char| c.is_ascii_digit()),
        head.rfind(|c: char| c.is_ascii_digit()),
    ) else {
        return raw.to_string();
    };
    format!("{}{}{}", &raw[..first], labels.join(", "), &raw[last + 1..])
}
