use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form {
    name: Option<Option<String>>,
}

fn main() {}
