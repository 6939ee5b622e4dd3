use mcp_schema::Elicit;

#[derive(Elicit)]
enum Color {
    Red,
    Green,
}

#[derive(Elicit)]
struct Form {
    #[elicit(format = "email")]
    color: Color,
}

fn main() {}
