"""What a CI file's checks are is read before and after an edit, and the reader must stay linear in the
file's length: an edit to a long pipeline is decided, never left to the hook's deadline (which denies it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# A pipeline of many indented and blank-but-indented lines, no job of it allowed to fail: the shape on which a
# backtracking pattern for "a job allowed to fail" takes exponential time.
PROGRAM = """
import sys, limen
ci = sys.argv[1]
decision = limen.evaluate(
    "Edit",
    {"file_path": ci, "old_string": "make target59", "new_string": "make target59 VERBOSE=1"},
    cwd=sys.argv[2],
    session_id="s",
)
print(decision.verdict.name)
"""


def test_an_edit_to_a_long_pipeline_is_decided(tmp_path: Path) -> None:
    steps = "".join(
        f"  script:\n    - make target{i}   \n   \n" if i == 0 else f"    - make target{i}\n   \n"
        for i in range(60)
    )
    ci = tmp_path / ".gitlab-ci.yml"
    ci.write_text("stages: [test]\n\ntest:\n  stage: test\n" + steps)
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(ci), str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "PASS"


WRITE = """
import sys, limen
decision = limen.evaluate("Write", {"file_path": sys.argv[1], "content": sys.stdin.read()}, cwd=sys.argv[2])
print(decision.verdict.name)
"""


def test_a_workflow_padded_with_blank_lines_is_decided_and_still_read(tmp_path: Path) -> None:
    # tens of thousands of blank (or blank-but-indented) lines between a workflow's head and a step that
    # prints a secret in a form the log's masking misses: each line-anchored pattern used to scan the run
    # from each of its lines
    padding = " \n" * 30_000 + "\n" * 30_000
    text = (
        "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
        + padding
        + "      - run: echo ${{ secrets.DEPLOY_KEY }} | base64\n"
    )
    workflow = tmp_path / ".github" / "workflows" / "ci.yml"
    workflow.parent.mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, "-c", WRITE, str(workflow), str(tmp_path)],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() in ("AUTH", "BLOCK")
