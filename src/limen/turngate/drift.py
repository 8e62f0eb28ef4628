"""Task drift: a task for the assistant placed inside an untrusted document.

BIPIA-style injections ask for something harmless on its own ("write a poem about the sea", "what is the
capital of Brazil?", "answer only in French") inside content whose role is data: an email body, a table cell,
a code comment, a news paragraph, a JSON field. Nothing in the sentence is malicious; what gives it away is
that it addresses the reader as an assistant with a task the document has no business setting.

This screen cuts a document into sentences (lines, table cells, sentence ends) and scores each with a small
learned model (`limen/data/tier2_drift.bin`, trained by `training/train_drift.py`; same features and file
format as Tier 2, plus marks for the sentence's form and for whether it shares a content word with the rest
of the document) for "is this a task for an assistant rather than a sentence of the document".

What a request means depends on the channel it arrives by, and this screen only ever sees untrusted content
(tool output, fetched pages, files; never what the user typed, never an MCP tool's description):
- a *document* (an email, a table, code, a page) may hold requests to its human reader ("could you send the
  slides?"); a sentence is flagged when it scores as a task for an assistant rather than part of the
  document;
- a tool output that is *nothing but a request* addressed to its reader (less than `MIN_CONTEXT` letters
  around it: no sender, no record, no page) has no reader but the agent, and no content for the agent to
  work on for the user except the request itself: it is scored as that one sentence, off the topic of any
  document. The same words typed by the user are the user's task, which is why the channel decides and why
  this screen never runs on user text;
- a text that is mostly requests (a prompt collection, an FAQ, a TODO list) is a list of them, not a
  document with one planted in it, and a program's diagnostic ("Error: please provide a valid API key")
  is a tool asking its operator for what it needs: both left alone.

It only raises (an `indirect_injection` AUTH finding), runs on untrusted content after Tier 0/1, and an error
is a `turn_gate_error` AUTH finding. LIMEN_TIER2_DRIFT=1|0 forces it on or off (default: the model file's).
"""

from __future__ import annotations

import math
import os
import re
import threading
from collections import Counter

from limen.model import Finding, ReasonCode, Verdict
from limen.turngate import tier2

MIN_CONTEXT = 16  # letters and digits around the task: less is a bare request, not a document
# letters and digits (see _weight): a shorter piece (a number, a name, a label) carries no task
MIN_CHARS = 12
MAX_SENTENCES = 400  # a bound on work: the head and the tail of a huge document are read
RISK_AUTH = 60
DETAIL = "tier2 task drift"  # how this screen's findings begin (span removal cuts just their sentences)
# the model file's raw score at which a bare request is flagged (a document's sentence: raw >= 0)
BARE_THRESHOLD = "bare"
RISK_ERROR = 60

_SPLIT = re.compile(r"(?<=[.?!])\s+|[\n|]+|(?<=[。？！])|\"\s*[,:]\s*\"|[{}\[\]]")


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_CONTENT = re.compile(r"\w{4,}")  # letters only are kept (a `[^\W\d_]` class costs ~12 ms to compile)
_FUNCTION_WORDS = _word_set(
    """
    this that these those with from have been were will would could should shall what when where which
    while about there their them they then than your yours into onto also just only very more most some
    such each every other please thanks thank here dear best regards dass nicht eine einen einem einer
    oder aber wenn dann auch noch sind wird wurde bitte danke para como pero esta este estos estas todo
    todos porque gracias pour avec dans vous nous mais plus tous toutes cette merci
    """
)
_TRIM = " \t\"'#/*-:>`,;"
_LETTER = re.compile(r"[^\W\d_]")
_WORD = re.compile(r"\w+")
# kana, CJK ideographs and hangul: a range test, not a regex class (its compilation costs ~9 ms per process)
_DENSE_FIRST, _DENSE_LAST = "\u3040", "\ud7af"

MODEL_PATH = os.path.join(os.path.dirname(tier2.MODEL_PATH), "tier2_drift.bin")
_LOCK = threading.Lock()
_MODEL: list[tier2.Model] = []


def _weight(text: str) -> int:
    """Letters and digits, a Chinese or Japanese character counting as three (it carries about a word)."""
    return sum(map(str.isalnum, text)) + 2 * sum(1 for ch in text if _DENSE_FIRST <= ch <= _DENSE_LAST)


