//! Forms from `schemars::JsonSchema` types: `RequestedSchema::for_type` / `from_json_schema` give
//! the same model as the equivalent `#[derive(Elicit)]` struct, and refuse what a form cannot be,
//! with the pointer and the field's name.

use std::collections::{BTreeMap, HashSet};

use mcp_typed::elicit::{RequestedSchema, SchemaError};
use mcp_typed::Elicit;
use schemars::JsonSchema;
use serde_json::json;

/// Properties and `required` sorted by name: `schema_for!` goes through a `serde_json::Value`,
/// which sorts keys without serde_json's `preserve_order`.
fn sorted(mut schema: RequestedSchema) -> RequestedSchema {
    schema.properties.sort_by(|a, b| a.0.cmp(&b.0));
    schema.required.sort();
    schema
}

fn same<S: JsonSchema, D: Elicit>() {
    let converted = RequestedSchema::for_type::<S>()
        .unwrap_or_else(|e| panic!("{}: {e}", std::any::type_name::<S>()));
    let derived = D::requested_schema();
    assert_eq!(
        sorted(converted.clone()),
        sorted(derived.clone()),
        "{}:\n converted {}\n derived   {}",
        std::any::type_name::<S>(),
        serde_json::to_string(&converted).unwrap(),
        serde_json::to_string(&derived).unwrap()
    );
}

// Enums usable on both sides: one type derives both traits.
#[derive(JsonSchema, Elicit, serde::Deserialize, Hash, PartialEq, Eq)]
#[allow(dead_code)]
enum Plan {
    Free,
    Pro,
}

#[derive(JsonSchema, Elicit, serde::Deserialize, Hash, PartialEq, Eq)]
#[allow(dead_code)]
enum Color {
    /// Red
    #[elicit(title = "Red")]
    #[serde(rename = "#FF0000")]
    Red,
    /// Green
    #[elicit(title = "Green")]
    #[serde(rename = "#00FF00")]
    Green,
}

#[derive(JsonSchema, Elicit, serde::Deserialize, Hash, PartialEq, Eq)]
#[allow(dead_code)]
enum Size {
    #[schemars(title = "Small")]
    #[elicit(title = "Small")]
    S,
    #[schemars(title = "Large")]
    #[elicit(title = "Large")]
    L,
}

macro_rules! pair {
    ($test:ident, $s:ident { $($sf:tt)* }, $d:ident { $($df:tt)* }) => {
        #[derive(JsonSchema)]
        #[allow(dead_code)]
        struct $s { $($sf)* }
        #[derive(Elicit)]
        #[allow(dead_code)]
        struct $d { $($df)* }
        #[test]
        fn $test() {
            same::<$s, $d>();
        }
    };
}

pair!(contact_form,
SContact {
    /// Your full name
    name: String,
    #[schemars(email)]
    email: String,
    age: Option<u8>,
},
DContact {
    /// Your full name
    name: String,
    #[elicit(format = "email")]
    email: String,
    age: Option<u8>,
});

pair!(
    string_lengths,
    SLengths {
        #[schemars(length(min = 1, max = 50))]
        nickname: String,
    },
    DLengths {
        #[elicit(min_length = 1, max_length = 50)]
        nickname: String,
    }
);

pair!(
    pattern,
    SPattern {
        #[schemars(regex(pattern = r"^\d{5}$"))]
        zip: String,
    },
    DPattern {
        #[elicit(pattern = r"^\d{5}$")]
        zip: String,
    }
);

pair!(
    integer_range_narrows_the_type_range,
    SRange {
        #[schemars(range(min = 1, max = 10))]
        rating: u32,
        level: i8,
        count: i64,
    },
    DRange {
        #[elicit(minimum = 1, maximum = 10)]
        rating: u32,
        level: i8,
        count: i64,
    }
);

pair!(
    numbers_and_booleans,
    SNumbers {
        ratio: f64,
        #[schemars(range(min = 0.5, max = 2.5))]
        factor: f64,
        ok: bool,
    },
    DNumbers {
        ratio: f64,
        #[elicit(minimum = 0.5, maximum = 2.5)]
        factor: f64,
        ok: bool,
    }
);

pair!(uri_and_date,
SUri {
    #[schemars(url)]
    site: Option<String>,
    #[schemars(extend("format" = "date"))]
    born: String,
},
DUri {
    #[elicit(format = "uri")]
    site: Option<String>,
    #[elicit(format = "date")]
    born: String,
});

pair!(
    untitled_single_select,
    SPlan { plan: Plan },
    DPlan { plan: Plan }
);

pair!(titled_single_select_from_doc_comments_and_optional,
    SColor { color: Color, other: Option<Color> },
    DColor { color: Color, other: Option<Color> });

pair!(
    titled_single_select_from_titles,
    SSize { size: Size },
    DSize { size: Size }
);

pair!(multi_select_with_bounds,
SPlans {
    #[schemars(length(min = 1, max = 2))]
    plans: Vec<Plan>,
},
DPlans {
    #[elicit(min_items = 1, max_items = 2)]
    plans: Vec<Plan>,
});

pair!(titled_multi_select_from_a_set,
    SColors { colors: HashSet<Color> },
    DColors { colors: HashSet<Color> });

#[derive(JsonSchema, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct SRenamed {
    full_name: String,
    #[serde(rename = "e-mail")]
    #[schemars(email)]
    email_address: String,
}

#[derive(Elicit)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct DRenamed {
    full_name: String,
    #[serde(rename = "e-mail")]
    #[elicit(format = "email")]
    email_address: String,
}

