//! The binding's wire contract (`wasm/js/schema.mjs`, docs/architecture.md "The binding")
//! checked from native `cargo test`, so that the quick test command catches drift without
//! the wasm suite:
//! - every file `scripts/gen-schema.mjs` writes is what the schema gives now;
//! - the report's serde form (the CLI's JSON, and what the wasm suite compares the JS
//!   report with) has the schema's field names in the schema's order, since the JS
//!   reader takes the tape's fields in that order;
//! - the options it declares are `Options`' serde fields (and the binding's `offsets`),
//!   with `Options::default()`'s defaults and the ranges `Validator::new` enforces;
//! - the names of each string enum it lists are the Rust enum's, every variant's, in order;
//! - the JS `type` of each segment and stream event is its Rust variant's, every
//!   variant's, in order.
//!
//! They read the schema with Node (the schema is an ES module); without `node` on the
//! PATH they fail rather than pass having checked nothing.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::process::Command;

use citeproof::audit::{audit_status, validation_status};
use citeproof::metrics::{DURATION_BUCKET_LABELS, DURATION_BUCKETS};
use citeproof::model::{
    Finding, FindingCode, Input, MarkerKind, MatchKind, Mode, Options, Policy, Segment, Severity,
    Status,
};
use citeproof::offsets::Unit;
use citeproof::providers::Provider;
use citeproof::stream::{Revision, StreamEvent};
use citeproof::validate::Validator;
use citeproof::{ErrorCode, Span};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// Runs `node` in the repository with `args`; its stdout, or a failure naming its stderr.
fn node(args: &[&str]) -> Result<String, String> {
    let out = Command::new("node")
        .args(args)
        .current_dir(REPO)
        .output()
        .map_err(|error| format!("could not run node (the contract is an ES module): {error}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)))
    }
}

#[test]
fn every_file_generated_from_the_schema_is_up_to_date() {
    if let Err(drift) = node(&["scripts/gen-schema.mjs", "--check"]) {
        panic!("{drift}");
    }
}

/// A JSON value that keeps its objects' keys in the order of the text.
enum Json {
    Object(Vec<(String, Json)>),
    Array(Vec<Json>),
    Scalar,
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Json, E> {
        Ok(Json::Scalar)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Json, E> {
        Ok(Json::Scalar)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Json, E> {
        Ok(Json::Scalar)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Json, E> {
        Ok(Json::Scalar)
    }
    fn visit_str<E>(self, _: &str) -> Result<Json, E> {
        Ok(Json::Scalar)
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Scalar)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Json::Object(entries))
    }
}

/// The schema's report types: per type its fields in order, each with the schema type
/// its value holds (for `{ list: T }`, `{ option: T }` …), if it is one.
type Schema = BTreeMap<String, Vec<(String, Option<String>)>>;

fn report_schema() -> Schema {
    let script = "import { types } from './wasm/js/schema.mjs';
const base = (kind) => (typeof kind === 'string' ? kind : Object.values(kind)[0]);
const out = {};
for (const [name, type] of Object.entries(types)) {
  out[name] = type.fields.map(([field, kind]) => [field, types[base(kind)] ? base(kind) : null]);
}
console.log(JSON.stringify(out));";
    let json =
        node(&["--input-type=module", "-e", script]).unwrap_or_else(|error| panic!("{error}"));
    serde_json::from_str(&json).unwrap()
}

/// Checks `value`, an object of schema type `name`: its keys are the schema's fields in
/// the schema's order (an absent `option` field left out), and so on down its fields.
fn check_object(
    schema: &Schema,
    name: &str,
    value: &Json,
    path: &str,
    seen: &mut BTreeSet<(String, String)>,
) {
    let Json::Object(entries) = value else {
        panic!("{path}: a {name} is not an object");
    };
    let fields = &schema[name];
    let mut next = 0;
    for (key, field_value) in entries {
        let Some(at) = fields[next..].iter().position(|(field, _)| field == key) else {
            let order: Vec<&str> = fields.iter().map(|(field, _)| field.as_str()).collect();
            let keys: Vec<&str> = entries.iter().map(|(key, _)| key.as_str()).collect();
            panic!(
                "{path}: serde writes {name}'s fields as {keys:?}, the schema declares {order:?} \
                 (a field unknown to the schema, or out of its order)"
            );
        };
        next += at + 1;
        seen.insert((name.to_string(), key.clone()));
        let Some(inner) = &fields[next - 1].1 else {
            continue;
        };
        match field_value {
            Json::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    check_object(schema, inner, item, &format!("{path}.{key}[{i}]"), seen);
                }
            }
            Json::Scalar => {} // `null`, for a nullable field
            object => check_object(schema, inner, object, &format!("{path}.{key}"), seen),
        }
    }
}

