"""`limen hook <agent>`: the same process as `limen-hook <agent>`, reachable through the main command."""

from __future__ import annotations

import sys

HELP = """\
usage: limen hook {agents}

Answer one coding-agent hook event: the event is read as JSON from standard input and the agent's answer
(allow, ask or deny, in its own dialect) is written to standard output. This is what limen install wires
into an agent, as limen-hook AGENT; it is run by the agent, not by a person. Any error, timeout or
malformed event is answered with a denial.

positional arguments:
  {agents}
                        The agent whose hook dialect the event and the answer use.

options:
  -h, --help            show this help message and exit
"""


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):  # only the help: the hook itself never prints anything else
        from limen.doors.hooks.events import DIALECTS

        sys.stdout.write(HELP.format(agents="{" + ",".join(DIALECTS) + "}"))
        return 0
    from limen.doors.hooks.client import main as hook_main

    return hook_main(argv)
