"""The reason-code catalogue and the enum must never disagree, and the page is what the generator writes."""

import re
from pathlib import Path

from limen.model import ReasonCode

ROOT = Path(__file__).resolve().parents[1]
# The seed catalogue's codes, copied from the seed document (a user's clone has none beside it).
SEED_CODES = Path(__file__).parent / "fixtures" / "seed_reason_codes.txt"


def documented_codes() -> list[str]:
    text = (ROOT / "docs" / "reason-codes.md").read_text()
    return re.findall(r"^\| `([a-z_]+)` \|", text, flags=re.MULTILINE)


def test_catalogue_matches_enum_exactly() -> None:
    documented = documented_codes()
    assert len(documented) == len(set(documented)), "a code is documented twice"
    assert set(documented) == {code.value for code in ReasonCode}


def test_every_seed_code_exists_with_its_exact_name() -> None:
    lines = SEED_CODES.read_text().splitlines()
    seed_codes = [line for line in lines if line and not line.startswith("#")]
    assert len(seed_codes) == 57
    missing = set(seed_codes) - {code.value for code in ReasonCode}
    assert not missing


def test_the_catalogue_page_is_generated_from_the_rules_and_their_examples() -> None:
    from limen.catalogue import render

    page = render(ROOT / "tests" / "rules" / "examples")
    committed = (ROOT / "docs" / "reason-codes.md").read_text()
    assert committed == page, "docs/reason-codes.md is stale: run `python -m limen.catalogue`"


def test_every_built_in_rule_documents_what_it_flags_and_what_it_leaves_quiet() -> None:
    import inspect

    from limen import rules

    for rule in rules.objective_rules():
        if not rule.plugin:
            doc = inspect.getdoc(rule.check) or ""
            assert len(doc) > 80, f"{rule.name} has no docstring worth reading"
