use std::collections::{BTreeSet, HashSet};

use mcp_typed::Elicit;

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Elicit)]
#[serde(rename_all = "lowercase")]
enum Topic {
    #[elicit(title = "Rust")]
    Rust,
    Go,
}

mod inner {
    #[derive(Debug, PartialEq, mcp_typed::Elicit)]
    pub enum Size {
        Small,
        Large,
    }
}

/// A signup form (the struct doc comment is not part of the schema).
#[derive(Debug, Elicit)]
#[serde(rename_all = "camelCase")]
struct Signup {
    /// Your name
    #[elicit(title = "Name", min_length = 1, max_length = 50, pattern = "\\S")]
    full_name: std::string::String,
    #[elicit(format = "email")]
    email: String,
    #[elicit(minimum = 13, default = 18)]
    age: Option<u8>,
    #[elicit(minimum = -1.5, maximum = 1.5)]
    score: f64,
    newsletter: core::primitive::bool,
    size: inner::Size,
    #[elicit(min_items = 1, max_items = 2, default = ["rust"])]
    topics: Vec<Topic>,
    more: Option<BTreeSet<Topic>>,
    other: Option<HashSet<Topic>>,
    #[elicit(not_sensitive)]
    token_budget: u32,
}

fn main() {
    let schema = <Signup as mcp_typed::elicit::Elicit>::requested_schema();
    assert_eq!(schema.properties.len(), 10);
    assert!(schema.check().is_ok());
}
