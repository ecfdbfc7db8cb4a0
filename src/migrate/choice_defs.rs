//! Every decision the migration asks, with its default. Steps point at these; the help text,
//! the trace and the list in docs/migrate.md are generated from them.

use super::choices::{Accepts, ChoiceDef, ChoiceOption};

pub static TASK_RESULT: ChoiceDef = ChoiceDef {
    key: "task-result",
    question: "Which call returned a bare Task result?",
    default: "send",
    options: &[
        ChoiceOption {
            value: "send",
            meaning:
                "SendMessage, SendStreamingMessage or SubscribeToTask: wrap as {\"task\": ...}",
        },
        ChoiceOption {
            value: "get",
            meaning: "GetTask or CancelTask: the Task stays bare",
        },
    ],
    accepts: Accepts::Options,
};

pub static BARE_TASK: ChoiceDef = ChoiceDef {
    key: "bare-task",
    question: "Is a top-level Task an object or a push-notification body?",
    default: "object",
    options: &[
        ChoiceOption {
            value: "object",
            meaning: "a Task object: stays a Task",
        },
        ChoiceOption {
            value: "webhook",
            meaning: "a push-notification body: wrap as the StreamResponse {\"task\": ...}",
        },
    ],
    accepts: Accepts::Options,
};

pub static ERROR_DATA: ChoiceDef = ChoiceDef {
    key: "error-data",
    question: "What becomes of a JSON-RPC error's `data`?",
    default: "errorinfo",
    options: &[
        ChoiceOption {
            value: "errorinfo",
            meaning:
                "[google.rpc.ErrorInfo] with the code's reason; non-string values become JSON text",
        },
        ChoiceOption {
            value: "always",
            meaning: "as errorinfo, and an ErrorInfo with the code's reason where v0.3 had no \
                      `data` too (as a2a-sdk 1.3.0 writes every error)",
        },
        ChoiceOption {
            value: "keep",
            meaning: "leave `data` as it was (not the v1.0 shape)",
        },
        ChoiceOption {
            value: "drop",
            meaning: "remove `data`",
        },
    ],
    accepts: Accepts::Options,
};

pub static HISTORY_ZERO: ChoiceDef = ChoiceDef {
    key: "history-length-zero",
    question: "What did `historyLength: 0` mean?",
    default: "unlimited",
    options: &[
        ChoiceOption {
            value: "unlimited",
            meaning: "no limit, as v0.3 SDKs read it: drop the field (a2a-sdk 1.3.0)",
        },
        ChoiceOption {
            value: "keep",
            meaning: "keep 0, which v1.0 reads as \"no history\" (a2a-python main)",
        },
    ],
    accepts: Accepts::Options,
};

pub static PUSH_CONFIG_ID: ChoiceDef = ChoiceDef {
    key: "push-config-id",
    question: "Which config id, when a v0.3 get/delete request named none?",
    default: "leave-empty",
    options: &[ChoiceOption {
        value: "leave-empty",
        meaning: "leave `id` absent and report it (a2a-python leaves it empty)",
    }],
    accepts: Accepts::Text,
};

pub static PUSH_AUTH_SCHEME: ChoiceDef = ChoiceDef {
    key: "push-auth-scheme",
    question: "Which push authentication scheme survives when several are listed?",
    default: "first",
    options: &[ChoiceOption {
        value: "first",
        meaning: "schemes[0], as a2a-go and a2a-python do; any other text names the scheme to keep",
    }],
    accepts: Accepts::Text,
};

pub static NAIVE_ZONE: ChoiceDef = ChoiceDef {
    key: "naive-timestamp-zone",
    question: "In which zone were timestamps without a zone written?",
    default: "Z",
    options: &[ChoiceOption {
        value: "Z",
        meaning: "UTC; any +HH:MM / -HH:MM offset reads them in that zone",
    }],
    accepts: Accepts::Offset,
};

pub static FILE_DATA: ChoiceDef = ChoiceDef {
    key: "file-data",
    question: "Is a (non-v0.3) `file.data` member base64 bytes?",
    default: "keep",
    options: &[
        ChoiceOption {
            value: "keep",
            meaning: "no: leave the part as it was and report it",
        },
        ChoiceOption {
            value: "bytes",
            meaning: "yes: read it as `file.bytes`",
        },
    ],
    accepts: Accepts::Options,
};

