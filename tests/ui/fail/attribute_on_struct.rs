use mcp_schema::Elicit;

#[derive(Elicit)]
#[elicit(title = "Form")]
struct Form {
    name: String,
}

fn main() {}