/// Reports whose citations, between them, carry every optional field.
const CASES: &[(&str, &str)] = &[
    (
        r#"{"answer":"東京 😀 is big [1]. Osaka\r\n is old [^2^] 【3】 [9] [1, 2].\n\nUncited claim here.","sources":[{"title":"Tokyo","url":"https://example.org/t","text":"Tokyo is big, the biggest city."},{"text":"Osaka is old and famous."},{"title":"Third"}],"citations":[{"source":1,"quote":"tokyo is BIG"},{"source":2,"quote":"Osaka is old"},{"source":1,"quote":"the bigest city"},{"source":2,"quote":"nothing like it"}]}"#,
        r#"{"supportThreshold":0.5}"#,
    ),
    (
        r#"{"answer":"Named [chunk:abc123] and [intro] and [zzz].","sources":[{"id":"abc123","text":"A"},{"id":"intro","text":"B"}]}"#,
        "{}",
    ),
    (
        r#"{"answer":"Nothing cited at all.","sources":[]}"#,
        r#"{"requireCitations":true}"#,
    ),
];

#[test]
fn reports_serialize_the_schema_fields_in_the_schema_order() {
    let schema = report_schema();
    let specs = std::fs::read_dir(format!("{REPO}/tests/fixtures/specs"))
        .unwrap()
        .map(|entry| {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            let fixture: serde_json::Value = serde_json::from_str(&text).unwrap();
            (fixture["input"].to_string(), "{}".to_string())
        });
    let cases = CASES
        .iter()
        .map(|(input, options)| (input.to_string(), options.to_string()))
        .chain(specs);
    let mut seen = BTreeSet::new();
    for (input, options) in cases {
        let input: Input = serde_json::from_str(&input).unwrap();
        let options: Options = serde_json::from_str(&options).unwrap();
        let report = Validator::new(options).unwrap().validate(&input).unwrap();
        let text = serde_json::to_string(&report).unwrap();
        let value: Json = serde_json::from_str(&text).unwrap();
        check_object(&schema, "Report", &value, "report", &mut seen);
    }
    // Order is only checked where a field is present: every field must have been.
    for (name, fields) in &schema {
        for (field, _) in fields {
            let pair = (name.clone(), field.clone());
            assert!(seen.contains(&pair), "no report had {name}.{field}");
        }
    }
}

/// The contract's options (`wasm/js/schema.mjs`, `options`): per option its name, its
/// default if it states one, and its range if it has one.
struct ContractOption {
    name: String,
    default: Option<serde_json::Value>,
    range: Option<[f64; 2]>,
}

fn contract_options() -> Vec<ContractOption> {
    let script = "import { options } from './wasm/js/schema.mjs';
console.log(JSON.stringify(options.map(([name, , d]) => ['default' in d, name, d.default ?? null, d.range ?? null])));";
    let json =
        node(&["--input-type=module", "-e", script]).unwrap_or_else(|error| panic!("{error}"));
    let rows: Vec<(bool, String, serde_json::Value, Option<[f64; 2]>)> =
        serde_json::from_str(&json).unwrap();
    rows.into_iter()
        .map(|(stated, name, default, range)| ContractOption {
            name,
            default: stated.then_some(default),
            range,
        })
        .collect()
}

/// The option the binding reads itself (the unit of spans); the others are `Options`'.
const BINDING_OPTION: &str = "offsets";

/// A deserializer that only records the field names a struct's `Deserialize` asks for
/// (or the variant names an enum's does).
#[derive(Default)]
struct FieldNames(&'static [&'static str]);

impl<'de> Deserializer<'de> for &mut FieldNames {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("only structs"))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0 = fields;
        Err(serde::de::Error::custom("names recorded"))
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0 = variants;
        Err(serde::de::Error::custom("names recorded"))
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        identifier ignored_any
    }
}

/// `Options` read from `json` (a JSON object), as the CLI's options file is.
fn options_from(json: serde_json::Value) -> Result<Options, serde_json::Error> {
    serde_json::from_value(json)
}

#[test]
fn the_contract_names_every_field_of_options_and_no_other() {
    let mut names = FieldNames::default();
    assert!(Options::deserialize(&mut names).is_err());
    let fields: BTreeSet<&str> = names.0.iter().copied().collect();
    let contract = contract_options();
    let named: BTreeSet<&str> = contract
        .iter()
        .map(|option| option.name.as_str())
        .filter(|&name| name != BINDING_OPTION)
        .collect();
    assert_eq!(
        named, fields,
        "wasm/js/schema.mjs's options against Options"
    );
    assert_eq!(contract.len(), fields.len() + 1, "an option named twice");
}

