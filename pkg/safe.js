// What citeproof/react and citeproof/markdown share when they render markdown (internal:
// not a package entry).

/** An absolute http(s) URL, normalised, or an in-page fragment (footnotes); else null. */
export function safeUrl(url) {
  if (typeof url !== "string") return null;
  if (/^#\S*$/.test(url)) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The cleaned markdown a report's (or a stream's) segments make: their text and markers. */
export function markdownOf(segments) {
  let text = "";
  for (const segment of segments ?? []) text += String((segment?.type === "cite" ? segment.label : segment?.text) ?? "");
  return text;
}
