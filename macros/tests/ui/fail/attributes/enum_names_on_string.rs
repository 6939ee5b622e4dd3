use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(enum_names)]
    name: String,
}

fn main() {}
