"""The reason-code catalogue and the enum must never disagree."""

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
