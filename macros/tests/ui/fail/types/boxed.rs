use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    name: Box<String>,
}

fn main() {}
