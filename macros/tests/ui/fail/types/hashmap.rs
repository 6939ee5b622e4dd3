use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    tags: std::collections::HashMap<String, String>,
}

fn main() {}