#[test]
fn each_default_the_contract_states_is_the_default_of_options() {
    let default = format!("{:?}", Options::default());
    for option in contract_options() {
        if option.name == BINDING_OPTION {
            let unit = option.default.as_ref().and_then(|d| d.as_str()).unwrap();
            assert_eq!(Unit::from_name(unit), Some(Unit::default()));
            continue;
        }
        // Without a stated default, the option is unset (`null`) by default.
        let value = option.default.clone().unwrap_or(serde_json::Value::Null);
        let given = options_from(serde_json::json!({ option.name.as_str(): value }))
            .unwrap_or_else(|error| panic!("{}: {error}", option.name));
        assert_eq!(format!("{given:?}"), default, "{}'s default", option.name);
    }
}

#[test]
fn each_range_the_contract_states_is_what_the_validator_accepts() {
    let validator = |name: &str, value: f64| {
        Validator::new(options_from(serde_json::json!({ name: value })).unwrap())
    };
    let mut ranged = 0;
    for option in contract_options() {
        let Some([low, high]) = option.range else {
            continue;
        };
        let name = option.name.as_str();
        for inside in [low, (low + high) / 2.0, high] {
            assert!(validator(name, inside).is_ok(), "{name} = {inside}");
        }
        for outside in [low - 0.001, high + 0.001] {
            let error = validator(name, outside).err();
            let error = error.unwrap_or_else(|| panic!("{name} = {outside} was accepted"));
            assert_eq!(error.path, name, "{name} = {outside}");
        }
        ranged += 1;
    }
    assert!(ranged > 0, "no option states a range");
}

/// The contract's string enums (`enums` in `wasm/js/schema.mjs`): per enum its names.
fn contract_enums() -> BTreeMap<String, Vec<String>> {
    let script = "import { enums } from './wasm/js/schema.mjs';
console.log(JSON.stringify(Object.fromEntries(Object.entries(enums).map(([key, e]) => [key, e.names.map(([name]) => name)]))));";
    let json =
        node(&["--input-type=module", "-e", script]).unwrap_or_else(|error| panic!("{error}"));
    serde_json::from_str(&json).unwrap()
}

/// The serde names of `values`, which serialize as strings.
fn serde_names<T: serde::Serialize>(values: &[T]) -> Vec<String> {
    let name = |value| match serde_json::to_value(value).unwrap() {
        serde_json::Value::String(name) => name,
        other => panic!("serializes as {other}, not a string"),
    };
    values.iter().map(name).collect()
}

/// The variant names a `Deserialize` enum accepts, in declaration order.
fn variant_names<'de, T: Deserialize<'de>>() -> Vec<String> {
    let mut names = FieldNames::default();
    assert!(T::deserialize(&mut names).is_err());
    names.0.iter().map(|name| name.to_string()).collect()
}

/// Every `Severity`, in declaration order; the match stops compiling when one is added.
fn every_severity() -> [Severity; 2] {
    let all = [Severity::Error, Severity::Warning];
    all.map(|severity| match severity {
        Severity::Error | Severity::Warning => severity,
    })
}

/// Every `Mode`, in declaration order; the match stops compiling when one is added.
fn every_mode() -> [Mode; 3] {
    let all = [Mode::Answer, Mode::Clarify, Mode::Refuse];
    all.map(|mode| match mode {
        Mode::Answer | Mode::Clarify | Mode::Refuse => mode,
    })
}

/// Every `Unit`, in declaration order; the match stops compiling when one is added.
fn every_unit() -> [Unit; 3] {
    let all = [Unit::Utf16, Unit::Utf8, Unit::CodePoint];
    all.map(|unit| match unit {
        Unit::Utf16 | Unit::Utf8 | Unit::CodePoint => unit,
    })
}

#[test]
fn each_enum_the_contract_lists_has_the_rust_enums_names_in_order() {
    let enums = contract_enums();
    for (key, names) in &enums {
        let rust: Vec<String> = match key.as_str() {
            "MarkerKind" => serde_names(&MarkerKind::ALL),
            "MatchKind" => serde_names(&MatchKind::ALL),
            "Severity" => serde_names(&every_severity()),
            "Mode" => serde_names(&every_mode()),
            "Policy" => variant_names::<Policy>(),
            "Status" => variant_names::<Status>(),
            // Its `jsOnly` names are the package's own (trap recovery), not listed here.
            "CiteproofErrorCode" => ErrorCode::ALL.iter().map(|c| c.as_str().into()).collect(),
            // No serde: the names `Unit::from_name` reads, each its own variant.
            "OffsetUnit" => {
                let read: Vec<Option<Unit>> = names.iter().map(|n| Unit::from_name(n)).collect();
                assert_eq!(
                    read,
                    every_unit().map(Some),
                    "OffsetUnit against Unit::from_name"
                );
                continue;
            }
            // In detection order, which the JS adapters take from the contract.
            "Provider" => Provider::ALL.iter().map(|p| p.name().into()).collect(),
            // Spec 001's names, one per `Status` in its order.
            "AuditStatus" => variant_names::<Status>()
                .iter()
                .map(|name| audit_status(serde_json::from_value(name.as_str().into()).unwrap()))
                .map(String::from)
                .collect(),
            "AuditCitationStatus" => [true, false]
                .map(|valid| validation_status(valid).to_string())
                .to_vec(),
            other => panic!("the contract's enum {other} is not checked here: add it"),
        };
        assert_eq!(
            names, &rust,
            "wasm/js/schema.mjs's enum {key} against the Rust enum"
        );
    }
    assert!(
        enums.contains_key("MarkerKind"),
        "the contract lists no MarkerKind"
    );
}

