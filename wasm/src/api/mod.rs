//! The exports, one file per group (the renderers and `citeproofTransform`, plain JS, are
//! exported by the package's entries from `js/render.js` and `js/transform.js`, not
//! through here). Each reads its JS arguments through `wire::from_js`,
//! calls the core, and answers through `wire::to_js`; `runtime` gives it the instance's
//! state. Files here use each other only for the argument types `validate.rs` declares.

#[cfg(feature = "edge")]
pub mod edge;
pub mod embed;
pub mod locate;
pub mod module;
pub mod parse;
#[cfg(feature = "providers")]
pub mod providers;
pub mod stream;
pub mod validate;
