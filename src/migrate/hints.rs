//! What a caller knows of an object beyond its JSON: a kind or version the user forced
//! (`migrate --kind`, `--from`), or the version a migration fixture's file name gives its
//! expected output. Every face (`ls`, `check`, `explain`, `migrate`, the inspector) hands
//! the same hints to the one detection ([`super::detect_with`]), so they agree on what an
//! object is and on whether anything migrates.

use super::model::{Dialect, ObjectKind, Version};

/// Where a version hint comes from, and so how strong it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintSource {
    /// `--from` or `--kind` on the command line: wins over the object's own signals.
    Forced,
    /// A fixture's file name (`NAME.v03.jsonrpc.v10.json`): settles only what the object's
    /// own signals leave open.
    FileName(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionHint {
    pub version: Version,
    pub source: HintSource,
}

impl VersionHint {
    /// Why the detection took this version, for its reasons.
    pub fn why(&self) -> String {
        match &self.source {
            HintSource::Forced => {
                format!("version {} forced (`--from`, `--as`)", self.version.label())
            }
            HintSource::FileName(name) => format!(
                "version {}: the file name {} marks it as a migration's expected {} output",
                self.version.label(),
                crate::json::safe_text(name),
                self.version.label()
            ),
        }
    }
}

/// Hints for one object; [`Hints::none`] for an object known by its JSON alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    /// The object's kind, forced (`--kind`).
    pub kind: Option<ObjectKind>,
    pub version: Option<VersionHint>,
    /// The v0.3 dialect, forced (`--from 0.3-rest`): a REST object whose members also read
    /// as the JSON-RPC dialect (`{"data": {"data": ...}}`).
    pub dialect: Option<Dialect>,
}

impl Hints {
    pub fn none() -> Hints {
        Hints::default()
    }

    /// The hint a file's name gives (see [`expected_output_version`]); none for other names.
    pub fn from_file_name(file_name: Option<&str>) -> Hints {
        let version = file_name.and_then(|name| {
            expected_output_version(name).map(|(version, _)| VersionHint {
                version,
                source: HintSource::FileName(name.to_owned()),
            })
        });
        Hints {
            kind: None,
            version,
            dialect: None,
        }
    }

    /// Forced readings (`--kind`, `--from`) over what the file name says.
    pub fn forced(mut self, kind: Option<ObjectKind>, version: Option<Version>) -> Hints {
        if kind.is_some() {
            self.kind = kind;
        }
        if let Some(version) = version {
            self.version = Some(VersionHint {
                version,
                source: HintSource::Forced,
            });
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.kind.is_none() && self.version.is_none() && self.dialect.is_none()
    }
}

/// The version a migration's expected output is in, from its name: `NAME.v03[.DIALECT].v10.json`
/// is the v1.0 output of `NAME.v03[.DIALECT].json`, `NAME.v10.v03.json` the v0.3 output of
/// `NAME.v10.json` (the fixtures' naming, see fixtures/migrate/README.md).
pub fn expected_output_version(file_name: &str) -> Option<(Version, &'static str)> {
    let stem = file_name.strip_suffix(".json")?;
    if let Some(input) = stem.strip_suffix(".v10") {
        let from_v03 = [".v03", ".v03.jsonrpc", ".v03.rest"]
            .iter()
            .any(|suffix| input.ends_with(suffix));
        return from_v03.then_some((Version::V1_0, "v1.0"));
    }
    let input = stem.strip_suffix(".v03")?;
    input.ends_with(".v10").then_some((Version::V0_3, "v0.3"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_and_forced_readings() {
        let named = Hints::from_file_name(Some("part-text.v03.jsonrpc.v10.json"));
        assert_eq!(named.version.as_ref().unwrap().version, Version::V1_0);
        assert!(Hints::from_file_name(Some("part-text.v03.jsonrpc.json")).is_empty());
        assert!(Hints::from_file_name(None).is_empty());
        let forced = named.forced(Some(ObjectKind::Part), Some(Version::V0_3));
        assert_eq!(forced.kind, Some(ObjectKind::Part));
        assert_eq!(
            forced.version,
            Some(VersionHint {
                version: Version::V0_3,
                source: HintSource::Forced
            })
        );
        assert_eq!(
            expected_output_version("card.v10.v03.json"),
            Some((Version::V0_3, "v0.3"))
        );
    }
}
