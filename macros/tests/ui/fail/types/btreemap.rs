use mcp_typed::Elicit;

use std::collections::BTreeMap;

#[derive(Elicit)]
struct Form {
    tags: BTreeMap<String, u32>,
}

fn main() {}
