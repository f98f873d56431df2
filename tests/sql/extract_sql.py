#!/usr/bin/env python3
"""Prints the SQL a Markdown page tells people to run: every ```sql fenced block, in order.

A block that is not meant to be run (an example of a mistake, a fragment) is marked by the
HTML comment `<!-- sql: not run -->` on the nearest non-blank line above its opening fence;
Markdown renderers do not show it. A page with no block to run is an error, so a renamed
fence cannot make the tests pass on nothing.

Usage: extract_sql.py PAGE.md > page.sql
"""

import sys

SKIP_MARKER = "<!-- sql: not run -->"


def sql_blocks(lines):
    """Yields (first line number, text) of each ```sql block not marked as not run."""
    previous = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.strip() == "```sql":
            start = index + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end == len(lines):
                raise SystemExit(f"line {index + 1}: a ```sql block that never ends")
            if previous.strip() != SKIP_MARKER:
                yield start + 1, "".join(lines[start:end])
            index = end + 1
            previous = ""
            continue
        if line.strip():
            previous = line
        index += 1


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: extract_sql.py PAGE.md")
    with open(sys.argv[1], encoding="utf-8") as page:
        lines = page.readlines()
    blocks = list(sql_blocks(lines))
    if not blocks:
        raise SystemExit(f"{sys.argv[1]}: no ```sql block to run")
    for line_number, text in blocks:
        sys.stdout.write(f"-- {sys.argv[1]}, line {line_number}\n{text}\n")


if __name__ == "__main__":
    main()
