use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(title = "See https://example.com")]
    name: String,
}

fn main() {}
