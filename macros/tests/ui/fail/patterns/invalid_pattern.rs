use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(pattern = "([a-z]+")]
    code: String,
}

fn main() {}
