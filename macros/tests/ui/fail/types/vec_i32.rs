use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    numbers: Vec<i32>,
}

fn main() {}
