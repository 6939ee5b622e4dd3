use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(description = "Terms at http://example.com/terms")]
    agree: bool,
}

fn main() {}
