//! `prove --out` result files as campaigns read them (`crates/tsumi/src/result_file.rs`,
//! included as is): any bytes are read as a JSON object or ignored, and the questions of
//! two files are compared, never a panic.
#![no_main]

#[allow(dead_code, missing_docs)]
#[path = "../../crates/tsumi/src/result_file.rs"]
mod result_file;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (a, b) = data.split_at(data.len() / 2);
    let parse = |d: &[u8]| result_file::parse(&String::from_utf8_lossy(d));
    let (Some(x), y) = (parse(data), parse(a)) else {
        return;
    };
    let y = y.or_else(|| parse(b)).unwrap_or(serde_json::Value::Null);
    let _ = result_file::proves(&x, &y);
    let _ = result_file::same_question(&x, &y);
    assert!(result_file::same_question(&x, &x));
    let _ = result_file::shell_line(&[String::from_utf8_lossy(data).as_ref()]);
});
