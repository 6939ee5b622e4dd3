use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form {
    point: (i32, i32),
}

fn main() {}
