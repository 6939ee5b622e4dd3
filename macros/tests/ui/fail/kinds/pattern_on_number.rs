use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(pattern = "^[0-9]+$")]
    age: u32,
}

fn main() {}
