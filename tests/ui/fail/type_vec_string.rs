use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form {
    names: Vec<String>,
}

fn main() {}
