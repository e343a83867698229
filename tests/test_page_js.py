"""The page's JS beside its HTML: the element ids and tags that state.js types `$` with
(its PageTags, read by tools/lint-js.sh's type check) are index.html's, one for one."""

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "src" / "victorus" / "page" / "web"


def test_the_typed_ids_are_the_pages():
    html = (WEB / "index.html").read_text()
    in_html = {i: tag for tag, i in re.findall(r'<([a-z][a-z0-9]*)\b[^>]*?\bid="([^"]+)"', html)}
    state = (WEB / "state.js").read_text()
    typedef = state[state.index("@typedef {{"):state.index("}} PageTags")]
    typed = dict(re.findall(r'"([^"]+)": "([a-z0-9]+)"', typedef))
    assert len(in_html) > 100 and typed == in_html
    used = set(re.findall(r'\$\("([^"]+)"\)', "".join(p.read_text() for p in WEB.glob("*.js"))))
    assert used and used <= set(typed)
