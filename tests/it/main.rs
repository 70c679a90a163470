//! The one integration-test binary.
mod differential;
mod generator;
mod oracle;
mod support;