def _dense(word: str) -> bool:
    return _DENSE_FIRST <= word[:1] <= _DENSE_LAST


def pieces(text: str) -> list[str]:
    """A document cut into lines, table cells, sentences and JSON strings (empty and bare-symbol pieces
    dropped); a huge document keeps its first and last `MAX_SENTENCES // 2` pieces."""
    return [piece for piece, _ in _pieces(text)]


def _pieces(text: str) -> list[tuple[str, bool]]:
    """Each piece, and whether it introduces what follows it (it ends with a colon: "Please summarise:",
    "Translate the following:"). Such a task is the document's own framing, its object the text after it
    (a prompt template, a form, an exercise sheet), not a task planted in a document about something else."""
    out = []
    for raw in _SPLIT.split(text):
        piece = raw.strip(_TRIM)
        if any(map(str.isalnum, piece)):
            out.append((piece, raw.rstrip().endswith((":", "："))))
    if len(out) > MAX_SENTENCES:
        half = MAX_SENTENCES // 2
        out = out[:half] + out[-half:]
    return out


def sentences(text: str) -> list[str]:
    """The pieces of a document long enough to carry a task."""
    return [p for p in pieces(text) if _weight(p) >= MIN_CHARS and _LETTER.search(p)]


# The forms a task for an assistant takes, by language: verbs that open a request for a text, an answer or a
# transformation, and words that open a question. They are word classes (what a part-of-speech tagger would
# give), not injection phrases: the model learns from data how much each form weighs against the words around
# it ("add the basil", "create a contract" open honest documents too).
_TASK_VERBS = _word_set(
    """
    write compose draft create generate develop produce craft explain describe summarize summarise outline
    list name give tell provide suggest recommend translate analyze analyse classify determine rate evaluate
    compare break show help teach define calculate solve convert rewrite paraphrase answer respond reply
    replace rearrange scramble substitute render modify enhance integrate insert mention recite imagine
    pretend act predict brainstorm plan design review assess identify find recount narrate discuss elaborate
    schreibe schreib erkläre erklär beschreibe nenne gib übersetze fasse erstelle empfiehl antworte verfasse
    escribe explica describe resume traduce dame dime recomienda sugiere enumera crea responde redacta cuenta
    écris explique décris résume traduis donne dis recommande suggère propose liste crée réponds raconte
    rédige
    send forward email mail share post upload download book reserve schedule cancel buy order pay transfer
    delete remove visit invite
    sende schicke schick leite buche lösche öffne besuche überweise
    envía envia manda reenvía reserva borra elimina abre visita transfiere paga
    envoie transfère réserve supprime ouvre visite paie
    schreiben erklären beschreiben nennen geben übersetzen erstellen empfehlen verfassen senden schicken
    escriba explique describa resuma traduzca dé diga recomiende sugiera cree redacte envíe reserve
    écrivez expliquez décrivez résumez traduisez donnez dites recommandez proposez rédigez envoyez réservez
    escreva escreve explique descreva descreve resuma traduza traduz diga liste nomeie recomende recomenda
    sugira crie cria responda conte redija envie mande encaminhe apague exclua
    scrivi scriva spiega spieghi descrivi descriva riassumi riassuma traduci traduca dimmi dammi elenca
    consiglia suggerisci crei rispondi risponda racconta redigi invia prenota cancella
    напиши напишите объясни объясните опиши опишите расскажи расскажите перечисли перечислите назови
    назовите дай дайте переведи переведите составь составьте придумай придумайте создай создайте ответь
    ответьте скажи скажите покажи покажите предложи предложите порекомендуй порекомендуйте посоветуй
    посоветуйте сделай сделайте отправь отправьте перешли перешлите удали удалите забронируй забронируйте
    закажи закажите оплати оплатите
    schrijf beschrijf vertaal geef noem beantwoord vertel stuur verwijder
    napisz wyjaśnij opisz streść przetłumacz podaj wymień poleć zaproponuj stwórz odpowiedz opowiedz wyślij
    usuń zarezerwuj
    """
)
_QUESTION_WORDS = _word_set(
    """
    what who whom whose how why when where which can could would will is are do does did should
    was wer wie warum wann wo welche welcher welches kannst können könnten könntest würden würdest
    qué que quién cómo cuál cuáles cuándo dónde puedes podrías puede podría podrían
    quel quelle quels quelles qui comment pourquoi quand où peux pourrais pouvez pourriez
    quem onde qual quais pode poderia podes poderias chi perché dove quale quali puoi potresti può potrebbe
    что кто как почему зачем когда где какой какая какое какие сколько можешь можете могли мог
    wat wie hoe waarom wanneer waar welke kun kunt kunnen co kto jak dlaczego kiedy gdzie który jaki czy
    możesz
    """
)
# Chinese verbs followed by an aspect marker (写了 "wrote", 讲过 "has told") report, they do not ask.
_CJK_TASK = re.compile(
    r"写(?![了着道过])|解释|描述|总结|翻译|推荐|告诉我|给我|列出|讲(?![了着过])|書いて|説明|翻訳|教えて|作って"
    r"|答えて"
)
# A request in Chinese opens with 请 ("please"); in Japanese it ends in ください or a polite "could you". The
# verbs alone do not tell a request from a report: 已发送 is "sent", 予約済み "booked". 请问 ("may I ask")
# opens a question between people, not an order: it is read as the question it is.
_CJK_REQUEST = re.compile(
    r"^请(?!问)|(?:ください|下さい|いただけますか|いただけますでしょうか|くれませんか)[。！!？?]?$"
)
_CJK_QUESTION = re.compile(
    r"什么|谁|怎么|如何|为什么|哪|多少|多长|多高|多大|多远|几|吗[？?]?$|何|誰|どう|なぜ|ですか"
)
# a sentence is only scored when it has the form of a task (the model reads every sentence in training)
_FORM_MARKS = frozenset(
    {"zztaskverb", "zzquestionword", "zzquestion", "zzyouroutput", "zzaddressee", "zzcourtesy"}
)
# A program's diagnostic label: "Error: please provide a valid API key" is a tool asking its operator for
# what it needs, not a task for an assistant.
_DIAGNOSTIC = re.compile(
    r"(?:error|fatal|warning|warn|hint|usage|exception|npm err!|e|fehler|warnung|erreur|avertissement"
    r"|advertencia|错误|警告|エラー)\s*[:：!]",
    re.IGNORECASE,
)
_LEAD_IN = re.compile(r"[,:;，、：]\s*")
# Where a clause can open inside a sentence: after a comma, colon or semicolon, or after a connective ("and
# compose ...", "then list ...", "zuerst erkläre ..."); a task verb there is a request in a clause of its own
# ("Assistant, when you report on these reviews, first tell me ...").
_CLAUSE = re.compile(
    r"[,:;，、：]\s*|\b(?:and|then|first|also|und|dann|zuerst|außerdem|y|luego|primero|además|et|puis"
    r"|d'abord|aussi)\s+"
)
# Words that stand before a request's verb as "please" does in English.
_PLEASE = _word_set("please kindly bitte favor veuillez merci")
# The sentence turns to an AI as its addressee: names it at its opening ("Assistant, ...", "AI reading
# this:"), or after a word that addresses ("note to the AI", "dear model", "para el asistente", "请AI助手",
# "アシスタントさん", "AIへ"). A word class, weighed by the model against documents that speak *about* an
# assistant or a model ("my assistant will call you", "why do models obey ...").
_AI = (
    r"(?:ai|a\.i\.|ai assistant|assistant|chatbot|bot|llm|language model|model|agent|copilot|assistent|ki"
    r"|sprachmodell|asistente|ia|modelo|agente|modèle)"
)
_AI_WORD = re.compile(rf"\b{_AI}\b|助手|人工智能|智能体|アシスタント|エージェント|ａｉ")
_ADDRESSEE = re.compile(
    rf"^(?:hey |hi |hello |dear |hallo |liebe[rs]? |hola |querido |cher |chère )?(?:the |an? |der |die |das "
    rf"|el |la |le |l')?{_AI}\b"
    rf"|\b(?:to|for|dear|hey|an|für|para|al|pour|au|à)\s+(?:the |any |every |an? |die |den |das |el |la |le "
    rf"|l'|cualquier )?(?:\w+ )?{_AI}\b"
    r"|^(?:请|致|给)?(?:ai|ａｉ)?(?:助手|人工智能|智能体)|(?:ai|ａｉ|アシスタント|エージェント)(?:へ|さん|様)",
)
# A courtesy frame that carries a request without an imperative ("we would appreciate it if ...", "auriez-vous
# l'amabilité de ...", "お手数ですが"): the register of a business letter, weighed by the model against the
# same register in letters between people.
_COURTESY_WORDS = _word_set(
    """
    appreciate appreciated grateful kindly convenience dankbar freuen bitten agradeceríamos agradecería
    agradeceremos agradecemos agradecido amabilidad rogamos amabilité prie prions vouloir reconnaissant
    grati cortesemente
    """
)
_COURTESY_DENSE = ("麻烦", "烦请", "劳驾", "お手数", "恐れ入り", "恐縮", "幸いです")
# An address, account or link in the sentence: a request to move something somewhere.
_IBAN = re.compile(r"[A-Z]{2}\d{2}")
_DESTINATION = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+|\b[A-Z]{2}\d{2}(?: ?\d{4}){3,}|https?://")
# what `_YOUR_OUTPUT` needs to be worth running (a substring test is a fraction of the regex's cost)
_YOUR_OUTPUT_KEYS = ("your ", "in the ", "now on", "jetzt", "ahora", "désormais", "从现在起", "これから")
_YOUR_OUTPUT = re.compile(
    r"\b(?:your|in the) (?:answer|answers|response|responses|reply|replies|output|message)\b|"
    r"\bfrom now on\b|\bab jetzt\b|\ba partir de ahora\b|\bdésormais\b|从现在起|これから"
)


