//! Values drawn for the types a user's build step generates (`Config::schemars_feature`, what
//! `mcp_typed::valid` draws from), as for the official revisions: for every type of each
//! third-party schema, values drawn from the type's own schema are accepted by the pinned schema
//! it was generated from, and decode into the type and encode back unchanged.
#![cfg(all(feature = "registry", feature = "schemars"))]

use mcp_typed_build_step::{ext_apps, rmcp_client_message, rmcp_server_message, SCHEMAS};
use mcp_typed_tests::drawn::draw_every_type;
use serde_json::Value;

/// Values drawn per type.
const DRAWS: u64 = 8;

type SchemaOf = fn(&str) -> Option<schemars::Schema>;
type RoundTrip = fn(&str, &str) -> Option<Result<Value, serde_json::Error>>;

/// Each module's pinned schema name and its generated hooks.
const MODULES: [(&str, SchemaOf, RoundTrip); 3] = [
    ("ext-apps", ext_apps::__json_schema, ext_apps::__roundtrip),
    (
        "rmcp-client-message",
        rmcp_client_message::__json_schema,
        rmcp_client_message::__roundtrip,
    ),
    (
        "rmcp-server-message",
        rmcp_server_message::__json_schema,
        rmcp_server_message::__roundtrip,
    ),
];

/// What cannot be drawn or does not hold, each found by this test and explained:
/// - ext-apps' `containerDimensions` is the `allOf` of two `anyOf`s of closed objects (zod's
///   intersection of unions): only an object that both unions accept is valid, which drawing
///   by construction does not reach (`Unsupported`, as documented);
/// - ext-apps' `McpUiStyles` is a record over 76 keys whose schema requires every key (zod's
///   export of `Record<K, string | undefined>`), while its description, and zod's own
///   validation, take any subset: the generated type is a map, as the producer means, so a
///   value drawn from it (`{}`) is refused by the schema as written.
const KNOWN: [(&str, &str); 4] = [
    ("ext-apps McpUiHostContext", "allOf of other than objects"),
    (
        "ext-apps McpUiHostContextChangedNotification",
        "allOf of other than objects",
    ),
    (
        "ext-apps McpUiInitializeResult",
        "allOf of other than objects",
    ),
    ("ext-apps McpUiStyles", "the schema refuses {}"),
];

#[test]
fn values_drawn_for_every_generated_type_are_valid_and_round_trip() {
    let mut failures = Vec::new();
    for (name, schema_of, round_trip) in MODULES {
        let text = (SCHEMAS.iter())
            .find_map(|(schema, text)| (*schema == name).then_some(*text))
            .expect("a pinned schema");
        let mut root: Value = serde_json::from_str(text).expect("the schema is JSON");
        // As the generator reads it: zod's nested `$defs` at the root, where its `$ref`s point.
        mcp_codegen::hoist_nested_definitions(&mut root).expect("hoisted");
        let drawn = draw_every_type(
            name,
            &root,
            DRAWS,
            |definition| schema_of(definition).map(schemars::Schema::to_value),
            round_trip,
            |_| false,
        );
        println!(
            "{name}: {} types, {} values drawn, {} failures",
            drawn.types,
            drawn.values,
            drawn.failures.len()
        );
        assert!(drawn.types >= 20, "{name}: {} types", drawn.types);
        failures.extend(drawn.failures);
    }
    let known = |failure: &String, (what, why): &(&str, &str)| {
        failure.starts_with(&format!("{what}: ")) && failure.contains(why)
    };
    let unexplained: Vec<&String> = (failures.iter())
        .filter(|failure| !KNOWN.iter().any(|k| known(failure, k)))
        .collect();
    assert!(unexplained.is_empty(), "{unexplained:#?}");
    for k in &KNOWN {
        assert!(
            failures.iter().any(|f| known(f, k)),
            "{k:?} no longer fails: take it off KNOWN"
        );
    }
}
