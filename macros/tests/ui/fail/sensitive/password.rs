use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    username: String,
    password: String,
}

fn main() {}