#[test]
fn the_duration_buckets_the_contract_lists_are_the_metrics_ones() {
    let script = "import { durationBuckets } from './wasm/js/schema.mjs';
console.log(JSON.stringify(durationBuckets));";
    let json =
        node(&["--input-type=module", "-e", script]).unwrap_or_else(|error| panic!("{error}"));
    let labels: Vec<String> = serde_json::from_str(&json).unwrap();
    assert_eq!(
        labels, DURATION_BUCKET_LABELS,
        "wasm/js/schema.mjs's durationBuckets"
    );
    // Each label prints its bound.
    for (label, bound) in DURATION_BUCKET_LABELS.iter().zip(DURATION_BUCKETS) {
        assert_eq!(label.parse::<f64>().unwrap(), bound, "{label}");
    }
}

/// The contract's tag tables whose values carry a JS `type` (`tags` with `type` in
/// `wasm/js/schema.mjs`): per table the `type` of each tag, in order.
fn contract_tag_types() -> BTreeMap<String, Vec<String>> {
    let script = "import { tags, tagType } from './wasm/js/schema.mjs';
const typed = Object.entries(tags).filter(([, table]) => table.type);
console.log(JSON.stringify(Object.fromEntries(typed.map(([key, table]) => [key, table.names.map(([name]) => tagType(key, name))]))));";
    let json =
        node(&["--input-type=module", "-e", script]).unwrap_or_else(|error| panic!("{error}"));
    serde_json::from_str(&json).unwrap()
}

/// One `Segment` of each variant, in declaration order; the match stops compiling when
/// one is added.
fn every_segment() -> [Segment; 2] {
    let all = [
        Segment::Text {
            text: String::new(),
        },
        Segment::Cite {
            label: String::new(),
            refs: Vec::new(),
            source_index: None,
            source_positions: Vec::new(),
            title: None,
            url: None,
            valid: true,
        },
    ];
    all.map(|segment| match segment {
        Segment::Text { .. } | Segment::Cite { .. } => segment,
    })
}

/// One `StreamEvent` of each variant, in declaration order; the match stops compiling
/// when one is added.
fn every_stream_event() -> [StreamEvent; 3] {
    let span = Span { start: 0, end: 0 };
    let all = [
        StreamEvent::Cite {
            segment: every_segment()[1].clone(),
            span,
            answer_span: span,
        },
        StreamEvent::Finding(Finding::new(
            FindingCode::UnknownSource,
            Severity::Error,
            String::new(),
        )),
        StreamEvent::Revise(Revision {
            span,
            text: String::new(),
            answer_start: 0,
        }),
    ];
    all.map(|event| match event {
        StreamEvent::Cite { .. } | StreamEvent::Finding(_) | StreamEvent::Revise(_) => event,
    })
}

/// The name of the variant `value` is, as `Debug` writes it, in lower case.
fn variant_in_lower_case(value: &impl fmt::Debug) -> String {
    let debug = format!("{value:?}");
    let end = debug.find([' ', '(', '{']).unwrap_or(debug.len());
    debug[..end].to_lowercase()
}

#[test]
fn each_segment_and_event_type_the_contract_states_is_its_rust_variants() {
    let tables = contract_tag_types();
    // A segment's `type` is serde's tag (the CLI's JSON, which the wasm suite compares
    // the JS report with).
    let segments: Vec<String> = every_segment()
        .iter()
        .map(|segment| serde_json::to_value(segment).unwrap()["type"].to_string())
        .map(|tag| serde_json::from_str(&tag).unwrap())
        .collect();
    assert_eq!(
        tables.get("SEGMENT"),
        Some(&segments),
        "the contract's SEGMENT tags against Segment's serde tags"
    );
    // A stream event has no serde form: its `type` is its variant's name.
    let events: Vec<String> = every_stream_event()
        .iter()
        .map(variant_in_lower_case)
        .collect();
    assert_eq!(
        tables.get("EVENT"),
        Some(&events),
        "the contract's EVENT tags against StreamEvent's variants"
    );
    assert_eq!(
        tables.len(),
        2,
        "a typed tag table not checked here: add it"
    );
}
