//! Compiles the real-client suite (tests/it/clients) in as not ignored when
//! HEREDOC_GUARD_CLIENT_TESTS=1; `.ci/run` sets it.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=HEREDOC_GUARD_CLIENT_TESTS");
    println!("cargo::rustc-check-cfg=cfg(client_tests)");
    if std::env::var_os("HEREDOC_GUARD_CLIENT_TESTS").is_some_and(|v| v == "1") {
        println!("cargo::rustc-cfg=client_tests");
    }
}
