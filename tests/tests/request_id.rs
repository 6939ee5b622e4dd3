//! `RequestId` of every revision converts from an integer and from a text (`From<i64>`,
//! `From<String>`, `From<&str>`), into the member that holds it, and encodes as that value.

use serde_json::json;

macro_rules! conversions {
    ($($revision:ident),* $(,)?) => {$(
        #[test]
        fn $revision() {
            use mcp_typed::$revision::RequestId;

            let integer = RequestId::from(7);
            assert_eq!(integer, RequestId::Integer(7));
            assert_eq!(serde_json::to_string(&integer).expect("encodes"), "7");

            let text = RequestId::from("abc");
            assert_eq!(text, RequestId::String("abc".to_owned()));
            assert_eq!(serde_json::to_string(&text).expect("encodes"), r#""abc""#);

            let owned: RequestId = String::from("abc").into();
            assert_eq!(owned, RequestId::String("abc".to_owned()));
            assert_eq!(serde_json::to_value(&owned).expect("encodes"), json!("abc"));

            // The edges of `i64`, and a text that looks like a number stays a text.
            let max: RequestId = i64::MAX.into();
            assert_eq!(serde_json::to_value(&max).expect("encodes"), json!(i64::MAX));
            let min: RequestId = i64::MIN.into();
            assert_eq!(serde_json::to_value(&min).expect("encodes"), json!(i64::MIN));
            let digits: RequestId = "7".into();
            assert_eq!(digits, RequestId::String("7".to_owned()));
            assert_eq!(serde_json::to_string(&digits).expect("encodes"), r#""7""#);

            // What the conversions build is what decoding the same JSON gives.
            assert_eq!(serde_json::from_str::<RequestId>("7").expect("decodes"), integer);
            assert_eq!(serde_json::from_str::<RequestId>(r#""abc""#).expect("decodes"), text);
        }
    )*};
}

conversions!(
    v2024_11_05,
    v2025_03_26,
    v2025_06_18,
    v2025_11_25,
    v2026_07_28,
    draft,
);