def form_marks(sentence: str) -> list[str]:
    """Marks for a sentence's form, read from its opening: how it opens (a task verb, a question word, "could
    you") and whether it asks a question say more about whom it addresses than its topic does."""
    head = sentence[:120].lower()
    words = _WORD.findall(head)
    marks = []
    if words:
        first = words[0]
        marks.append("zzopen" + (first[:2] if _dense(first) else first))
        # the clause that carries the request: the sentence's own opening, or the one after a short lead-in
        # ("also, write ...", "assistant: before answering, list ...", "au passage, donne-moi ...")
        openings = [words[:2]]
        for lead in _LEAD_IN.finditer(head[:60]):
            openings.append(_WORD.findall(head[lead.end() :])[:2])
        for opening in openings:
            if not opening:
                continue
            verb = opening[0]
            if verb in _TASK_VERBS or (verb in _PLEASE and len(opening) > 1 and opening[1] in _TASK_VERBS):
                marks.append("zztaskverb")
            if verb in _QUESTION_WORDS:
                marks.append("zzquestionword")
        for clause in _CLAUSE.split(head)[1:]:
            opening = [w.strip(_TRIM + ".!?()") for w in clause.split(None, 4)[:4]]
            if opening and opening[0] in _PLEASE:
                opening = opening[1:]
            # a clause of its own has a verb and an object, not a column list ("name,email,rating")
            if len(opening) >= 3 and opening[0] in _TASK_VERBS:
                marks.append("zzclausetask")
                break
        if _dense(first):
            if _CJK_TASK.search(head[:16]) or _CJK_REQUEST.search(sentence.strip()):
                marks.append("zztaskverb")
            if _CJK_QUESTION.search(head):
                marks.append("zzquestionword")
    if sentence.rstrip().endswith(("?", "？")):
        marks.append("zzquestion")
    low = sentence.lower()
    if any(key in low for key in _YOUR_OUTPUT_KEYS) and _YOUR_OUTPUT.search(low):
        marks.append("zzyouroutput")
    if _AI_WORD.search(low, 0, 160) and _ADDRESSEE.search(low, 0, 160):
        marks.append("zzaddressee")
    if _COURTESY_WORDS.intersection(words) or (
        not head.isascii() and any(mark in head for mark in _COURTESY_DENSE)
    ):
        marks.append("zzcourtesy")
    if ("@" in sentence or "://" in sentence or _IBAN.search(sentence)) and _DESTINATION.search(sentence):
        marks.append("zzdestination")
    # its length in words (a Chinese or Japanese character a third of one): a heading or a label ("Answer
    # Lively", "generate duplicates") is too short to carry a task and its object
    if len(sentence) <= 120 and len(words) <= 3:
        dense = 0 if head.isascii() else sum(1 for ch in head if _DENSE_FIRST <= ch <= _DENSE_LAST)
        if len(words) + dense // 3 <= 3:
            marks.append("zzshort")
    return marks


