use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    at: std::time::SystemTime,
}

fn main() {}
