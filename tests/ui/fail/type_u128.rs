use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form {
    id: u128,
}

fn main() {}
