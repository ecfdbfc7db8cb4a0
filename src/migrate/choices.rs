//! The decisions a migration cannot make alone (spec section 7: "steps that need user
//! input"). Each is declared once, beside the step that asks it, with its default; the
//! command line overrides defaults with `--choice KEY=VALUE`.

use serde::Serialize;
use std::collections::BTreeMap;

/// What values a choice accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Accepts {
    /// One of the listed options.
    Options,
    /// Any non-empty text (an id, a scheme name), besides the listed options.
    Text,
    /// `Z` or a `+HH:MM` / `-HH:MM` offset.
    Offset,
}

#[derive(Debug, Serialize)]
pub struct ChoiceOption {
    pub value: &'static str,
    pub meaning: &'static str,
}

/// A decision point, declared as data.
#[derive(Debug, Serialize)]
pub struct ChoiceDef {
    pub key: &'static str,
    /// The question, in a few words.
    pub question: &'static str,
    pub default: &'static str,
    pub options: &'static [ChoiceOption],
    pub accepts: Accepts,
}

impl ChoiceDef {
    /// Checks a value given on the command line.
    pub fn check(&self, value: &str) -> Result<(), String> {
        let listed = self.options.iter().any(|option| option.value == value);
        let ok = listed
            || match self.accepts {
                Accepts::Options => false,
                Accepts::Text => !value.trim().is_empty(),
                Accepts::Offset => super::timestamp::parse_offset(value).is_some(),
            };
        if ok {
            return Ok(());
        }
        let listed: Vec<&str> = self.options.iter().map(|option| option.value).collect();
        let extra = match self.accepts {
            Accepts::Options => "",
            Accepts::Text => " or any non-empty text",
            Accepts::Offset => " or an offset such as +02:00",
        };
        Err(format!(
            "--choice {}={}: expected {}{}",
            self.key,
            crate::json::safe_text(value),
            listed.join(", "),
            extra
        ))
    }

    /// `KEY=DEFAULT (one of a, b, c)` for help and traces.
    pub fn describe(&self) -> String {
        let listed: Vec<&str> = self.options.iter().map(|option| option.value).collect();
        let extra = match self.accepts {
            Accepts::Options => "",
            Accepts::Text => ", or text",
            Accepts::Offset => ", or an offset",
        };
        format!(
            "{}={} (one of {}{})",
            self.key,
            self.default,
            listed.join(", "),
            extra
        )
    }
}

/// The values given with `--choice`, checked against the declared choices.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Choices(BTreeMap<String, String>);

impl Choices {
    pub fn none() -> Choices {
        Choices::default()
    }

    /// Parses `KEY=VALUE` items against the choices of `declared`.
    pub fn parse<'a>(
        items: impl IntoIterator<Item = &'a str>,
        declared: &[&'static ChoiceDef],
    ) -> Result<Choices, String> {
        let mut values = BTreeMap::new();
        for item in items {
            let Some((key, value)) = item.split_once('=') else {
                return Err(format!(
                    "--choice {}: expected KEY=VALUE",
                    crate::json::safe_text(item)
                ));
            };
            let Some(def) = declared.iter().find(|def| def.key == key) else {
                let known: Vec<&str> = declared.iter().map(|def| def.key).collect();
                return Err(format!(
                    "--choice {}: unknown key; known keys: {}",
                    crate::json::safe_text(key),
                    known.join(", ")
                ));
            };
            def.check(value)?;
            values.insert(key.to_owned(), value.to_owned());
        }
        Ok(Choices(values))
    }

    /// Sets one value without checking (tests and the TUI, which offers listed options).
    pub fn with(mut self, key: &str, value: &str) -> Choices {
        self.0.insert(key.to_owned(), value.to_owned());
        self
    }

    /// The value given for `def`, if any.
    pub fn given(&self, def: &ChoiceDef) -> Option<&str> {
        self.0.get(def.key).map(String::as_str)
    }
}

/// The value a step used for its choice, and whether it was the default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChoiceTaken {
    pub key: &'static str,
    pub value: String,
    pub default: bool,
    /// How to choose otherwise, e.g. `--choice history-length-zero=keep`.
    pub override_hint: String,
}

impl ChoiceTaken {
    pub fn of(def: &'static ChoiceDef, choices: &Choices) -> ChoiceTaken {
        let given = choices.given(def);
        let value = given.unwrap_or(def.default).to_owned();
        let others: Vec<&str> = def
            .options
            .iter()
            .map(|option| option.value)
            .filter(|option| *option != value)
            .collect();
        let override_hint = match others.first() {
            Some(other) => format!("--choice {}={}", def.key, other),
            None => format!("--choice {}=VALUE", def.key),
        };
        ChoiceTaken {
            key: def.key,
            value,
            default: given.is_none(),
            override_hint,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static ZONE: ChoiceDef = ChoiceDef {
        key: "zone",
        question: "which zone",
        default: "Z",
        options: &[ChoiceOption {
            value: "Z",
            meaning: "UTC",
        }],
        accepts: Accepts::Offset,
    };
    static MODE: ChoiceDef = ChoiceDef {
        key: "mode",
        question: "which mode",
        default: "a",
        options: &[
            ChoiceOption {
                value: "a",
                meaning: "A",
            },
            ChoiceOption {
                value: "b",
                meaning: "B",
            },
        ],
        accepts: Accepts::Options,
    };

    #[test]
    fn parses_and_checks() {
        let declared = [&ZONE, &MODE];
        let choices = Choices::parse(["zone=+02:00", "mode=b"], &declared).unwrap();
        assert_eq!(choices.given(&MODE), Some("b"));
        assert!(Choices::parse(["mode=c"], &declared)
            .unwrap_err()
            .contains("expected a, b"));
        assert!(Choices::parse(["zone=nowhere"], &declared).is_err());
        assert!(Choices::parse(["other=1"], &declared)
            .unwrap_err()
            .contains("known keys: zone, mode"));
        assert!(Choices::parse(["novalue"], &declared).is_err());
    }

    #[test]
    fn taken_names_the_default_and_the_override() {
        let taken = ChoiceTaken::of(&MODE, &Choices::none());
        assert_eq!((taken.value.as_str(), taken.default), ("a", true));
        assert_eq!(taken.override_hint, "--choice mode=b");
        let taken = ChoiceTaken::of(&MODE, &Choices::none().with("mode", "b"));
        assert!(!taken.default);
        assert_eq!(taken.override_hint, "--choice mode=a");
    }
}
