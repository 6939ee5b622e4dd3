use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(default = "yes")]
    subscribe: bool,
    #[elicit(default = 1.5)]
    count: u32,
}

fn main() {}