#[test]
fn serde_renames() {
    same::<SRenamed, DRenamed>();
}

#[test]
fn a_boolean_default_is_kept() {
    fn yes() -> bool {
        true
    }
    #[derive(JsonSchema, serde::Deserialize)]
    #[allow(dead_code)]
    struct S {
        #[serde(default = "yes")]
        subscribe: bool,
    }
    #[derive(Elicit)]
    #[allow(dead_code)]
    struct D {
        #[elicit(default = true)]
        subscribe: Option<bool>,
    }
    same::<S, D>();
}

#[test]
fn text_keeps_the_declaration_order() {
    let text = r##"{
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Signup",
        "type": "object",
        "properties": {
            "zeta": {"type": "string"},
            "alpha": {"$ref": "#/$defs/Plan"},
            "mid": {"type": ["integer", "null"], "format": "uint8", "minimum": 0, "maximum": 255}
        },
        "required": ["zeta", "alpha"],
        "$defs": {"Plan": {"type": "string", "enum": ["Free", "Pro"]}}
    }"##;
    let schema = RequestedSchema::from_json_schema_str(text).unwrap();
    let names: Vec<&str> = schema.properties.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["zeta", "alpha", "mid"]);
    assert_eq!(
        serde_json::to_value(&schema).unwrap(),
        json!({"type": "object", "properties": {
            "zeta": {"type": "string"},
            "alpha": {"type": "string", "enum": ["Free", "Pro"]},
            "mid": {"type": "integer", "minimum": 0, "maximum": 255}
        }, "required": ["zeta", "alpha"]})
    );
}

/// The error for the schema of `S`: its pointer must start with `/properties/<field>` and its
/// message name the field.
fn refused<S: JsonSchema>(field: &str) -> SchemaError {
    let error = RequestedSchema::for_type::<S>().expect_err(std::any::type_name::<S>());
    let escaped = mcp_typed::json_pointer::escape(field);
    assert!(
        error.pointer.starts_with(&format!("/properties/{escaped}")),
        "{}: pointer {:?} ({})",
        std::any::type_name::<S>(),
        error.pointer,
        error.message
    );
    assert!(
        error.message.contains(&format!("property `{field}`")),
        "{}: {error}",
        std::any::type_name::<S>()
    );
    error
}

#[derive(JsonSchema)]
#[allow(dead_code)]
struct Address {
    street: String,
}

#[derive(JsonSchema)]
#[allow(dead_code)]
enum WithData {
    Text(String),
    Number(i64),
}

macro_rules! refuse {
    ($test:ident, $field:literal, { $($f:tt)* }) => {
        #[test]
        fn $test() {
            #[derive(JsonSchema)]
            #[allow(dead_code)]
            struct Form { $($f)* }
            refused::<Form>($field);
        }
    };
}

refuse!(refuses_a_nested_struct, "address", { name: String, address: Address });
refuse!(refuses_an_optional_nested_struct, "address", { address: Option<Address> });
refuse!(refuses_a_free_form_string_array, "tags", { tags: Vec<String> });
refuse!(refuses_an_integer_array, "scores", { scores: Vec<i32> });
refuse!(refuses_a_map, "labels", { labels: BTreeMap<String, String> });
refuse!(refuses_a_tuple, "point", { point: (u8, u8) });
refuse!(refuses_an_enum_with_data, "value", { value: WithData });
refuse!(refuses_any_json, "data", { data: serde_json::Value });
refuse!(refuses_a_vector_of_structs, "addresses", { addresses: Vec<Address> });
refuse!(refuses_an_unknown_string_format, "id", {
    #[schemars(extend("format" = "uuid"))]
    id: String
});
refuse!(refuses_a_keyword_it_does_not_enforce, "code", {
    #[schemars(extend("multipleOf" = 3))]
    code: i64
});
refuse!(refuses_contradictory_bounds, "n", {
    #[schemars(range(min = 10, max = 1))]
    n: i64
});

#[test]
fn refuses_a_reference_it_cannot_resolve() {
    let schema = json!({
        "type": "object",
        "properties": {"plan": {"$ref": "https://example.com/plan.json"}}
    });
    let error = RequestedSchema::from_json_schema(&schema).unwrap_err();
    assert_eq!(error.pointer, "/properties/plan/$ref");
    assert!(error.message.contains("property `plan`"), "{error}");
}

#[test]
fn refuses_a_reference_cycle() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"$ref": "#/$defs/A"}}
    });
    let error = RequestedSchema::from_json_schema(&schema).unwrap_err();
    assert!(error.pointer.starts_with("/properties/a"), "{error}");
    assert!(error.message.contains("cycle"), "{error}");
}

#[test]
fn never_panics_on_odd_input() {
    for value in [
        json!(null),
        json!([]),
        json!({"properties": 3}),
        json!({"type": "object", "properties": {"x": {"type": ["string", "null", "integer"]}}}),
        json!({"type": "object", "properties": {"x": {"anyOf": [{"type": "null"}, {"type": "null"}]}}}),
        json!({"type": "object", "properties": {"x": {"oneOf": []}}}),
        json!({"type": "object", "properties": {"x": {"type": "integer", "format": "uint8", "minimum": "a"}}}),
        json!({"type": "object", "properties": {"x": {"type": "array", "items": {"$ref": "#/$defs/none"}}}}),
    ] {
        assert!(
            RequestedSchema::from_json_schema(&value).is_err(),
            "{value}"
        );
    }
}
