use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minlength = 3)]
    name: String,
}

fn main() {}