pub static INVALID_BASE64: ChoiceDef = ChoiceDef {
    key: "invalid-base64",
    question: "What becomes of file bytes that are not valid base64?",
    default: "keep",
    options: &[
        ChoiceOption {
            value: "keep",
            meaning: "keep the text and report it",
        },
        ChoiceOption {
            value: "repair",
            meaning: "drop the characters outside the alphabet, as Python protobuf does silently",
        },
    ],
    accepts: Accepts::Options,
};

pub static INTERFACE_VERSION: ChoiceDef = ChoiceDef {
    key: "interface-protocol-version",
    question: "Which protocol version do the card's endpoints speak now?",
    default: "0.3",
    options: &[
        ChoiceOption {
            value: "0.3",
            meaning: "still v0.3 (a2a-go writes \"0.3\")",
        },
        ChoiceOption {
            value: "1.0",
            meaning: "upgraded to v1.0",
        },
        ChoiceOption {
            value: "card",
            meaning: "copy the card's value verbatim, e.g. \"0.3.0\" (a2a-python's card resolver)",
        },
    ],
    accepts: Accepts::Options,
};

pub static OAUTH_FLOW: ChoiceDef = ChoiceDef {
    key: "oauth-flow",
    question: "What becomes of a scheme with several OAuth flows?",
    default: "split",
    options: &[
        ChoiceOption {
            value: "split",
            meaning: "one scheme per flow (`name-<flow>`), requirements duplicated",
        },
        ChoiceOption {
            value: "authorizationCode",
            meaning: "keep only this flow",
        },
        ChoiceOption {
            value: "clientCredentials",
            meaning: "keep only this flow",
        },
        ChoiceOption {
            value: "implicit",
            meaning: "keep only this flow (deprecated in v1.0)",
        },
        ChoiceOption {
            value: "password",
            meaning: "keep only this flow (deprecated in v1.0)",
        },
        ChoiceOption {
            value: "deviceCode",
            meaning: "keep only this flow",
        },
    ],
    accepts: Accepts::Options,
};

pub static SIGNATURES: ChoiceDef = ChoiceDef {
    key: "signatures",
    question: "What becomes of the card's signatures, which no longer match?",
    default: "drop",
    options: &[
        ChoiceOption {
            value: "drop",
            meaning: "remove them; re-sign the migrated card",
        },
        ChoiceOption {
            value: "keep",
            meaning: "keep them, knowing they no longer verify",
        },
    ],
    accepts: Accepts::Options,
};

pub static FINAL_RULE: ChoiceDef = ChoiceDef {
    key: "final",
    question: "When is a reconstructed v0.3 `final` true?",
    default: "terminal",
    options: &[
        ChoiceOption {
            value: "terminal",
            meaning: "completed, canceled, failed or rejected (a2a-python)",
        },
        ChoiceOption {
            value: "terminal-or-interrupted",
            meaning: "also input-required and auth-required (a2a-go)",
        },
    ],
    accepts: Accepts::Options,
};

pub static V10_ONLY_CARD: ChoiceDef = ChoiceDef {
    key: "v10-only-card",
    question: "A card whose interfaces all speak v1.0 or later: refuse it, or write a v0.3 card anyway?",
    default: "refuse",
    options: &[
        ChoiceOption {
            value: "refuse",
            meaning: "exit 1: a v0.3 client would find no endpoint it can talk to (the SDK raises VersionNotSupportedError)",
        },
        ChoiceOption {
            value: "convert",
            meaning: "write the v0.3 card, claiming v0.3 at URLs that speak only v1.0 (a warning)",
        },
    ],
    accepts: Accepts::Options,
};

pub static CARD_VERSION: ChoiceDef = ChoiceDef {
    key: "card-protocol-version",
    question: "Which `protocolVersion` does the v0.3 card declare?",
    default: "0.3.0",
    options: &[ChoiceOption {
        value: "0.3.0",
        meaning: "the v0.3 default; any other text is written as given",
    }],
    accepts: Accepts::Text,
};
