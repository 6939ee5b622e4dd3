use mcp_schema::Elicit;

#[derive(Elicit)]
enum Plan {
    #[elicit(title = "Free (https://example.com/free)")]
    Free,
    Pro,
}

fn main() {}
