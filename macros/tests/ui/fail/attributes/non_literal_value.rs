use mcp_typed::Elicit;

const MAX: u64 = 3;

#[derive(Elicit)]
struct Form {
    #[elicit(max_length = MAX)]
    name: String,
}

fn main() {}
