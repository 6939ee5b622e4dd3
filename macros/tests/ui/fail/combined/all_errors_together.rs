use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(min_length = 5, max_length = 2)]
    name: String,
    password: String,
    tags: Vec<String>,
    #[elicit(format = "phone")]
    phone: String,
}

fn main() {}
