//! A ratatui buffer as an SVG image: the exact cells the TUI draws, with their colours and
//! modifiers, on a fixed monospace grid. Used by `render` for screenshots and documentation.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use std::fmt::Write as _;

const CELL_WIDTH: f32 = 8.4;
const CELL_HEIGHT: f32 = 17.0;
/// Space around the grid, so glyphs in the outermost cells are never clipped.
const MARGIN: f32 = 10.0;
const BACKGROUND: &str = "#1d1f21";
const FOREGROUND: &str = "#d5d8d6";

fn hex(color: Color, default: &str) -> String {
    let named = match color {
        Color::Reset => return default.to_owned(),
        Color::Black => "#1d1f21",
        Color::Red => "#cc6666",
        Color::Green => "#b5bd68",
        Color::Yellow => "#f0c674",
        Color::Blue => "#81a2be",
        Color::Magenta => "#b294bb",
        Color::Cyan => "#8abeb7",
        Color::Gray => "#c5c8c6",
        Color::DarkGray => "#7c7f7c",
        Color::LightRed => "#ff8787",
        Color::LightGreen => "#d7ffaf",
        Color::LightYellow => "#ffffaf",
        Color::LightBlue => "#afd7ff",
        Color::LightMagenta => "#ffafff",
        Color::LightCyan => "#afffff",
        Color::White => "#ffffff",
        Color::Rgb(r, g, b) => return format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(index) => return indexed(index),
    };
    named.to_owned()
}

/// The xterm 256-colour palette.
fn indexed(index: u8) -> String {
    match index {
        0..=15 => {
            let basic = [
                Color::Black,
                Color::Red,
                Color::Green,
                Color::Yellow,
                Color::Blue,
                Color::Magenta,
                Color::Cyan,
                Color::Gray,
                Color::DarkGray,
                Color::LightRed,
                Color::LightGreen,
                Color::LightYellow,
                Color::LightBlue,
                Color::LightMagenta,
                Color::LightCyan,
                Color::White,
            ];
            hex(basic[usize::from(index)], FOREGROUND)
        }
        16..=231 => {
            let level = |value: u8| if value == 0 { 0 } else { 55 + value * 40 };
            let cube = index - 16;
            format!(
                "#{:02x}{:02x}{:02x}",
                level(cube / 36),
                level(cube / 6 % 6),
                level(cube % 6)
            )
        }
        _ => {
            let gray = 8 + (index - 232) * 10;
            format!("#{gray:02x}{gray:02x}{gray:02x}")
        }
    }
}

fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 => out.push(' '),
            c => out.push(c),
        }
    }
}

/// The style a cell is drawn with: (foreground, background, bold, dim, underlined).
fn cell_style(
    fg: Color,
    bg: Color,
    modifier: Modifier,
) -> (String, Option<String>, bool, bool, bool) {
    let (mut foreground, mut background) = (
        hex(fg, FOREGROUND),
        (bg != Color::Reset).then(|| hex(bg, BACKGROUND)),
    );
    if modifier.contains(Modifier::REVERSED) {
        let swapped_background = foreground.clone();
        foreground = background.unwrap_or_else(|| BACKGROUND.to_owned());
        background = Some(swapped_background);
    }
    (
        foreground,
        background,
        modifier.contains(Modifier::BOLD),
        modifier.contains(Modifier::DIM),
        modifier.contains(Modifier::UNDERLINED),
    )
}

pub fn buffer_to_svg(buffer: &Buffer) -> String {
    let area = buffer.area;
    let width = f32::from(area.width) * CELL_WIDTH + 2.0 * MARGIN;
    let height = f32::from(area.height) * CELL_HEIGHT + 2.0 * MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14">"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="100%" height="100%" rx="6" fill="{BACKGROUND}"/>"#
    );
    let _ = writeln!(out, r#"<g transform="translate({MARGIN} {MARGIN})">"#);
    for y in 0..area.height {
        let mut x = 0;
        while x < area.width {
            let cell = &buffer[(area.x + x, area.y + y)];
            let style = cell_style(cell.fg, cell.bg, cell.modifier);
            // A run: consecutive cells with the same style.
            let start = x;
            let mut text = String::new();
            while x < area.width {
                let next = &buffer[(area.x + x, area.y + y)];
                if cell_style(next.fg, next.bg, next.modifier) != style {
                    break;
                }
                text.push_str(next.symbol());
                x += 1;
            }
            let cells = f32::from(x - start);
            let left = f32::from(start) * CELL_WIDTH;
            let top = f32::from(y) * CELL_HEIGHT;
            let (foreground, background, bold, dim, underlined) = &style;
            if let Some(background) = background {
                let _ = writeln!(
                    out,
                    r#"<rect x="{left:.1}" y="{top:.1}" width="{:.1}" height="{CELL_HEIGHT:.1}" fill="{background}"/>"#,
                    cells * CELL_WIDTH
                );
            }
            if text.trim().is_empty() {
                continue;
            }
            let _ = write!(
                out,
                r#"<text x="{left:.1}" y="{:.1}" fill="{foreground}" textLength="{:.1}" lengthAdjust="spacingAndGlyphs" xml:space="preserve""#,
                top + CELL_HEIGHT * 0.75,
                cells * CELL_WIDTH
            );
            if *bold {
                out.push_str(r#" font-weight="bold""#);
            }
            if *dim {
                out.push_str(r#" opacity="0.6""#);
            }
            if *underlined {
                out.push_str(r#" text-decoration="underline""#);
            }
            out.push('>');
            escape(&text, &mut out);
            out.push_str("</text>\n");
        }
    }
    out.push_str("</g>\n</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    #[test]
    fn runs_colours_and_escaping() {
        let mut buffer = Buffer::empty(Rect::new(0, 0, 10, 1));
        buffer.set_string(0, 0, "a<b", Style::new().fg(Color::Red));
        buffer.set_string(
            3,
            0,
            "ok",
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
        );
        let svg = buffer_to_svg(&buffer);
        assert!(
            svg.contains(r##"fill="#cc6666""##) && svg.contains(">a&lt;b</text>"),
            "{svg}"
        );
        assert!(
            svg.contains(r##"<rect x="25.2" y="0.0" width="16.8" height="17.0" fill="#d5d8d6"/>"##),
            "{svg}"
        );
        assert!(svg.contains(r#"font-weight="bold">ok</text>"#), "{svg}");
    }

    #[test]
    fn palette() {
        assert_eq!(indexed(196), "#ff0000");
        assert_eq!(indexed(232), "#080808");
        assert_eq!(hex(Color::Rgb(1, 2, 3), FOREGROUND), "#010203");
    }
}
