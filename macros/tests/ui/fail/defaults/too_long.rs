use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(max_length = 3, default = "abcd")]
    code: String,
}

fn main() {}
