//! A global flag before a subcommand's name (`handoff-inspector --color never check PATH`,
//! as `cargo --color never build` takes it). The inspector's own flags make clap read any
//! word after a flag as the inspector's PATH (`args_conflicts_with_subcommands`, so that
//! `--now T check` is not silently dropped), so the global flags that lead the arguments are
//! moved after the subcommand's name before clap parses them.

use std::ffi::{OsStr, OsString};

/// The flags every subcommand takes (`global = true` in `cli::Cli`) and whether each takes a
/// separate value.
const GLOBAL_FLAGS: [(&str, bool); 1] = [("--color", true)];

/// `args` (the program name first) with a leading run of global flags moved after the
/// subcommand name that follows them; `args` unchanged when no subcommand name follows.
/// `subcommands` names them, asked only when a global flag leads.
pub(crate) fn subcommand_first(
    args: Vec<OsString>,
    subcommands: impl FnOnce() -> Vec<String>,
) -> Vec<OsString> {
    let mut at = 1;
    while let Some(arg) = args.get(at) {
        match global_flag_width(arg) {
            Some(width) => at += width,
            None => break,
        }
    }
    if at == 1 || at >= args.len() {
        return args;
    }
    let names_subcommand = args[at]
        .to_str()
        .is_some_and(|word| subcommands().iter().any(|name| name == word));
    if !names_subcommand {
        return args;
    }
    let mut reordered = Vec::with_capacity(args.len());
    reordered.push(args[0].clone());
    reordered.push(args[at].clone());
    reordered.extend(args[1..at].iter().cloned());
    reordered.extend(args[at + 1..].iter().cloned());
    reordered
}

/// How many arguments a global flag at this place spans (`--color never`: 2,
/// `--color=never`: 1); `None` when it is no global flag.
fn global_flag_width(arg: &OsStr) -> Option<usize> {
    let arg = arg.to_str()?;
    GLOBAL_FLAGS.iter().find_map(|(flag, takes_value)| {
        if arg == *flag {
            Some(if *takes_value { 2 } else { 1 })
        } else {
            arg.strip_prefix(flag)
                .filter(|rest| rest.starts_with('='))
                .map(|_| 1)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moved(args: &[&str]) -> Vec<String> {
        let names = || vec!["check".to_owned(), "ls".to_owned()];
        subcommand_first(args.iter().map(OsString::from).collect(), names)
            .into_iter()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn leading_global_flags_go_after_the_subcommand() {
        assert_eq!(
            moved(&["hi", "--color", "never", "check", "x"]),
            ["hi", "check", "--color", "never", "x"]
        );
        assert_eq!(
            moved(&["hi", "--color=always", "ls", "x"]),
            ["hi", "ls", "--color=always", "x"]
        );
    }

    #[test]
    fn anything_else_is_left_for_clap() {
        for args in [
            &["hi", "--color", "never", "fixtures"][..],
            &["hi", "--now", "T", "check", "x"],
            &["hi", "check", "--color", "never", "x"],
            &["hi", "--color", "never"],
            &["hi", "--colorful", "check"],
        ] {
            assert_eq!(moved(args), args, "{args:?}");
        }
    }
}
