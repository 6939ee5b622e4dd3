use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form {
    name: &'static str,
}

fn main() {}
