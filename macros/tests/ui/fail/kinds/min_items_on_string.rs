use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(min_items = 1)]
    name: String,
}

fn main() {}
