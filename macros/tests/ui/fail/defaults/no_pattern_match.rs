use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(pattern = "^[0-9]+$", default = "abc")]
    code: String,
}

fn main() {}
