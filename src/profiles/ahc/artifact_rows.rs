//! The artifacts field: each entry's path resolved inside the artifact root, and its kind.

use super::artifacts::{ArtifactRoot, ArtifactStatus};
use super::Context;
use crate::json::JsonPath;
use crate::profiles::options::ProfileOptions;
use crate::profiles::py;
use crate::profiles::rows::clip;
use crate::rules::Verdict;
use serde_json::{Map, Value};
use std::path::Path;

pub(super) fn check_artifacts(
    cx: &mut Context,
    map: &Map<String, Value>,
    source_path: Option<&Path>,
    options: &ProfileOptions,
) {
    let path = JsonPath::root().key("artifacts");
    let items = match map.get("artifacts").and_then(Value::as_array) {
        Some(items) if !items.is_empty() => items,
        _ => {
            cx.rows
                .fail("AHC-05", cx.ev(&path), "artifacts must be non-empty array");
            for rule in ["AHC-06", "AHC-07", "AHC-08", "AHC-09"] {
                cx.rows.mark(
                    rule,
                    Verdict::NotApplicable,
                    None,
                    "no artifact items to check",
                );
            }
            return;
        }
    };
    cx.rows.pass("AHC-05", cx.ev(&path));
    let resolver = artifact_root(source_path, options);
    for (index, item) in items.iter().enumerate() {
        let item_path = path.index(index);
        let Some(object) = item.as_object() else {
            cx.rows.fail(
                "AHC-06",
                cx.ev(&item_path),
                format!("artifacts[{index}] must be object"),
            );
            continue;
        };
        cx.rows.pass("AHC-06", cx.ev(&item_path));
        check_artifact_path(cx, index, object, &item_path, &resolver);
        check_artifact_kind(cx, index, object, &item_path);
    }
    for rule in ["AHC-07", "AHC-08", "AHC-09"] {
        if cx.rows.verdict(rule).is_none() {
            cx.rows.mark(
                rule,
                Verdict::NotApplicable,
                None,
                "no object artifact items",
            );
        }
    }
}

fn artifact_root(
    source_path: Option<&Path>,
    options: &ProfileOptions,
) -> Result<ArtifactRoot, String> {
    let dir = match (&options.artifact_root, source_path) {
        (Some(root), _) => root.clone(),
        (None, Some(packet)) => match packet.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        },
        (None, None) => {
            return Err("no artifact root: give --artifact-root (the packet has no path)".into())
        }
    };
    ArtifactRoot::open(&dir).map_err(|e| format!("artifact root unusable: {e}"))
}

fn check_artifact_path(
    cx: &mut Context,
    index: usize,
    object: &Map<String, Value>,
    item_path: &JsonPath,
    resolver: &Result<ArtifactRoot, String>,
) {
    let path = item_path.key("path");
    let given = py::str_or_empty_stripped(object.get("path"));
    if given.is_empty() {
        cx.rows.fail(
            "AHC-07",
            cx.ev(&path),
            format!("artifacts[{index}].path missing"),
        );
        return;
    }
    cx.rows.pass("AHC-07", cx.ev(&path));
    let root = match resolver {
        Ok(root) => root,
        Err(why) => {
            cx.rows.mark(
                "AHC-08",
                Verdict::NotChecked,
                Some(cx.ev(&path)),
                why.clone(),
            );
            return;
        }
    };
    let shown = clip(&given);
    match root.resolve(&given) {
        ArtifactStatus::Exists => cx.rows.pass("AHC-08", cx.ev(&path)),
        ArtifactStatus::NotFound => cx.rows.fail(
            "AHC-08",
            cx.ev(&path),
            format!("artifacts[{index}].path not found: {shown}"),
        ),
        ArtifactStatus::Outside(why) => {
            cx.rows.fail(
                "AHC-08",
                cx.ev(&path),
                format!(
                    "artifacts[{index}].path outside --artifact-root: {shown} ({why}; not looked at)"
                ),
            );
            cx.quirk(
                "ahc-artifact-root",
                path,
                format!("{shown}: {why}; upstream would test it against its working directory"),
            );
        }
        ArtifactStatus::Undecidable(why) => cx.rows.fail(
            "AHC-08",
            cx.ev(&path),
            format!("artifacts[{index}].path cannot be checked: {shown} ({why})"),
        ),
        ArtifactStatus::ExistsUnreadable(why) => cx.rows.warn(
            "AHC-08",
            cx.ev(&path),
            format!("artifacts[{index}].path exists but cannot be read: {shown} ({why})"),
        ),
    }
}

fn check_artifact_kind(
    cx: &mut Context,
    index: usize,
    object: &Map<String, Value>,
    item_path: &JsonPath,
) {
    let path = item_path.key("kind");
    let kind = py::str_or_empty_stripped(object.get("kind"));
    match (cx.v127(), kind.is_empty()) {
        (true, true) => cx.rows.fail(
            "AHC-09",
            cx.ev(&path),
            format!("artifacts[{index}].kind missing"),
        ),
        (true, false) => cx.rows.pass("AHC-09", cx.ev(&path)),
        (false, missing) => {
            cx.rows.mark(
                "AHC-09",
                Verdict::NotApplicable,
                None,
                "v1.0 does not check artifact kind (use --profile-version 1.2.7)",
            );
            if missing {
                cx.quirk(
                    "ahc-v10-lenient-applied-kind",
                    path,
                    format!("artifacts[{index}].kind is missing or blank; v1.0 passes it, v1.2.7 would not"),
                );
            }
        }
    }
}
