use mcp_typed::Elicit;

#[derive(Elicit)]
enum Plan {
    #[elicit(title = "Free (https://example.com/free)")]
    Free,
    Pro,
}

fn main() {}
