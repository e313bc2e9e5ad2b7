//! A small JSON reader for provider responses: the JS binding hands the response over
//! as `JSON.stringify` text (one boundary crossing) and the adapters walk the tree
//! natively. Kept here rather than `serde_json::Value` deserialisation, which would add
//! a float parser and a map type to the .wasm for what six adapters read.

use crate::error::{Error, ErrorCode};

/// A parsed JSON value. Objects keep their fields in order (adapters read few fields of
/// small objects; a linear search beats a map there).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number (integers up to 2^53 exactly; decimals correctly rounded when they have
    /// at most 15 significant digits and 22 decimal places, which covers every offset
    /// and score a provider sends).
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, fields in document order.
    Object(Vec<(String, Json)>),
}

/// Deeper nesting than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 256;

impl Json {
    /// Parses `text`; malformed JSON is an `invalid_input` error naming the byte offset.
    ///
    /// ```
    /// use citeproof::providers::Json;
    /// let json = Json::parse(r#"{"a": [1, "x\u00e9"]}"#).unwrap();
    /// assert_eq!(json, Json::Object(vec![("a".into(), Json::Array(vec![
    ///     Json::Number(1.0), Json::String("xé".into())]))]));
    /// ```
    pub fn parse(text: &str) -> Result<Json, Error> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
        };
        let value = reader.value(0)?;
        reader.skip_space();
        if reader.at != reader.bytes.len() {
            return Err(reader.error("unexpected text after the JSON value"));
        }
        Ok(value)
    }

    /// The field `name` of an object; `None` when absent, `null`, or not an object.
    #[inline(never)]
    pub fn field(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v)
                .filter(|v| **v != Json::Null),
            _ => None,
        }
    }

    /// The value as a string.
    #[inline(never)]
    pub fn text(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a number.
    #[inline(never)]
    pub fn number(&self) -> Option<f64> {
        match self {
            Json::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The items of an array.
    #[inline(never)]
    pub fn items(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The string field `name`, copied.
    #[inline(never)]
    pub fn text_at(&self, name: &str) -> Option<String> {
        self.field(name)?.text().map(str::to_owned)
    }

    /// The non-negative integer field `name`.
    #[inline(never)]
    pub fn index_at(&self, name: &str) -> Option<usize> {
        let n = self.field(name)?.number()?;
        (n.fract() == 0.0 && (0.0..1e15).contains(&n)).then_some(n as usize)
    }

    /// The items of the array field `name`; none when absent or not an array.
    #[inline(never)]
    pub fn list(&self, name: &str) -> &[Json] {
        self.field(name).and_then(Json::items).unwrap_or_default()
    }

    /// The `type` field, borrowed: what kind of block, event or part the value is.
    #[inline(never)]
    pub fn type_name(&self) -> Option<&str> {
        self.field("type")?.text()
    }

    /// The name of the first field of an object that is neither `null` nor one of
    /// `besides` (names separated by spaces): what a union keyed by field name (a Gemini
    /// part or grounding chunk) holds.
    pub fn kind_key(&self, besides: &str) -> Option<&str> {
        match self {
            Json::Object(fields) => fields
                .iter()
                .find(|(k, v)| *v != Json::Null && !besides.split(' ').any(|b| b == k))
                .map(|(k, _)| k.as_str()),
            _ => None,
        }
    }

    /// True when the string field `name` equals `value`.
    #[inline(never)]
    pub fn is(&self, name: &str, value: &str) -> bool {
        self.field(name).and_then(Json::text) == Some(value)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, message: &str) -> Error {
        Error::new(
            ErrorCode::InvalidInput,
            "response",
            format!("not valid JSON at byte {}: {message}", self.at),
        )
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        let found = self.bytes.get(self.at) == Some(&byte);
        self.at += usize::from(found);
        found
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, Error> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("unknown literal"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, Error> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.skip_space();
        match self.bytes.get(self.at) {
            Some(b'{') => {
                self.at += 1;
                let mut fields = Vec::new();
                if self.eat(b'}') {
                    return Ok(Json::Object(fields));
                }
                loop {
                    self.skip_space();
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return Err(self.error("expected ':'"));
                    }
                    fields.push((key, self.value(depth + 1)?));
                    if self.eat(b'}') {
                        return Ok(Json::Object(fields));
                    }
                    if !self.eat(b',') {
                        return Err(self.error("expected ',' or '}'"));
                    }
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Ok(Json::Array(items));
                    }
                    if !self.eat(b',') {
                        return Err(self.error("expected ',' or ']'"));
                    }
                }
            }
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number().map(Json::Number),
            Some(_) => Err(self.error("unexpected character")),
            None => Err(self.error("unexpected end")),
        }
    }

    /// A number: mantissa digits into a `u64` (digits past 19 only scale it), then one
    /// multiplication or division by an exact power of ten when the exponent allows
    /// (exact: both operands are exact and IEEE rounds the result once).
    fn number(&mut self) -> Result<f64, Error> {
        let negative = self.bytes[self.at] == b'-';
        self.at += usize::from(negative);
        let (mut mantissa, mut exponent, mut digits) = (0u64, 0i32, 0);
        let (mut fraction, mut seen) = (false, false);
        while let Some(&b) = self.bytes.get(self.at) {
            seen |= b.is_ascii_digit();
            match b {
                b'0'..=b'9' if digits < 19 => {
                    mantissa = mantissa * 10 + u64::from(b - b'0');
                    digits += usize::from(mantissa > 0);
                    exponent -= i32::from(fraction);
                }
                b'0'..=b'9' => exponent += i32::from(!fraction),
                b'.' if !fraction => fraction = true,
                _ => break,
            }
            self.at += 1;
        }
        if !seen {
            return Err(self.error("a number without digits"));
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
            let sign = match self.bytes.get(self.at) {
                Some(b'-') => -1,
                Some(b'+') => 1,
                _ => 0,
            };
            self.at += usize::from(sign != 0);
            let mut power = 0i32;
            let start = self.at;
            while let Some(&b @ b'0'..=b'9') = self.bytes.get(self.at) {
                power = power.saturating_mul(10).saturating_add(i32::from(b - b'0'));
                self.at += 1;
            }
            if self.at == start {
                return Err(self.error("exponent without digits"));
            }
            exponent = exponent.saturating_add(if sign < 0 { -power } else { power });
        }
        let value = mantissa as f64;
        let value = match exponent {
            0 => value,
            1..=22 => value * 10f64.powi(exponent),
            -22..=-1 => value / 10f64.powi(-exponent),
            _ => value * 10f64.powi(exponent),
        };
        Ok(if negative { -value } else { value })
    }

    /// A string literal; escapes decoded, a lone surrogate escape becomes U+FFFD.
    fn string(&mut self) -> Result<String, Error> {
        if self.bytes.get(self.at) != Some(&b'"') {
            return Err(self.error("expected a string"));
        }
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(&b) = self.bytes.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The text is valid UTF-8 and the stops are ASCII, so this is a whole slice.
            out.push_str(std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or_default());
            match self.bytes.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = match self.bytes.get(self.at) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let unit = self.hex4()?;
                            let pair = (0xD800..0xDC00).contains(&unit)
                                && self.bytes[self.at..].starts_with(b"\\u");
                            let code = if pair {
                                let saved = self.at;
                                self.at += 2;
                                match self.hex4()? {
                                    low @ 0xDC00..0xE000 => {
                                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                                    }
                                    _ => {
                                        self.at = saved;
                                        unit
                                    }
                                }
                            } else {
                                unit
                            };
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                            continue;
                        }
                        _ => return Err(self.error("unknown escape")),
                    };
                    out.push(escaped);
                    self.at += 1;
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.error("expected four hex digits"))?;
        self.at += 4;
        Ok(digits)
    }
}
