#!/usr/bin/env python3
"""Turn a terminal capture (tmux capture-pane -e -p -N) into a standalone HTML page.

Python 3 standard library only. Reads the capture on stdin (or FILE), writes the page to stdout (or -o).

What it honours, as a terminal would:
  - SGR colours: the 16 ANSI colours (30-37, 90-97, 40-47, 100-107), 256 colours (38;5;n / 48;5;n)
    and truecolor (38;2;r;g;b / 48;2;r;g;b), also in the colon forms (38:5:n, 38:2::r:g:b);
    39/49 back to the default colours;
  - bold (1), dim (2, the text colour halfway to its background), italic (3), underline (4, 21,
    4:1-4:5), reverse (7, fg and bg swapped after the defaults are resolved), hidden (8), strike (9)
    and their resets (22-29); 0 or an empty SGR resets everything;
  - the attributes carry across lines: tmux writes only the changes from one cell to the next, so
    a line may start in the colour the previous one ended with;
  - every other escape sequence (CSI, OSC such as hyperlinks, ESC ( B …) is dropped; tabs expand
    to the next multiple of 8; wide characters (East Asian Wide/Fullwidth) take two cells;
    combining marks join the previous cell.

The page is a fixed grid: every row is --rows high, every line padded to --cols cells, each run of
ASCII text and each other character placed at its cell's exact x position, so box drawing stays
aligned even where a glyph comes from a fallback font. --print-size prints the page's CSS size as
WIDTHxHEIGHT (for chromium --window-size).

Example (the doctest is run by the JUnit test Ansi2HtmlTest):

>>> g = parse("\\x1b[1;31mERR\\x1b[0m ok\\n\\x1b[7mx", cols=6)
>>> [(c.ch, c.style.bold, c.style.fg) for c in g[0][:4]]
[('E', True, ('i', 1)), ('R', True, ('i', 1)), ('R', True, ('i', 1)), (' ', False, None)]
>>> resolve(g[1][0].style)
('#161616', '#d4d4d4', False, False, False, False)
"""

import argparse
import html
import sys
import unicodedata
from typing import NamedTuple, Optional, Tuple

# The 16 ANSI colours: Windows Terminal's "Campbell" scheme, legible on a dark background.
PALETTE16 = [
    "#0c0c0c", "#c50f1f", "#13a10e", "#c19c00", "#0037da", "#881798", "#3a96dd", "#cccccc",
    "#767676", "#e74856", "#16c60c", "#f9f1a5", "#3b78ff", "#b4009e", "#61d6d6", "#f2f2f2",
]
DEFAULT_FG = "#d4d4d4"
DEFAULT_BG = "#161616"
FONT = '"DejaVu Sans Mono", "Liberation Mono", "Menlo", "Consolas", monospace'
# DejaVu Sans Mono advances 1233/2048 em per character.
CELL_EM = 1233 / 2048

Colour = Optional[Tuple]  # None = default, ('i', n) = palette index 0-255, ('rgb', r, g, b)


class Style(NamedTuple):
    fg: Colour = None
    bg: Colour = None
    bold: bool = False
    dim: bool = False
    italic: bool = False
    underline: bool = False
    reverse: bool = False
    hidden: bool = False
    strike: bool = False


class Cell(NamedTuple):
    ch: str
    style: Style
    width: int = 1  # 2 for a wide character; 0 for the cell a wide character covers


PLAIN = Style()