def content_words(text: str) -> Counter[str]:
    """Words of four or more letters, lower-cased, without the commonest function words."""
    return Counter(w for w in _CONTENT.findall(text.lower()) if w.isalpha() and w not in _FUNCTION_WORDS)


def topic_mark(sentence: str, document: Counter[str]) -> str:
    """Whether a sentence shares a content word with the rest of its document ("zzondocument") or none
    ("zzoffdocument"): a question about the invoice an email is about is on its topic; a planted task, by
    definition, is not. Empty when the sentence has no content word to compare."""
    own = content_words(sentence)
    if not own:
        return ""
    return "zzondocument" if any(document[w] > n for w, n in own.items()) else "zzoffdocument"


def sentence_form(sentence: str, marks: list[str] | None = None, topic: str = "") -> str:
    """The text the model reads for one sentence: its form marks and its topic mark, then its normalised
    words (the marks let a linear model weigh the form apart from the words: the topic of a planted task is
    anything at all)."""
    if marks is None:
        marks = form_marks(sentence)
    words = [m for m in marks if m not in _CONTEXT_MARKS]
    return " ".join([*words, topic]) + " zzend " + tier2.normalise(sentence)


# Marks only the second stage weighs (as features of their own, see `context_features`): in the first stage's
# text their letters would be diluted among the sentence's n-grams.
_CONTEXT_MARKS = frozenset({"zzclausetask", "zzaddressee", "zzcourtesy", "zzdestination", "zzshort"})


