use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    callback: fn(&str) -> bool,
}

fn main() {}