def colour_hex(c: Colour, default: str) -> str:
    """A colour as #rrggbb.

    >>> colour_hex(('i', 196), '#000'), colour_hex(('i', 244), '#000'), colour_hex(('rgb', 1, 2, 255), '#000')
    ('#ff0000', '#808080', '#0102ff')
    """
    if c is None:
        return default
    if c[0] == "rgb":
        return "#%02x%02x%02x" % tuple(max(0, min(255, v)) for v in c[1:])
    n = c[1]
    if n < 16:
        return PALETTE16[n]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (levels[n // 36], levels[(n // 6) % 6], levels[n % 6])
    v = 8 + 10 * (n - 232)
    return "#%02x%02x%02x" % (v, v, v)


def blend(a: str, b: str, t: float) -> str:
    """a moved t of the way to b."""
    pa = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    pb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#%02x%02x%02x" % tuple(round(x + (y - x) * t) for x, y in zip(pa, pb))


def resolve(s: Style):
    """(fg, bg, bold, italic, underline, strike) as the cell is painted.

    >>> resolve(Style(fg=('i', 2), dim=True))[0]
    '#145c12'
    >>> resolve(Style(fg=('i', 1), bg=('i', 4), reverse=True))[:2]
    ('#0037da', '#c50f1f')
    """
    fg = colour_hex(s.fg, DEFAULT_FG)
    bg = colour_hex(s.bg, DEFAULT_BG)
    if s.reverse:
        fg, bg = bg, fg
    if s.dim:
        fg = blend(fg, bg, 0.5)
    if s.hidden:
        fg = bg
    return fg, bg, s.bold, s.italic, s.underline, s.strike


def _extended(params, i):
    """Reads 38/48/58's colour starting at params[i] (the 38); returns (colour, next index)."""
    head = params[i]
    if len(head) > 1:  # colon form: 38:5:n or 38:2:[cs]:r:g:b
        sub = [int(x) if x.isdigit() else None for x in head[1:]]
        if sub and sub[0] == 5 and len(sub) >= 2 and sub[1] is not None:
            return ("i", sub[1] & 255), i + 1
        if sub and sub[0] == 2:
            rgb = [x or 0 for x in sub[1:]]
            rgb = rgb[-3:] if len(rgb) >= 3 else rgb + [0] * (3 - len(rgb))
            return ("rgb", *rgb), i + 1
        return None, i + 1
    rest = [p[0] for p in params[i + 1:]]
    if rest[:1] == ["5"] and len(rest) >= 2 and rest[1].isdigit():
        return ("i", int(rest[1]) & 255), i + 3
    if rest[:1] == ["2"] and len(rest) >= 4:
        return ("rgb", *(int(x) if x.isdigit() else 0 for x in rest[1:4])), i + 5
    return None, len(params)


def apply_sgr(s: Style, body: str) -> Style:
    """The style after one SGR sequence's parameters (the text between ESC[ and m).

    >>> apply_sgr(PLAIN, '1;38;5;42;48;2;10;20;30')
    Style(fg=('i', 42), bg=('rgb', 10, 20, 30), bold=True, dim=False, italic=False, underline=False, reverse=False, hidden=False, strike=False)
    >>> apply_sgr(apply_sgr(PLAIN, '1;2;7;95'), '22;27;39').fg is None
    True
    """
    params = [p.split(":") for p in body.split(";")] if body else [["0"]]
    i = 0
    while i < len(params):
        head = params[i]
        code = int(head[0]) if head[0].isdigit() else 0
        if code in (38, 48, 58):
            colour, i = _extended(params, i)
            if code == 38:
                s = s._replace(fg=colour)
            elif code == 48:
                s = s._replace(bg=colour)
            continue
        i += 1
        if code == 0:
            s = PLAIN
        elif code == 1:
            s = s._replace(bold=True)
        elif code == 2:
            s = s._replace(dim=True)
        elif code == 3:
            s = s._replace(italic=True)
        elif code == 4:
            s = s._replace(underline=not (len(head) > 1 and head[1] == "0"))
        elif code == 7:
            s = s._replace(reverse=True)
        elif code == 8:
            s = s._replace(hidden=True)
        elif code == 9:
            s = s._replace(strike=True)
        elif code == 21:
            s = s._replace(underline=True)
        elif code == 22:
            s = s._replace(bold=False, dim=False)
        elif code == 23:
            s = s._replace(italic=False)
        elif code == 24:
            s = s._replace(underline=False)
        elif code == 27:
            s = s._replace(reverse=False)
        elif code == 28:
            s = s._replace(hidden=False)
        elif code == 29:
            s = s._replace(strike=False)
        elif 30 <= code <= 37:
            s = s._replace(fg=("i", code - 30))
        elif code == 39:
            s = s._replace(fg=None)
        elif 40 <= code <= 47:
            s = s._replace(bg=("i", code - 40))
        elif code == 49:
            s = s._replace(bg=None)
        elif 90 <= code <= 97:
            s = s._replace(fg=("i", code - 90 + 8))
        elif 100 <= code <= 107:
            s = s._replace(bg=("i", code - 100 + 8))
        # anything else (blink, fonts, overline, 59 …) changes nothing we draw
    return s


def char_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def parse(text: str, cols: int = 0):
    """The capture as rows of cells, each row padded with plain spaces to at least cols cells."""
    rows, row = [], []
    style = PLAIN
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\x1b":
            nxt = text[i + 1] if i + 1 < n else ""
            if nxt == "[":  # CSI: parameters, intermediates, one final byte
                j = i + 2
                while j < n and not ("\x40" <= text[j] <= "\x7e"):
                    j += 1
                if j < n and text[j] == "m":
                    style = apply_sgr(style, text[i + 2:j])
                i = j + 1
            elif nxt in ("]", "P", "_", "^", "X"):  # OSC/DCS/APC/PM/SOS up to BEL or ST
                j = i + 2
                while j < n and text[j] != "\x07" and not (text[j] == "\x1b" and text[j + 1:j + 2] == "\\"):
                    j += 1
                i = j + (1 if j < n and text[j] == "\x07" else 2)
            else:  # ESC, intermediates (such as the ( of a charset choice), one final byte
                j = i + 1
                while j < n and "\x20" <= text[j] <= "\x2f":
                    j += 1
                i = j + 1
            continue
        i += 1
        if ch == "\n":
            rows.append(row)
            row = []
        elif ch == "\t":
            for _ in range(8 - len(row) % 8):
                row.append(Cell(" ", style))
        elif ch < " " or ch == "\x7f":
            continue
        else:
            w = char_width(ch)
            if w == 0:  # a combining mark: part of the last character drawn
                base = next((k for k in range(len(row) - 1, -1, -1) if row[k].width), None)
                if base is not None:
                    row[base] = row[base]._replace(ch=row[base].ch + ch)
                continue
            row.append(Cell(ch, style, w))
            if w == 2:
                row.append(Cell("", style, 0))
    if row:
        rows.append(row)
    for r in rows:
        r.extend(Cell(" ", PLAIN) for _ in range(cols - len(r)))
    return rows


def page(rows, cols: int, nrows: int, font_px: float, line_px: float, pad_px: float, title: str):
    """The standalone HTML page and its CSS size (width, height)."""
    cw = font_px * CELL_EM
    width = max([cols] + [len(r) for r in rows])
    rows = rows + [[] for _ in range(nrows - len(rows))]
    page_w = round(width * cw + 2 * pad_px)
    page_h = round(len(rows) * line_px + 2 * pad_px)
    out = []
    for r in rows:
        spans, x = [], 0
        k = 0
        while k < len(r):
            cell = r[k]
            if cell.width == 0:  # covered by the wide character before it, which counted it
                k += 1
                continue
            paint = resolve(cell.style)
            if cell.ch.isascii():
                j = k
                while j < len(r) and r[j].width == 1 and r[j].ch.isascii() and resolve(r[j].style) == paint:
                    j += 1
                text, cells = "".join(c.ch for c in r[k:j]), j - k
            else:
                j = k + 1
                text, cells = cell.ch, cell.width
            spans.append(span(text, paint, x * cw, cells * cw))
            x += cells
            k = j
        out.append('<div class="r">' + "".join(spans) + "</div>")
    css = f"""
html,body{{margin:0;padding:0;background:{DEFAULT_BG};}}
#t{{position:relative;width:{page_w - 2 * pad_px:.3f}px;padding:{pad_px}px;background:{DEFAULT_BG};color:{DEFAULT_FG};
  font-family:{FONT};font-size:{font_px}px;line-height:{line_px}px;font-variant-ligatures:none;
  font-kerning:none;letter-spacing:0;-webkit-font-smoothing:antialiased;}}
.r{{position:relative;height:{line_px}px;white-space:pre;}}
.r span{{position:absolute;top:0;height:{line_px}px;overflow:visible;}}
.u{{text-decoration:underline;}} .s{{text-decoration:line-through;}} .u.s{{text-decoration:underline line-through;}}
"""
    doc = (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title><style>{css}</style></head>\n"
        f'<body><div id="t" data-cols="{width}" data-rows="{len(rows)}">\n' + "\n".join(out) + "\n</div></body></html>\n"
    )
    return doc, page_w, page_h


def span(text, paint, left, w):
    fg, bg, bold, italic, underline, strike = paint
    style = [f"left:{left:.3f}px", f"width:{w:.3f}px"]
    if fg != DEFAULT_FG:
        style.append(f"color:{fg}")
    if bg != DEFAULT_BG:
        style.append(f"background:{bg}")
    if bold:
        style.append("font-weight:bold")
    if italic:
        style.append("font-style:italic")
    if not text.isascii():
        style.append("text-align:center")
    cls = " ".join(c for c, on in (("u", underline), ("s", strike)) if on)
    attr = f' class="{cls}"' if cls else ""
    return f'<span{attr} style="{";".join(style)}">{html.escape(text, quote=False)}</span>'


def main(argv=None):
    ap = argparse.ArgumentParser(description="Terminal capture (ANSI SGR) to a standalone HTML page.")
    ap.add_argument("file", nargs="?", help="the capture; stdin when absent")
    ap.add_argument("-o", "--output", help="the HTML file; stdout when absent")
    ap.add_argument("--cols", type=int, default=0, help="pad every line to this many cells")
    ap.add_argument("--rows", type=int, default=0, help="pad the page to this many rows")
    ap.add_argument("--font-px", type=float, default=16, help="font size in CSS px (default 16)")
    ap.add_argument("--line-px", type=float, default=19, help="row height in CSS px (default 19)")
    ap.add_argument("--pad-px", type=float, default=14, help="margin around the grid in CSS px (default 14)")
    ap.add_argument("--title", default="terminal", help="the page title")
    ap.add_argument("--print-size", action="store_true", help="print the page size WIDTHxHEIGHT on stdout (needs -o)")
    a = ap.parse_args(argv)
    if a.print_size and not a.output:
        ap.error("--print-size needs -o")
    if a.file:
        with open(a.file, encoding="utf-8", errors="replace") as f:
            text = f.read()
    else:
        text = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    rows = parse(text, a.cols)
    doc, w, h = page(rows, a.cols, a.rows, a.font_px, a.line_px, a.pad_px, a.title)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(doc)
    else:
        sys.stdout.write(doc)
    if a.print_size:
        print(f"{w}x{h}")


if __name__ == "__main__":
    main()
