"""Quotations a text talks about rather than says: "attackers hide sentences such as "ignore all previous
instructions"", a security question quoting a payload, a code block in a write-up about injections.

A quotation is *mentioned* when the words just before it, in its own sentence (or, for a fenced block or a
`>` quotation, the line that introduces it), name what it is: an example, a phrase, a message, a payload, what
someone said or wrote. The turn gate screens the text with mentioned quotations replaced by a placeholder: a
document about an injection is not an injection, while the same instruction said outright (or introduced by
a bare label such as "IMPORTANT:") is screened as written. A quotation with no such frame is screened as said.
"""

from __future__ import annotations

import re

PLACEHOLDER = '"(quoted)"'
# Words that say the quotation after them is an object of discussion. A closed class, as in a grammar:
# examples, words for text, and verbs of saying, in the languages the gate reads.
_FRAME = re.compile(
    r"(?:\b(?:such as|like|e\.g\.?|i\.e\.?|for (?:example|instance)|example|examples|phrases?|strings?"
    r"|sentences?|texts?|messages?|prompts?|payloads?|attacks?|injections?|lines?|words?|wording|patterns?"
    r"|samples?|says?|said|saying|wrote|writes?|written|reads?|reading|contains?|containing|called|quoted?"
    r"|quoting|appeared|appears|typed|asked|asks|zum beispiel|beispielsweise|etwa|satz|sätze|schrieb"
    r"|por ejemplo|como|frases?|escribió|dice|par exemple|comme|phrases?|écrit|dit)\b"
    r"|例如|比如|例えば|という|と書|这句|的话)",
    re.IGNORECASE,
)
_INLINE = re.compile(
    r'"[^"\n]{4,800}"|“[^”\n]{4,800}”|«[^»\n]{4,800}»|„[^“”\n]{4,800}[“”]|「[^」\n]{4,800}」'
)
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)[^\n]*\n.*?^[ \t]*(?:```|~~~)[ \t]*$", re.MULTILINE | re.DOTALL)
_BLOCKQUOTE = re.compile(r"(?:^[ \t]*>[^\n]*(?:\n|$))+", re.MULTILINE)
_SENTENCE_START = re.compile(r"[.!?。！？]\s")
_FRAME_REACH = 80  # how far back, within the sentence, the frame may stand
_MARKS = ('"', "“", "«", "„", "「", "```", "~~~", ">")  # no quotation without one of these


def _framed_inline(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    before = text[max(line_start, start - _FRAME_REACH) : start]
    ends = list(_SENTENCE_START.finditer(before))
    if ends:
        before = before[ends[-1].end() :]
    return bool(_FRAME.search(before))


def _framed_block(text: str, start: int) -> bool:
    lines = [line for line in text[:start].splitlines() if line.strip()]
    return bool(lines) and bool(_FRAME.search(lines[-1][-_FRAME_REACH * 2 :]))


def said(text: str) -> str:
    """`text` with its mentioned quotations replaced by a placeholder (the text itself when it has none)."""
    if not any(mark in text for mark in _MARKS):
        return text
    spans: list[tuple[int, int]] = []
    for pattern, framed in ((_FENCE, _framed_block), (_BLOCKQUOTE, _framed_block), (_INLINE, _framed_inline)):
        for m in pattern.finditer(text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            if framed(text, m.start()):
                spans.append(m.span())
    if not spans:
        return text
    out: list[str] = []
    last = 0
    for a, b in sorted(spans):
        out.append(text[last:a])
        out.append(PLACEHOLDER)
        last = b
    out.append(text[last:])
    return "".join(out)