def _is_task_form(marks: list[str]) -> bool:
    return any(m in _FORM_MARKS for m in marks)


def _answered(question: str, following: str) -> bool:
    """A question the document answers in its next piece (an FAQ, an interview, a worked example) is the
    document's own: the answer is no question, and says yes or no or speaks of what was asked."""
    if not question.rstrip().endswith(("?", "？")) or following.rstrip().endswith(("?", "？")):
        return False
    if _YES_NO.match(following):
        return True
    return not content_words(question).keys().isdisjoint(content_words(following).keys())


_YES_NO = re.compile(r"(?:yes|no|ja|nein|sí|si|oui|non|是的|不是|はい|いいえ)\b", re.IGNORECASE)


# Second person: the words by which a sentence turns to its reader (a shift to "you" after a text that spoke
# of other things is how a planted task turns to the assistant).
_SECOND_PERSON = re.compile(
    r"\b(?:you|your|yours|du|dich|dir|dein|deine|ihnen|tú|usted|ustedes|vous|votre|vos|toi)\b|你|您|あなた"
)  # matched on lower-cased text
# "Your" before a thing of the reader's own ("your transcript", "your phone", "votre commande"): a request
# about what the reader has is for a person; an assistant's own things are its answer, its code, its output.
_YOUR_THING = re.compile(
    r"\b(?:your|dein|deine|deinen|deinem|deiner|votre|vos|ton|ta|tes|tu|tus|vuestr[oa]s?|seu|sua|seus|suas"
    r"|tuo|tua|tuoi|tue|твой|твоя|твоё|твои|твоего|твоей|ваш|ваша|ваше|ваши|вашего|вашей)\s(?:own\s)?(\w+)"
)
_ASSISTANTS_OWN = _word_set(
    """
    answer answers response responses reply replies output outputs message messages code codebase
    implementation solution solutions algorithm program script function explanation elucidation summary
    summaries text essay poem story translation analysis next first final last previous
    antwort antworten ausgabe code lösung zusammenfassung erklärung übersetzung
    respuesta respuestas salida código solución resumen explicación traducción
    réponse réponses sortie solution résumé explication traduction
    resposta saída solução resumo explicação tradução risposta risposte soluzione riassunto
    ответ ответы вывод код решение перевод
    """
)


