use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    scores: [u8; 3],
}

fn main() {}
