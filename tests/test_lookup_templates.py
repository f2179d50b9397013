"""The "May I play now?" and coverage pages are rendered through the same template loader as the rest of
the site: a folder given to ``site --templates`` replaces when.html and coverage.html by name, like
base.html, and what they are given is still escaped."""
from __future__ import annotations

import shutil

from conftest import MINI
from tcgtiming.present import site

WHEN = ('<p id="my-when">{{ title }}|{{ rows | length }}|{% for r in rows %}{{ r.label }};{% endfor %}</p>'
        '{{ "<b>" }}')
COVERAGE = '<p id="my-coverage">{{ title }}|{{ rows | length }}|{{ summary }}</p>'


def test_a_template_folder_replaces_the_when_and_coverage_bodies(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(MINI.parent, rules / "mini")
    (rules / "mini" / "scenarios" / "lanes.yaml").unlink()  # not scripted for strict runs
    themes = tmp_path / "theme"
    themes.mkdir()
    (themes / "when.html").write_text(WHEN, encoding="utf-8")
    (themes / "coverage.html").write_text(COVERAGE, encoding="utf-8")
    out = site.build(str(rules), tmp_path / "out", cache=tmp_path / "cache", templates=themes).out / "site"
    for lang in ("ja", "en"):
        when = (out / lang / "mini" / "when" / "index.html").read_text(encoding="utf-8")
        cov = (out / lang / "mini" / "coverage" / "index.html").read_text(encoding="utf-8")
        # the user's templates, inside the site's frame (base.html), with the page's own values
        assert '<p id="my-when">' in when and '<main id="content"' in when and 'id="tcg-when"' not in when
        assert '<p id="my-coverage">' in cov and '<main id="content"' in cov and 'class="tcg-cov"' not in cov
        n_when = int(when.split('<p id="my-when">', 1)[1].split("|")[1])
        n_cov = int(cov.split('<p id="my-coverage">', 1)[1].split("|")[1])
        assert n_when > 0 and n_cov > 0
        assert "&lt;b&gt;" in when and "<b>" not in when.split('<p id="my-when">', 1)[1].split("</p>", 1)[1][:20]
    # without the folder: the packaged templates
    plain = site.build(str(rules), tmp_path / "out2", cache=tmp_path / "cache").out / "site"
    when = (plain / "en" / "mini" / "when" / "index.html").read_text(encoding="utf-8")
    cov = (plain / "en" / "mini" / "coverage" / "index.html").read_text(encoding="utf-8")
    assert 'id="tcg-when"' in when and '<p id="my-when">' not in when
    assert 'class="tcg-cov"' in cov and '<p id="my-coverage">' not in cov
