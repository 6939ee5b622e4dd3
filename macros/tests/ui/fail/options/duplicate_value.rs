use mcp_typed::Elicit;

#[derive(Elicit)]
enum Color {
    #[serde(rename = "red")]
    Red,
    #[serde(rename = "red")]
    Crimson,
    Green,
}

fn main() {}
