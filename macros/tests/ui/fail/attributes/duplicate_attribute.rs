use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(title = "A", title = "B")]
    name: String,
}

fn main() {}
