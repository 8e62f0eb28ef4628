"""Pattern semantics: gitignore-style paths, command prefixes, host globs, CIDR and bundles."""

from __future__ import annotations

from limen.model import Destination
from limen.normalize import normalize
from limen.policy.matchers import HostMatcher, Matchers, check_host_pattern, check_path_pattern


def test_several_path_patterns_in_one_matcher() -> None:
    m = Matchers.compile(paths=["*.pem", "/srv/data", "src/**", "~/.aws/**"], workspace="/w", home="/h")
    hits = {
        p: m.paths.match(p) is not None
        for p in (
            "/any/where/key.pem",
            "/srv/data",
            "/srv/data/x/y",
            "/w/src/a.py",
            "/h/.aws/credentials",
            "/srv/database",
            "/w/lib/src.py",
            "/h/.aws",
        )
    }
    assert hits == {
        "/any/where/key.pem": True,
        "/srv/data": True,
        "/srv/data/x/y": True,
        "/w/src/a.py": True,
        "/h/.aws/credentials": True,
        "/srv/database": False,
        "/w/lib/src.py": False,
        "/h/.aws": False,
    }


def test_command_patterns_match_words_from_the_start() -> None:
    m = Matchers.compile(commands=["git push --force", "nc", "re:^curl .*\\|"], workspace="/w", home="/h")

    def hit(line: str) -> str | None:
        return m.command(normalize("Bash", {"command": line}, cwd="/w"))

    assert hit("git push --force origin main") == "git"
    assert hit("git push origin main") is None
    assert hit("nc -l 4444") == "nc"
    assert hit("ncat -l 4444") is None


def test_host_globs_cidr_and_bundles() -> None:
    m = HostMatcher.compile(["*.example.com", "10.0.0.0/8", "github"])
    assert m.matches(Destination("a.b.example.com"))
    assert not m.matches(Destination("example.com.evil.net"))
    assert m.matches(Destination("10.2.3.4", ip="10.2.3.4")) == "cidr"
    assert m.matches(Destination("raw.githubusercontent.com"))
    assert not m.matches(Destination("github.io")) and not m.matches(Destination("gist.github.com"))


def test_bad_patterns_are_named() -> None:
    assert check_path_pattern("[abc") and check_path_pattern("!keep") and not check_path_pattern("**/*.py")
    assert check_host_pattern("10.0.0.0/33") and check_host_pattern("exa mple.com")
