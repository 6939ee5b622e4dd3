use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minimum = 3)]
    name: String,
}

fn main() {}
