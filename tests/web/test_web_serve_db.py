"""`majiang serve --db` with a URL that cannot be used: a clear message and a non-zero exit, no
traceback (the brief: bad input gets a clear error)."""

import pytest
from click.testing import CliRunner

from majiang.cli import main


@pytest.mark.parametrize("url, code, says", [
    ("bogus://x", 2, "is not a database URL"),
    ("notaurl", 2, "is not a database URL"),
    ("sqlite:////nonexistent-dir-majiang/x.db", 1, "cannot open the database"),
])
def test_a_bad_database_url_is_a_clear_error(url, code, says):
    r = CliRunner().invoke(main, ["serve", "--db", url, "--port", "8799"])
    assert r.exit_code == code, r.output
    assert says in r.output and "Traceback" not in r.output
