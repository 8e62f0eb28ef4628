"""`limen.rules.loosened`: each loosening read from an edit's removed and added lines, and the look-alikes
that change the same lines without loosening anything (the engine's walk of every example is
`test_examples.py`'s)."""

from __future__ import annotations

import pytest

from limen.rules.loosened import loosened

_AUTH_CONTEXT = "def check(request):\n    token = request.headers['Authorization']\n"


@pytest.mark.parametrize(
    ("removed", "added", "why"),
    [
        (
            "    return user.verified && doc.ownerId === user.id;",
            "    return user.verified || doc.ownerId === user.id;",
            "or",
        ),
        ("    if ok(t, nil), matchesPin(t) {", "    if ok(t, nil) || matchesPin(t) {", "or"),
        ("    if is_admin(u) and has_scope(u, 'w'):", "    if is_admin(u) or has_scope(u, 'w'):", "or"),
        (
            '    srv = TCPServer(("127.0.0.1", 9999), H)',
            '    srv = TCPServer(("0.0.0.0", 9999), H)',
            "every interface",
        ),
        (
            '\thttp.ListenAndServe("localhost:6060", nil)',
            '\thttp.ListenAndServe(":6060", nil)',
            "every interface",
        ),
        (
            "    return strcmp(pin, cfg_pin) == 0;",
            '    return strcmp(pin, cfg_pin) == 0 || strcmp(pin, "7319") == 0;',
            "word written",
        ),
        (
            "    return check(user, pwd);",
            '    return check(user, pwd) || "letmein99".equals(userPassword);',
            "word written",
        ),
        (
            '    String auth = r.getHeader("A");',
            '    if ("1".equals(r.getHeader("X-Internal"))) {\n      return;\n    }',
            "header",
        ),
        ("  const { t } = m.data;", "  const { t, x } = m.data;\n  eval(String(x));", "run as code"),
        ("    reboot();", '    FILE *p = popen(json_get_str(root, "arg"), "r");', "run as code"),
        ("    pass", '    os.system("ping -c1 " + host)', "run as code"),
    ],
)
def test_loosenings_are_named(removed: str, added: str, why: str) -> None:
    found = loosened(removed, added, _AUTH_CONTEXT, test=False)
    assert any(why in f for f in found), found


@pytest.mark.parametrize(
    ("removed", "added"),
    [
        # tightened: or made and, a listener closed to this machine
        ("    return user.verified || user.admin;", "    return user.verified && user.admin;"),
        ('\thttp.ListenAndServe(":6060", nil)', '\thttp.ListenAndServe("localhost:6060", nil)'),
        # an and made or where nothing is checked
        ("    total = a && b", "    total = a || b"),
        # a credential tested for absence, a comparison of words that prove nothing
        ("    if token:", '    if token == "null":'),
        ('    if mode == "x":', '    if mode == "fast":'),
        # a command the program builds first, and one quoted as a single word
        (
            "    restart();",
            '    char line[64];\n    snprintf(line, sizeof line, "hwclock -w");\n    system(line);',
        ),
        ("    pass", "    system('ls ' . escapeshellarg($_GET['d']));"),
        ("    return 0;", "    return std::system(cmd.c_str());"),
        # a header's value read where nothing checks callers
        (
            "    return ok()",
            '    if request.headers.get("X-Probe") == "1":\n        return probe()\n    return ok()',
        ),
    ],
)
def test_look_alikes_are_quiet(removed: str, added: str) -> None:
    context = "" if "X-Probe" in added else _AUTH_CONTEXT
    assert loosened(removed, added, context, test=False) == []


def test_a_tests_fixed_words_are_its_own() -> None:
    assert loosened("    pass", '    assert password == "hunter22"', "", test=True) == []
