"""extract_sql.py: which blocks of a page it runs (tests/sql/run.sh runs these too)."""

import os
import subprocess
import sys
import tempfile
import unittest

EXTRACTOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "extract_sql.py")


def extract(page):
    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as file:
        file.write(page)
    try:
        return subprocess.run([sys.executable, EXTRACTOR, file.name], capture_output=True, text=True, check=False)
    finally:
        os.unlink(file.name)


class ExtractSQLTests(unittest.TestCase):
    def test_every_sql_block_in_order_and_nothing_else(self):
        result = extract("Text.\n\n```sql\nselect 1;\n```\n\n```sh\nrm -rf /\n```\n\n```sql\nselect 2;\n```\n")
        self.assertEqual(result.returncode, 0, result.stderr)
        statements = [line for line in result.stdout.splitlines() if line and not line.startswith("--")]
        self.assertEqual(statements, ["select 1;", "select 2;"])

    def test_a_marked_block_is_not_run(self):
        result = extract("```sql\nselect 1;\n```\n\n<!-- sql: not run -->\n\n```sql\ndrop table x;\n```\n")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("select 1;", result.stdout)
        self.assertNotIn("drop table", result.stdout)

    def test_a_page_without_a_block_to_run_fails(self):
        for page in ("No SQL here.\n", "<!-- sql: not run -->\n```sql\nselect 1;\n```\n"):
            with self.subTest(page=page):
                result = extract(page)
                self.assertNotEqual(result.returncode, 0)
                self.assertIn("no ```sql block to run", result.stderr)

    def test_an_unterminated_block_fails(self):
        result = extract("```sql\nselect 1;\n")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("never ends", result.stderr)


if __name__ == "__main__":
    unittest.main()