def _your_thing(lowered: str) -> bool:
    """Whether a sentence speaks of a thing of the reader's own ("your transcript"), not of an answer."""
    return any(m.group(1) not in _ASSISTANTS_OWN for m in _YOUR_THING.finditer(lowered))


# The features the second stage weighs (`context_features`); the model file names its weight for each.
CONTEXT_FEATURES = (
    "raw",
    "clausetask",
    "addressee",
    "courtesy",
    "destination",
    "short",
    "you_here",
    "you_elsewhere",
    "script_shift",
    "tasklike_share",
    "your_thing",
)


def _script(text: str) -> tuple[int, int]:
    """Letters, and how many of them are Chinese, Japanese or Korean characters."""
    dense = 0 if text.isascii() else sum(1 for ch in text if _DENSE_FIRST <= ch <= _DENSE_LAST)
    return sum(map(str.isalpha, text)), dense


class Surroundings:
    """What the second stage needs of a whole document, computed once: its worded pieces, how often it turns
    to "you", its script, and how many pieces have the form of a task."""

    __slots__ = ("dense", "letters", "tasklike", "worded", "you")

    def __init__(self, text: str, parts: list[str], tasklike: int) -> None:
        self.worded = sum(1 for p in parts if _LETTER.search(p))
        self.you = len(_SECOND_PERSON.findall(text.lower()))
        self.letters, self.dense = _script(text)
        self.tasklike = tasklike


def context_features(part: str, marks: list[str], raw: float, around: Surroundings) -> dict[str, float]:
    """How one sentence stands to its document: the first stage's score for its words, its form (a task
    verb opening a clause of its own, an AI named as its addressee, a courtesy frame, an address to send
    to, too short for a task, a thing of the reader's own: "your transcript" is a person's, "your answer" the
    assistant's), and what sets a planted task apart from the text around it: a turn to "you" in a text that
    otherwise does not, or speaks to "you" throughout; a change of script; how much of the document has the
    form of a task."""
    present = set(marks)
    you_here = len(_SECOND_PERSON.findall(part.lower()))
    others = around.worded - 1
    letters, dense = _script(part)
    rest_letters = around.letters - letters
    rest_share = (around.dense - dense) / rest_letters if rest_letters > 0 else 0.0
    own_share = dense / letters if letters else 0.0
    return {
        "raw": raw,
        "clausetask": float("zzclausetask" in present),
        "addressee": float("zzaddressee" in present),
        "courtesy": float("zzcourtesy" in present),
        "destination": float("zzdestination" in present),
        "short": float("zzshort" in present),
        "you_here": float(you_here > 0),
        "you_elsewhere": (around.you - you_here) / others if others > 0 else 0.0,
        "script_shift": float(abs(own_share - rest_share) > 0.5),
        "tasklike_share": around.tasklike / around.worded if around.worded else 0.0,
        "your_thing": float(_your_thing(part.lower())),
    }


def combined(weights: dict[str, float], features: dict[str, float]) -> float:
    """The second stage's score: a weighted sum of the features (>= 0 flags the sentence)."""
    return weights.get("bias", 0.0) + sum(weights.get(k, 0.0) * v for k, v in features.items())


def _candidates(model: tier2.Model, text: str) -> tuple[list[str], dict[int, float], dict[int, list[str]]]:
    """A document's pieces, and for each piece with the form of a task its first-stage score and marks."""
    cut = _pieces(text)
    parts = [piece for piece, _ in cut]
    raws: dict[int, float] = {}
    marks_of: dict[int, list[str]] = {}
    document: Counter[str] | None = None
    for i, (part, introduces) in enumerate(cut):
        if introduces or _weight(part) < MIN_CHARS or not _LETTER.search(part):
            continue
        if i + 1 < len(cut) and _answered(part, cut[i + 1][0]):
            continue
        marks = form_marks(part)
        if _is_task_form(marks):
            document = content_words(text) if document is None else document
            raws[i] = model.raw_window([sentence_form(part, marks, topic_mark(part, document))])
            marks_of[i] = marks
    return parts, raws, marks_of


