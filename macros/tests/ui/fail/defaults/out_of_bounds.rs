use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minimum = 1, maximum = 10, default = 11)]
    rating: u8,
}

fn main() {}
