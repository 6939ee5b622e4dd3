//! The runtime that generated code calls, in one home: everything the files of `src/gen/` name
//! through `use ::mcp_typed::__private as __rt;` is here, or re-exported from here, as serde
//! keeps the code its derives call in `serde::__private`. Not a public API: hidden from the
//! docs, free to change in any release; what users call is the public modules (`jsonrpc`,
//! `borrowed`, `RawObject`, the revision modules), which build on it.
//!
//! The generated types call these helpers so that each type carries only its own field list, not
//! a copy of the decoding logic. One file per part:
//! - `object`: the members of a generated struct (`Key`, `MapDecode`, `field`, `const_str`,
//!   `extra`, `entry` …);
//! - `union`: the one-pass decoding of unions, tagged, keyed and structural;
//! - `buffer`: the replay buffers, members read ahead of the decision they feed, kept as
//!   their JSON text;
//! - `codec`: the JSON-RPC codec of the message enums (`Direction`, `Calls`, `from_str`): where
//!   a message's `jsonrpc`, `id`, `method`, `params`, `result` and `error` are read;
//! - `diagnosis`: why a refused message was refused, in JSON-RPC terms (`DecodeError`);
//! - `error_path`: the JSON pointer of the member a decode stopped at;
//! - `check`: the verdict path (feature `verdict`), whether a value decodes and validates, read
//!   without building it;
//! - `validate`: a re-export of the public module `mcp_typed::validate` (the `Validate` trait
//!   the generated types implement, its checks of the constraint keywords, and the violations
//!   they report; public with the feature `elicit`, compiled always, so that generated code of
//!   any crate compiles whatever the features), at the path generated code names;
//! - `json_schema_impls`: the runtime of the generated `schemars::JsonSchema` impls (feature
//!   `schemars`).
//!
//! The paths the generated code names (`__rt::field`, `__rt::codec::Calls`, `__rt::jsonrpc`,
//! `__rt::serde` …) are part of the contract with `mcp-codegen`: moving an item means keeping it
//! re-exported here, or regenerating.

pub(crate) mod buffer;
#[cfg(feature = "verdict")]
pub mod check;
pub mod codec;
pub(crate) mod diagnosis;
pub(crate) mod error_path;
#[cfg(feature = "schemars")]
pub mod json_schema_impls;
mod object;
mod union;
pub use crate::validate;

pub use indexmap::IndexMap;
pub use serde;
pub use serde_json;

#[cfg(feature = "borrowed")]
pub use crate::borrowed::{
    ExtraRef, IntoOwned, RawObjectRef, RequestRef, Str, ValueRef, VisitRequestRef,
};
/// The public API the generated code names: `Request`, `DecodeError`.
pub use crate::jsonrpc;
pub use crate::RawObject;
#[cfg(feature = "schemars")]
pub use {crate::__json_schema as json_schema, schemars};

pub use buffer::{buffer_object, buffer_rest, Buffered, Captured, Lent};
pub use error_path::{forget_since, mark as path_mark};
/// For the hand-written readers of a request `id` (`RawMessage`, the diagnosis).
pub(crate) use object::integer_value;
#[cfg(feature = "borrowed")]
pub(crate) use object::AnyValue;
pub use object::{
    begin_map, const_bool, const_i64, const_str, deserialize_struct, end_map, entry, extra, field,
    field_integer, field_map, field_nullable_integer, field_seq, first_missing, integer,
    optional_entry, require_const, serialize_extra, ExtraMap, Key, MapDecode, Nullable,
};
pub use union::{
    decode_keyed, decode_tagged, decode_tagged_lent, from_text, keyed_from_text, no_member_matched,
    not_lent, params_not_lent, read_partition, stream_rest, structural, unknown_tag, Keyed,
    KeyedUnion, Partitioned, Shape, TaggedRest, TrialOrder, NOT_LENT,
};
pub use validate::Validate;
