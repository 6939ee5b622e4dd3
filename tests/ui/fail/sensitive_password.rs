use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form {
    username: String,
    password: String,
}

fn main() {}
