"""Build the registries' name lists that `limen.facts.packages` reads (shipped in `src/limen/data/`).

    .venv/bin/python training/registry_names.py --npm npm.tsv --pypi pypi.tsv --nuget nuget.tsv

Inputs are the registries' own listings as tab-separated tables with a header line: npm's packages with their
downloads in a month (`name`, `version`, `downloads_a_month`, ...), and PyPI's packages with their rank among
its 15,000 most downloaded (`name`, `version`, `month`, `rank_among_15000_most_downloaded`, ...), and the
NuGet packages .NET projects commonly take (`name`, the newest version served or `not-served`, ...). Names and
counts are public facts of the registries; nothing else of them is kept.

Outputs, one lower-case name a line:
- `registry-npm-top.txt`, `registry-pypi-top.txt`: the most downloaded (`--npm-top`, `--pypi-top`), most
  first: the names a typosquat imitates (`facts.packages.imitated`), and for PyPI, whose listing gives no
  counts, the packages known to be in use;
- `registry-nuget-top.txt`: the NuGet packages listed as served, by name;
- `registry-npm-used.txt`: every npm package the listing shows in use, with its month's downloads after a
  tab, sorted by the name's bytes so that a lookup bisects the file without loading it. A package run by
  name that is missing there is one almost nobody uses; a near miss of a top name that is there is still a
  typosquat when its downloads are under a thousandth of the name it is near (squats collect the slips of
  fingers: `expresss` has thousands a month).
"""

from __future__ import annotations

import argparse
import os
import re

OUT = os.path.join(os.path.dirname(__file__), "..", "src", "limen", "data")


def _rows(path: str) -> list[list[str]]:
    with open(path, encoding="utf-8", errors="replace") as handle:
        next(handle)  # the header
        return [line.rstrip("\n").split("\t") for line in handle]


def _pep503(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _write(name: str, names: list[str]) -> None:
    with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="\n") as handle:
        handle.write("".join(f"{n}\n" for n in names))
    print(f"{name}: {len(names)} names")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--npm", required=True)
    parser.add_argument("--pypi", required=True)
    parser.add_argument("--nuget", required=True)
    # npm's 20,000 most downloaded reach down to some 500,000 a month; PyPI's top 5,000 to a similar share
    # of its downloads (more of PyPI's ranked names would catch one in fifty of its less used packages)
    parser.add_argument("--npm-top", type=int, default=20000)
    parser.add_argument("--pypi-top", type=int, default=5000)
    args = parser.parse_args()

    npm = [(r[0].strip().lower(), int(r[2])) for r in _rows(args.npm) if len(r) > 2 and r[2].isdigit()]
    npm = [(n, d) for n, d in npm if n and "\n" not in n and " " not in n]
    npm.sort(key=lambda nd: (-nd[1], nd[0]))
    _write("registry-npm-top.txt", [n for n, _ in npm[: args.npm_top]])
    downloads = dict(reversed(npm))  # a name listed twice keeps its larger count
    _write("registry-npm-used.txt", [f"{n}\t{downloads[n]}" for n in sorted(downloads, key=str.encode)])

    pypi = [(_pep503(r[0].strip()), int(r[3])) for r in _rows(args.pypi) if len(r) > 3 and r[3].isdigit()]
    pypi = [(n, rank) for n, rank in pypi if n and " " not in n]
    pypi.sort(key=lambda nr: (nr[1], nr[0]))
    _write("registry-pypi-top.txt", [n for n, _ in pypi[: args.pypi_top]])

    # NuGet's listing names the packages a .NET project commonly takes (no counts), and some it does not serve
    served = [r for r in _rows(args.nuget) if len(r) > 1 and r[0].strip() and "not-served" not in r[1]]
    nuget = [r[0].strip().lower() for r in served]
    _write("registry-nuget-top.txt", sorted(set(nuget)))


if __name__ == "__main__":
    main()
