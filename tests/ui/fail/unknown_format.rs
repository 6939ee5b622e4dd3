use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(format = "phone")]
    phone: String,
}

fn main() {}
