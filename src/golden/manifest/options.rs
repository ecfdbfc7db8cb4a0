//! The conversion options a manifest records, and how they differ from the current ones.

use crate::a2a::ConvertOptions;
use serde_json::Value;

/// The conversion options a manifest was recorded with: they change payload digests (and
/// the limits change outcomes), so a check under other options would report drift that is
/// not there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedOptions {
    pub adapter_version: String,
    pub protocol_version: Option<String>,
    pub max_payload_bytes: Option<usize>,
    pub max_json_depth: Option<usize>,
    pub max_array_length: Option<usize>,
}

impl RecordedOptions {
    pub fn of(options: &ConvertOptions) -> RecordedOptions {
        RecordedOptions {
            adapter_version: options.adapter_version.clone(),
            protocol_version: options.protocol_version.clone(),
            max_payload_bytes: options.max_payload_bytes,
            max_json_depth: options.max_json_depth,
            max_array_length: options.max_array_length,
        }
    }

    /// The conversion options these record (strict mode: a manifest records both modes'
    /// outcomes under the same options): what pending goldens are accepted under.
    pub fn convert_options(&self) -> ConvertOptions {
        ConvertOptions {
            adapter_version: self.adapter_version.clone(),
            protocol_version: self.protocol_version.clone(),
            max_payload_bytes: self.max_payload_bytes,
            max_json_depth: self.max_json_depth,
            max_array_length: self.max_array_length,
            ..ConvertOptions::default()
        }
    }

    /// The options that are set, by manifest key, adapter_version first: what the manifest
    /// writes, and what a bless reports when they change.
    pub fn fields(&self) -> Vec<(&'static str, Value)> {
        let mut fields = vec![(
            "adapter_version",
            Value::from(self.adapter_version.as_str()),
        )];
        if let Some(version) = &self.protocol_version {
            fields.push(("protocol_version", Value::from(version.as_str())));
        }
        for (key, value) in [
            ("max_payload_bytes", self.max_payload_bytes),
            ("max_json_depth", self.max_json_depth),
            ("max_array_length", self.max_array_length),
        ] {
            if let Some(value) = value {
                fields.push((key, Value::from(value)));
            }
        }
        fields
    }

    /// Where these options differ from `options`, as `--flag recorded` hints; empty when equal.
    pub fn differences(&self, options: &ConvertOptions) -> Vec<String> {
        let other = RecordedOptions::of(options);
        let mut out = Vec::new();
        let show = |value: &Option<String>| value.clone().unwrap_or_else(|| "unset".to_owned());
        let show_n = |value: Option<usize>| value.map_or("unset".to_owned(), |n| n.to_string());
        if self.adapter_version != other.adapter_version {
            out.push(format!("--adapter-version {}", self.adapter_version));
        }
        if self.protocol_version != other.protocol_version {
            out.push(format!(
                "--protocol-version {}",
                show(&self.protocol_version)
            ));
        }
        for (flag, recorded, current) in [
            (
                "--max-payload-bytes",
                self.max_payload_bytes,
                other.max_payload_bytes,
            ),
            (
                "--max-json-depth",
                self.max_json_depth,
                other.max_json_depth,
            ),
            (
                "--max-array-length",
                self.max_array_length,
                other.max_array_length,
            ),
        ] {
            if recorded != current {
                out.push(format!("{flag} {}", show_n(recorded)));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_options_give_back_the_options_they_record() {
        let options = ConvertOptions {
            adapter_version: "2.0.0".to_owned(),
            protocol_version: Some("0.3".to_owned()),
            max_payload_bytes: Some(10),
            max_json_depth: Some(3),
            max_array_length: Some(4),
            ..ConvertOptions::default()
        };
        let recorded = RecordedOptions::of(&options);
        assert_eq!(RecordedOptions::of(&recorded.convert_options()), recorded);
        assert_eq!(recorded.convert_options().max_json_depth, Some(3));
    }

    #[test]
    fn option_differences_name_the_flag() {
        let recorded = RecordedOptions::of(&ConvertOptions::default());
        let mut options = ConvertOptions::default();
        assert!(recorded.differences(&options).is_empty());
        options.adapter_version = "9.9.9".to_owned();
        options.max_json_depth = Some(4);
        assert_eq!(
            recorded.differences(&options),
            vec!["--adapter-version 3.4.0", "--max-json-depth unset"]
        );
    }
}
