use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    name: Option<Option<String>>,
}

fn main() {}
