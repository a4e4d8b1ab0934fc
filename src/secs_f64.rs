//! Durations in serialized reports as seconds in an `f64`, as
//! [`Duration::as_secs_f64`] gives them
//! (`#[serde(serialize_with = "crate::secs_f64::serialize")]`).

use std::time::Duration;

use serde::Serializer;

/// Serializes `duration` as seconds (`serialize_with` for report fields).
pub(crate) fn serialize<S: Serializer>(
    duration: &Duration,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(duration.as_secs_f64())
}
