use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    token_count: u32,
}

fn main() {}
