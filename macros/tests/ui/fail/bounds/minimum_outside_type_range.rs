use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minimum = -1, maximum = 300)]
    level: u8,
}

fn main() {}
