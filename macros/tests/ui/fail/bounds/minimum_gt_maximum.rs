use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minimum = 10, maximum = 1)]
    age: u8,
}

fn main() {}
