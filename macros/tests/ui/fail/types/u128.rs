use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    id: u128,
}

fn main() {}
