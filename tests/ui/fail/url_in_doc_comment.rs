use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form {
    /// Read https://example.com first.
    agree: bool,
}

fn main() {}
