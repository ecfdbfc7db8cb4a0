//! Bundles named by path: a bundle file by its name, an event of one as `BUNDLE:SEQ`.

use std::path::{Path, PathBuf};

/// Whether a path names a bundle by its file name (`*.tar.gz`, `*.tgz`).
pub fn is_bundle_path(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.ends_with(".tar.gz") || name.ends_with(".tgz"))
}

/// `BUNDLE:SEQ` as named on a command line: the bundle file and the event's position, when
/// the path as given does not exist and the part before its last colon names a bundle.
pub fn bundle_event_ref(path: &Path) -> Option<(PathBuf, usize)> {
    if path.exists() {
        return None;
    }
    let text = path.to_str()?;
    let (bundle, seq) = text.rsplit_once(':')?;
    let seq = seq.parse::<usize>().ok()?;
    let bundle = PathBuf::from(bundle);
    is_bundle_path(&bundle).then_some((bundle, seq))
}
