//! The tabs and the detail pane's state: which tab, where the focus is, and each tab's own
//! cursor (what `y` copies, the selected digest, matrix cell or migration step).

enum_with_all! {
    /// The detail's tabs, in the tab bar's order (keys 1-8 select them by it).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Tab {
        Raw,
        Conversion,
        Handoff,
        Digests,
        Findings,
        Rules,
        Migrate,
        Formats,
    }
}

impl Tab {
    pub fn title(self) -> &'static str {
        match self {
            Tab::Raw => "Raw",
            Tab::Conversion => "Conversion",
            Tab::Handoff => "Handoff",
            Tab::Digests => "Digests",
            Tab::Findings => "Findings",
            Tab::Rules => "Rules",
            Tab::Migrate => "Migrate",
            Tab::Formats => "Formats",
        }
    }

    /// The label used when the full titles do not fit the tab bar.
    pub fn short_title(self) -> &'static str {
        match self {
            Tab::Raw => "Raw",
            Tab::Conversion => "Conv",
            Tab::Handoff => "Hand",
            Tab::Digests => "Dig",
            Tab::Findings => "Find",
            Tab::Rules => "Rules",
            Tab::Migrate => "Migr",
            Tab::Formats => "Fmt",
        }
    }

    pub fn index(self) -> usize {
        Tab::ALL.iter().position(|tab| *tab == self).unwrap_or(0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    List,
    Detail,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffLayout {
    Unified,
    SideBySide,
}

/// The Handoff tab: the selected field line (what `y` copies).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandoffState {
    pub cursor: usize,
}

impl HandoffState {
    /// How many field lines can be selected.
    pub const LINES: usize = 4;
}

/// The Digests tab: the selected digest line and how a payload diff is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DigestsState {
    pub cursor: usize,
    pub layout: DiffLayout,
}

impl DigestsState {
    /// How many digest lines can be selected.
    pub const LINES: usize = 3;
}

impl Default for DigestsState {
    fn default() -> Self {
        DigestsState {
            cursor: 0,
            layout: DiffLayout::Unified,
        }
    }
}

/// The Rules tab: the selected cell of the coverage matrix (row, mode column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RulesState {
    pub cursor: (usize, usize),
}

/// The Migrate tab: the selected step and the steps switched off (for the selected packet).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MigrateState {
    pub cursor: usize,
    pub off: Vec<&'static str>,
}

/// The detail pane's state: its scroll (shared by the tabs that scroll, reset on a tab
/// switch) and each tab's own.
#[derive(Clone, Debug, Default)]
pub struct TabStates {
    pub scroll: u16,
    pub handoff: HandoffState,
    pub digests: DigestsState,
    pub rules: RulesState,
    pub migrate: MigrateState,
}
