use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form {
    numbers: Vec<i32>,
}

fn main() {}
