use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    point: (i32, i32),
}

fn main() {}
