//! The codecs between JS values and the core's types, named by direction, and the JS
//! errors both raise. Nothing here knows an export or the instance's state.

pub mod contract;
pub mod errors;
pub mod from_js;
pub mod to_js;
