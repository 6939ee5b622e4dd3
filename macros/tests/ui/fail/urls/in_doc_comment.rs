use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    /// Read https://example.com first.
    agree: bool,
}

fn main() {}
