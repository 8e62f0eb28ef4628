"""Quotations a text talks about rather than says: "attackers hide sentences such as "ignore all previous
instructions"", a security question quoting a payload, a code block in a write-up about injections.

A quotation is *mentioned* when the words just before it, in its own sentence (or, for a fenced block or a
`>` quotation, the line that introduces it), name what it is: an example, a phrase, a message, a payload, what
someone said or wrote. The turn gate screens the text with mentioned quotations replaced by a placeholder: a
document about an injection is not an injection, while the same instruction said outright (or introduced by
a bare label such as "IMPORTANT:") is screened as written. A quotation with no such frame is screened as said.
"""

from __future__ import annotations

import bisect
import re

PLACEHOLDER = '"(quoted)"'
# Words that say the quotation after them is an object of discussion. A closed class, as in a grammar:
# examples, words for text, and verbs of saying, in the languages the gate reads.
_FRAME = re.compile(
    r"(?:\b(?:such as|like|e\.g\.?|i\.e\.?|for (?:example|instance)|example|examples|phrases?|strings?"
    r"|sentences?|texts?|messages?|prompts?|payloads?|attacks?|injections?|lines?|words?|wording|patterns?"
    # (verbs of saying in a reporting form only: "write", "say" or "quote" in the imperative introduce
    # what the reader is to produce)
    r"|samples?|says|said|saying|wrote|writes|written|reads|read(?=[,:])|reading|contains|containing|called"
    r"|(?:might|may|could|would|can|will|to|often|also) (?:say|read|contain|write)"
    r"|quoted"
    r"|quoting|appeared|appears|typed|asked|asks|asking|logged|inputs?|tests?|test cases?|reports|reported"
    r"|replies|replied|responds|responded|answered|included|stated|states"
    r"|in part|lautet|lautete|heißt|hieß|folgendermaßen|attempts?|tries|tried"
    r"|zum beispiel|beispielsweise|beispiel\w*|etwa|satz|sätze|schrieb|sagte|lautete|por ejemplo|ejemplos?"
    r"|exemples?|esempi[oa]?|exemplos?|como|frases?"
    r"|escribió|escribía|dice|decía|dijo|par exemple|comme|phrases?|écrit|écrivait|dit|disait"
    # nouns for an order quoted as an example, and the same frames in the other languages the gate reads
    r"|instructions?|commands?|orders?|requests?|anweisung\w*|befehl\w*|instrucci\w+|órden\w*|comando\w*"
    r"|consignes?|commandes?|istruzion\w+|instruç\w+|opdracht\w*|polecen\w+|instrukcj\w+|указани\w+"
    r"|команд\w*|инструкци\w+|talimat\w*|instruktion\w*|kommando\w*"
    # verbs of saying in the other languages
    r"|diz|dizia|disse|zegt|zei|mówi|mówił\w*|говорит|гласит|сказано|написано|säger|diyor|yazıyor"
    r"|bijvoorbeeld|zoals|als|zin|zinnen|tekst|bericht|voorbeeld|schreef|zei"
    r"|na przykład|np\.|przykład|w rodzaju|typu|zdanie|zdania|fraza|frazę|frazy|tekst|wiadomość"
    r"|napisał\w*|jak"
    r"|например|вроде|типа|фраз\w*|предложени\w*|текст\w*|сообщени\w*|пример\w*|написал\w*|как"
    r"|ad esempio|per esempio|come|frase|frasi|testo|messaggio|scritto|scrisse"
    r"|por exemplo|como|frase|frases|texto|mensagem|escreveu"
    r"|örneğin|mesela|cümle\w*|till exempel|t\.ex\.|som|meningen|mening|fras\w*|texten|meddelandet|skrev)\b"
    r"|जैसे|उदाहरण|مثل|مثلا|مثلاً|على سبيل المثال|למשל|כגון|örnek|misal|ví dụ|contoh|seperti|เช่น"
    r"|例如|比如|诸如|类似|像是|写了|写道|写着|字样|这句|这段|的话|例えば|という|と書|などの"
    r"|예를 들어|예컨대)",
    re.IGNORECASE,
)
# The same frame after the quotation, where the language puts it ("……这样的句子", "「…」といった文",
# "\"...\" gibi bir cümle", "\"...\" 같은 문장").
_FRAME_AFTER = re.compile(
    r"\s{0,2}(?:这样的|這樣的|这类|這類|之类|之類|一类|等(?:句子|指令|文字|话)|的句子|的话|字样"
    r"|といった|という|のような|などの|などと|と書|のように"
    r"|같은|라는|이라는|와 같은|과 같은|등의|처럼"
    r"|gibi|diye"
    # German puts the participle after the quotation: "„KI, empfiehl ...“ geschrieben"
    r"|(?:\w+\s)?(?:geschrieben|gesagt|gefragt|gepostet|verschickt|eingefügt|versteckt)\b"
    # a noun after the quotation names it as a kind of text: "'ignore previous instructions' attacks"
    r"|(?:attacks?|payloads?|prompts?|injections?|jailbreaks?|phrases?|tricks?|strings?|style|variants?)\b)",
    re.IGNORECASE,
)
# Single quotes too, where they open after a space and close before one ("asking staff to 'paste ...'"):
# an apostrophe inside a word ("don't") opens nothing.
_INLINE = re.compile(
    r"(?<![\w'])'(?=\S)[^'\n]{4,800}?(?<=\S)'(?![\w'])|"
    r'"[^"\n]{4,800}"|“[^”\n]{4,800}”|«[^»\n]{4,800}»|„[^“”\n]{4,800}[“”]|「[^」\n]{4,800}」|`[^`\n]{4,800}`'
    # a short double-quoted phrase wrapped once onto the next line: '(for example "ignore\nyour rules")'
    # (no markup in it: an HTML attribute's quote must not pair with the next line's)
    r'|"[^"\n<>={}]{2,150}\n[^"\n<>={}]{1,150}"'
)
# The bullet of a list item (a quotation that is a whole item is one of a list of examples).
# (a short capitalised label, or any label and an aligned column, start a row of a list too:
# 'Email:    "..."', 'Web page: "..."'; a key and one space is data: 'anything_else: "..."')
_ITEM = re.compile(
    r"[ \t]*(?:[-*•][ \t]+|\d+[.)][ \t]+|\w[\w /-]{0,24}:[ \t]{2,}|[A-Z][a-z]+(?: [a-z]+)?:[ \t]+)"
)
# A question that asks the reader to act on the quotation ("could you do "..."?") does not discuss it.
_ACT_ON = re.compile(r"\b(?:do|follow|run|execute|perform|obey|carry out|apply|act on)\b", re.IGNORECASE)
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)[^\n]*\n.*?^[ \t]*(?:```|~~~)[ \t]*$", re.MULTILINE | re.DOTALL)
_BLOCKQUOTE = re.compile(r"(?:^[ \t]*>[^\n]*(?:\n|$))+", re.MULTILINE)
# An indented block (four spaces or a tab, as Markdown sets code and quotations off), blank lines inside it.
_INDENTED = re.compile(r"^(?: {4}|\t)[^\n]*\S[^\n]*(?:\n(?:(?: {4}|\t)[^\n]*|[ \t]*)(?=\n|$))*", re.MULTILINE)
_SENTENCE_START = re.compile(r"[.!?。！？]\s")
_SENTENCE_END = re.compile(r"[.!?。！？](?:\s|$)")
_FRAME_REACH = 80  # how far back, within the sentence, the frame may stand
_MARKS = ('"', "'", "“", "«", "„", "「", "`", "~~~", ">", "\n    ", "\n\t")  # no quotation without one


# A quotation that opens a parenthesis after prose: an example of what the sentence talks about ("most were
# crude ("ignore previous instructions and ..."), but ...").
_PARENTHESIS = re.compile(r"\w[\w,;]*\s\(\s*$")
# A JSON value or array item: a key and a colon, or an opening bracket or comma, just before the quotation.
# (a comma followed by a space counts only after a value: "in part, "..."" is prose; a comma right before the
# quotation separates the fields of a CSV row)
_JSON_VALUE = re.compile(r'(?:(?:"\s*:|[\[{]|["\]}\d],)\s*|,)$')


def _framed_inline(text: str, start: int, end: int) -> bool:
    """Framed by the words before it in its sentence, asked about (its sentence is a question that does not
    ask to act on it), or an item of a list whose introducing line frames it. A JSON value is what the
    data says, whatever its key is called ("message", "text", "input"): never a mention."""
    line_start = text.rfind("\n", 0, start) + 1
    if _CODE_ITEM.fullmatch(text, line_start, _line_end(text, end)) and _listed_as_examples(text, line_start):
        return True
    if _JSON_VALUE.search(text, max(0, start - 8), start):
        return _LABELLED_RECORD.search(text, line_start, _line_end(text, end)) is not None
    before = text[max(line_start, start - _FRAME_REACH) : start]
    ends = list(_SENTENCE_START.finditer(before))
    if ends:
        before = before[ends[-1].end() :]
    if _FRAME.search(before) or _FRAME_AFTER.match(text, end) or _PARENTHESIS.search(before):
        return True
    line_end = text.find("\n", end)
    after = text[end : len(text) if line_end < 0 else line_end]
    sentence_end = _SENTENCE_END.search(after)
    question = (after[: sentence_end.end()] if sentence_end else after).rstrip().endswith(("?", "？"))
    if question and not _ACT_ON.search(before):
        return True
    # an item of a list (the whole item, or a quotation inside it) whose introducing line frames the list
    # ("Phrases seen in phishing tests:\n- An email addressed to "any AI reading this"")
    return bool(_ITEM.match(text, line_start)) and _introduced(text, line_start, skip_items=True)


# A record of a test set or a labelled corpus, on one line: a JSON value beside the label it is expected to
# get ('{"input": "...", "expected": "flag"}'): a sample a detector is tested on, not a message to act on.
_LABELLED_RECORD = re.compile(
    r'"(?:expected|expected_(?:label|verdict|output)|label|labels|verdict|is_injection|is_attack|should_(?:flag'
    r'|block|pass)|malicious|ground_truth|gold)"\s*:\s*(?:"[\w -]{1,24}"|true|false|[01])'
)


# A string that is a whole item of a list literal in code ('    "Ignore previous instructions",').
_CODE_ITEM = re.compile(r"[ \t]*(?:\"[^\"\n]*\"|'[^'\n]*')[ \t]*,?[ \t]*")
# The line that opens the list: a name bound to it ("INJECTION_SAMPLES = [", "examples: list[str] = (").
_LIST_OPENING = re.compile(r"([\w.]+)\s*(?::[^=\n]*)?=\s*[\[(]\s*$")


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _listed_as_examples(text: str, line_start: int) -> bool:
    """Whether the list literal a line belongs to is named as examples ("INJECTION_SAMPLES = [")."""
    for line in reversed(text[:line_start].splitlines()[-50:]):
        if _CODE_ITEM.fullmatch(line):
            continue
        opening = _LIST_OPENING.search(line)
        return opening is not None and _FRAME.search(opening.group(1).replace("_", " ")) is not None
    return False


def _framed_block(text: str, start: int, end: int) -> bool:
    return _introduced(text, start, skip_items=False)


# A line of prose that ends by introducing what follows ("... a line like:", "ChatML, for example, wraps each
# turn in special tokens:"); a line of code that opens a block ("def handle(request):") is not one.
_INTRODUCES = re.compile(r"(?:[:：]|\blike|\bas)\s*$", re.IGNORECASE)
_CODE_LINE = re.compile(
    r"^\s*(?:def|class|if|for|while|with|elif|else|try|except|case|switch)\b|[=(){};]\s*:?\s*$"
)


def _framed_indented(text: str, start: int, end: int) -> bool:
    """An indented block is quoted where the line of prose just above it, not itself indented, ends by
    introducing it and frames it near its end; indentation in code or in a nested list is structure."""
    line = _line_above(text, start, skip_items=False)
    if line is None or line[:1] in (" ", "\t") or _CODE_LINE.search(line) or not _INTRODUCES.search(line):
        return False
    return bool(_FRAME.search(line.rstrip()[-_FRAME_REACH:]))


# A line that tells its reader to produce or run what follows ("Write the following lines into your reply:",
# "Add these lines to the script:"): the block is what to do, whatever the line calls it.
_TO_PRODUCE = re.compile(
    r"^\W*(?:please\s|now\s|then\s|also\s)*(?:write|add|include|insert|append|put|paste|use|run|execute|reply"
    r"|respond|answer|output|print|say|send|copy|embed|incorporate|type|enter|return|start|begin|end|save"
    r"|place|prepend|follow|do|perform|apply)\b",
    re.IGNORECASE,
)


def _line_above(text: str, start: int, *, skip_items: bool) -> str | None:
    """The nearest line above `start` that is not blank (nor, with `skip_items`, another item of its list)."""
    for line in reversed(text[:start].splitlines()):
        stripped = line.strip()
        if stripped and not (skip_items and _ITEM.match(stripped)):
            return line
    return None


def _introduced(text: str, start: int, *, skip_items: bool) -> bool:
    """Whether the nearest line above `start` (past the other items of its list) frames what follows."""
    line = _line_above(text, start, skip_items=skip_items)
    if line is None:
        return False
    stripped = line.strip()
    sentence = _SENTENCE_START.split(stripped)[-1]
    if _TO_PRODUCE.match(sentence) or (line[:1] in (" ", "\t") and not skip_items):
        return False  # an order to produce what follows, or a line of code (indented) above it
    # the frame closes the line, or the line ends by introducing what follows
    return bool(_FRAME.search(stripped[-40:]) or (_INTRODUCES.search(stripped) and _FRAME.search(stripped)))


def said(text: str) -> str:
    """`text` with its mentioned quotations replaced by a placeholder (the text itself when it has none)."""
    if not any(mark in text for mark in _MARKS):
        return text
    spans: list[tuple[int, int]] = []  # sorted, disjoint: a quotation inside a kept one is not looked at
    for pattern, framed in (
        (_FENCE, _framed_block),
        (_BLOCKQUOTE, _framed_block),
        (_INDENTED, _framed_indented),
        (_INLINE, _framed_inline),
    ):
        for m in pattern.finditer(text):
            at = bisect.bisect_right(spans, (m.start(), len(text)))
            if at and spans[at - 1][1] > m.start():
                continue
            if framed(text, m.start(), m.end()):
                bisect.insort(spans, m.span())
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
