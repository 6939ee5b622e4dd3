use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(title = "Form")]
struct Form {
    name: String,
}

fn main() {}
