use serde::Serialize;

/// The release that shipped K1-A; the freeze's canonical examples carry it.
pub const DEFAULT_ADAPTER_VERSION: &str = "3.4.0";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    Strict,
    Lenient,
}

impl Mode {
    pub const BOTH: [Mode; 2] = [Mode::Strict, Mode::Lenient];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Strict => "strict",
            Mode::Lenient => "lenient",
        }
    }

    /// Position in `BOTH` (strict 0, lenient 1), for per-mode arrays.
    pub fn index(self) -> usize {
        match self {
            Mode::Strict => 0,
            Mode::Lenient => 1,
        }
    }

    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "strict" => Some(Mode::Strict),
            "lenient" => Some(Mode::Lenient),
            _ => None,
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything the conversion depends on besides the packet bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertOptions {
    pub mode: Mode,
    pub adapter_version: String,
    /// Version observed at ingest; used only when the packet has no string `version`.
    pub protocol_version: Option<String>,
    pub max_payload_bytes: Option<usize>,
    pub max_json_depth: Option<usize>,
    pub max_array_length: Option<usize>,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        ConvertOptions {
            mode: Mode::Strict,
            adapter_version: DEFAULT_ADAPTER_VERSION.to_owned(),
            protocol_version: None,
            max_payload_bytes: None,
            max_json_depth: None,
            max_array_length: None,
        }
    }
}

impl ConvertOptions {
    pub fn with_mode(&self, mode: Mode) -> ConvertOptions {
        ConvertOptions {
            mode,
            ..self.clone()
        }
    }
}