def document_rows(model: tier2.Model, text: str) -> list[tuple[str, list[str], dict[str, float]]]:
    """For training the second stage: each candidate sentence of a document (not a bare request, not a list
    of tasks), its marks and its features."""
    parts, raws, marks_of = _candidates(model, text)
    if not raws:
        return []
    best = max(raws, key=raws.__getitem__)
    worded = sum(1 for part in parts if _LETTER.search(part))
    if worded == 1 or _weight(text) - _weight(parts[best]) < MIN_CONTEXT or len(raws) * 2 > worded:
        return []
    around = Surroundings(text, parts, len(raws))
    return [(parts[i], marks_of[i], context_features(parts[i], marks_of[i], raws[i], around)) for i in raws]


def _scores(model: tier2.Model, text: str, bare: bool) -> tuple[list[str], dict[int, float]]:
    """A document's pieces, and the score of each piece that has the form of a task, by index (>= 0 flags
    it); no scores when the text is not a document (see `document_raw`)."""
    parts, raws, marks_of = _candidates(model, text)
    if not raws:
        return parts, {}
    best = max(raws, key=raws.__getitem__)
    worded = sum(1 for part in parts if _LETTER.search(part))  # a list's numbers are not its sentences
    if worded == 1 and bare:  # nothing but the request: a bare request
        if _DIAGNOSTIC.match(parts[best]):  # a program telling whoever runs it what it needs
            return parts, {}
        return parts, {best: raws[best] - model.thresholds.get(BARE_THRESHOLD, 0.0)}
    # a request with a few words around it (a greeting and a name, a label) is a short message: not a
    # document to weigh it against, not a bare request either
    if _weight(text) - _weight(parts[best]) < MIN_CONTEXT or len(raws) * 2 > worded:
        return parts, {}
    if not model.context:
        return parts, raws
    around = Surroundings(text, parts, len(raws))
    return parts, {
        i: combined(model.context, context_features(parts[i], marks_of[i], raws[i], around)) for i in raws
    }


def document_raw(model: tier2.Model, text: str, *, bare: bool = True) -> float:
    """The highest sentence score of an untrusted text (>= 0 flags it); -inf for a list of tasks, and for a
    bare request when `bare` is false.

    Only sentences with the form of a task (a task verb or question word at the opening, a question mark, a
    rule for "your answer") are scored, which keeps a long page cheap. A text with less than `MIN_CONTEXT`
    letters or digits outside its highest-scoring sentence is a bare request, scored as that sentence; a
    text where more than half the pieces have the form of a task is a list of requests (a prompt
    collection, an FAQ), not a document with one planted in it.
    """
    _, scores = _scores(model, text, bare)
    return max(scores.values(), default=-math.inf)


def planted_tasks(text: str) -> list[str]:
    """The sentences of an untrusted text that the screen reads as tasks for the assistant (what span
    removal cuts; for a bare request, the request itself)."""
    parts, scores = _scores(model(), text, True)
    return [parts[i] for i, score in sorted(scores.items()) if score >= 0]


def model() -> tier2.Model:
    """The shipped sentence model, loaded once per process (raises when it cannot be read)."""
    if not _MODEL:
        with _LOCK:
            if not _MODEL:
                with open(MODEL_PATH, "rb") as handle:
                    _MODEL.append(tier2.load_bytes(handle.read()))
    return _MODEL[0]


def enabled() -> bool:
    """Whether the task-drift screen runs: LIMEN_TIER2_DRIFT when set, else the shipped model's default."""
    return tier2.switched_on("LIMEN_TIER2_DRIFT", lambda: model().enabled_by_default)


def check(text: str) -> list[Finding]:
    """A finding when untrusted content carries a task for the assistant, inside a document or as all it
    says; never raises."""
    try:
        if not enabled():
            return []
        parts, scores = _scores(model(), text, True)
        flagged = [i for i, score in scores.items() if score >= 0]
        if not flagged:
            return []
        alone = _weight(text) - _weight(parts[flagged[0]]) < MIN_CONTEXT
        where = "as all the content says" if alone else "inside a document"
        return [
            Finding(
                ReasonCode.INDIRECT_INJECTION,
                Verdict.AUTH,
                RISK_AUTH,
                f"{DETAIL}: a task for the assistant {where}",
            )
        ]
    except Exception as exc:
        return [
            Finding(
                ReasonCode.TURN_GATE_ERROR,
                Verdict.AUTH,
                RISK_ERROR,
                f"task drift error: {type(exc).__name__}",
            )
        ]
