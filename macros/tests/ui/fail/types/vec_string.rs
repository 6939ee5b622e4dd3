use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    names: Vec<String>,
}

fn main() {}
