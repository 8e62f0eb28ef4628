"""Objective rules: personal and financial data classes leaving through an action.

`pii_data_class_egress` (AUTH in every mode) when an outbound action's texts carry a checksum-valid value:
- a payment card: 13-19 digits (contiguous, or grouped 4-4-4-4[-3] / 4-6-5 / 4-6-4 with one kind of space or
  dash), a real issuer prefix (IIN) for that length, and a valid Luhn check digit;
- an IBAN: upper-case country code with its registered length, compact or in groups of four, mod-97 == 1;
- a US SSN written with dashes (`078-05-1123`) in valid area/group/serial ranges (not 000, 666, 9xx);
- a US bank account: a nine-digit routing number named so, with an account number named so beside it.
Undashed nine-digit numbers are not treated as SSNs: too many order numbers and IDs look like that.
The counterparty of a transfer (an `iban`/`recipient`/`to` argument) is where the action goes, not data
leaving, and is not counted. Only the class label reaches the finding, never the value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from limen.context import Context
from limen.facts.hosts import PLACEHOLDER_DOMAINS
from limen.model import Action, Finding, ReasonCode, Verdict
from limen.rules import rule
from limen.rules.secrets import action_texts, reaches_outside

# Four digits, or two capitals and two digits (`\d{4}|[A-Z]{2}\d\d`), written to start with a character set so
# the regex engine skips to candidate characters instead of trying both branches at every position.
_PREFILTER = re.compile(r"[\dA-Z](?:(?<=\d)\d{3}|(?<=[A-Z])[A-Z]\d\d)")
_CARD = re.compile(
    r"(?<![\d-])(?:\d{13,19}|\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{3})?|\d{4}([ -])\d{6}\2\d{4,5})(?![\d])"
)
_IBAN_START = re.compile(r"(?<![A-Za-z0-9])([A-Z]{2})(\d{2})(?=[ -]?[A-Z0-9])")
_SSN = re.compile(r"(?<![\d-])(\d{3})-(\d{2})-(\d{4})(?![\d-])")

# Arguments that name the counterparty rather than carry data to it.
_ADDRESS_KEYS = frozenset(
    {"iban", "recipient", "to", "payee", "beneficiary", "account", "account_number", "destination_account"}
    | {"routing_number", "bank_account"}
)

# Registered IBAN lengths (SWIFT IBAN registry).
IBAN_LENGTHS: dict[str, int] = {
    "AD": 24,
    "AE": 23,
    "AL": 28,
    "AT": 20,
    "AZ": 28,
    "BA": 20,
    "BE": 16,
    "BG": 22,
    "BH": 22,
    "BI": 27,
    "BR": 29,
    "BY": 28,
    "CH": 21,
    "CR": 22,
    "CY": 28,
    "CZ": 24,
    "DE": 22,
    "DJ": 27,
    "DK": 18,
    "DO": 28,
    "EE": 20,
    "EG": 29,
    "ES": 24,
    "FI": 18,
    "FK": 18,
    "FO": 18,
    "FR": 27,
    "GB": 22,
    "GE": 22,
    "GI": 23,
    "GL": 18,
    "GR": 27,
    "GT": 28,
    "HN": 28,
    "HR": 21,
    "HU": 28,
    "IE": 22,
    "IL": 23,
    "IQ": 23,
    "IS": 26,
    "IT": 27,
    "JO": 30,
    "KW": 30,
    "KZ": 20,
    "LB": 28,
    "LC": 32,
    "LI": 21,
    "LT": 20,
    "LU": 20,
    "LV": 21,
    "LY": 25,
    "MC": 27,
    "MD": 24,
    "ME": 22,
    "MK": 19,
    "MN": 20,
    "MR": 27,
    "MT": 31,
    "MU": 30,
    "NI": 28,
    "NL": 18,
    "NO": 15,
    "OM": 23,
    "PK": 24,
    "PL": 28,
    "PS": 29,
    "PT": 25,
    "QA": 29,
    "RO": 24,
    "RS": 22,
    "RU": 33,
    "SA": 24,
    "SC": 31,
    "SD": 18,
    "SE": 24,
    "SI": 19,
    "SK": 24,
    "SM": 27,
    "SO": 23,
    "ST": 25,
    "SV": 28,
    "TL": 23,
    "TN": 24,
    "TR": 26,
    "UA": 29,
    "VA": 22,
    "VG": 24,
    "XK": 20,
    "YE": 30,
}


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def card_issuer_valid(digits: str) -> bool:
    """An issuer prefix (IIN range) that exists for a card number of this length."""
    n = len(digits)
    two, four, six = int(digits[:2]), int(digits[:4]), int(digits[:6])
    if digits[0] == "4":
        return n in (13, 16, 19)  # Visa
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16  # Mastercard
    if two in (34, 37):
        return n == 15  # American Express
    if 300 <= int(digits[:3]) <= 305 or two in (36, 38, 39):
        return 14 <= n <= 19  # Diners Club
    if 3528 <= four <= 3589:
        return 16 <= n <= 19  # JCB
    if four == 6011 or 644 <= int(digits[:3]) <= 649 or two == 65 or 622126 <= six <= 622925:
        return 16 <= n <= 19  # Discover
    if two == 62 or 2200 <= four <= 2204:
        return 16 <= n <= 19  # UnionPay, Mir
    if two == 50 or 56 <= two <= 69:
        return 12 <= n <= 19  # Maestro and national debit schemes
    return digits[0] == "1" and n == 15  # UATP


def iban_valid(compact: str) -> bool:
    """Registered country length and the ISO 13616 mod-97 check."""
    if IBAN_LENGTHS.get(compact[:2]) != len(compact):
        return False
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


def _iban_at(text: str, start: int) -> tuple[str, int] | None:
    """The IBAN at `start` (compact, or grouped by four with one separator) and where it ends."""
    length = IBAN_LENGTHS.get(text[start : start + 2])
    if length is None:
        return None
    chars: list[str] = []
    sep: str | None = None
    i = start
    while i < len(text) and len(chars) < length:
        ch = text[i]
        if ch.isascii() and (ch.isdigit() or ch.isupper()):
            chars.append(ch)
            i += 1
            continue
        if ch in " -" and len(chars) % 4 == 0 and sep in (None, ch) and (sep is not None or len(chars) == 4):
            sep = ch
            i += 1
            continue
        return None
    if len(chars) < length or (i < len(text) and text[i].isascii() and text[i].isalnum()):
        return None
    return "".join(chars), i


def _ssn_valid(area: str, group: str, serial: str) -> bool:
    a = int(area)
    return (
        0 < a < 900
        and a != 666
        and group != "00"
        and serial != "0000"
        and f"{area}{group}{serial}"
        not in (
            "078051120",
            "219099999",  # published sample numbers
        )
    )


def data_classes_in(text: str) -> list[str]:
    """The labels of checksum-valid personal/financial values in `text` ("payment_card", "iban", "us_ssn")."""
    if not _PREFILTER.search(text):
        return []
    found: list[str] = []
    iban_spans: list[tuple[int, int]] = []  # IBAN-shaped, valid or not: their digit groups are no card
    for m in _IBAN_START.finditer(text):
        span = _iban_at(text, m.start())
        if span is not None:
            iban_spans.append((m.start(), span[1]))
            if iban_valid(span[0]) and "iban" not in found:
                found.append("iban")
    for m in _CARD.finditer(text):
        if any(s <= m.start() < e for s, e in iban_spans):
            continue  # digit groups inside an IBAN are not a card
        digits = re.sub(r"[ -]", "", m.group(0))
        if card_issuer_valid(digits) and luhn_valid(digits):
            found.append("payment_card")
            break
    if "-" in text:
        for m in _SSN.finditer(text):
            if _ssn_valid(*m.groups()):
                found.append("us_ssn")
                break
    if "rout" in text.lower() or "aba" in text.lower():
        for m in _ROUTING.finditer(text):
            # (labelled both ways, a number is read as one without its ABA check: made-up ones fail it)
            if _ACCOUNT_NEAR.search(text, max(0, m.start() - 80), m.end() + 80):
                found.append("bank_account")
                break
    return found


# A US bank's routing number (ABA RTN) where the text names it so, and an account number named so beside it
_ROUTING = re.compile(r"(?i)\b(?:routing|aba|rtn)(?:\s*(?:number|no\.?|#))?\s*[:=]?\s*(\d{9})(?!\d)")
_ACCOUNT_NEAR = re.compile(r"(?i)\b(?:acct|account)(?:\s*(?:number|no\.?|#))?\s*[:=]?\s*\d{4,17}\b")


# An email address, as written or URL-encoded (`ana%40acme.io` in a query)
_EMAIL = re.compile(r"[A-Za-z0-9._+-]{1,64}(?:@|%40)([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+)")
# Whom a message or an invitation is for: the addresses it is sent to are its use, not its content
_ADDRESSING_KEYS = frozenset(
    {"cc", "bcc", "recipients", "emails", "attendees", "invitees", "members", "from"}
)
_PEOPLE = 3  # addresses of this many people, at two domains or more, are a list of people


def _several_people(action: Action, ctx: Context) -> bool:
    """The email addresses of several people (three or more, at two domains or more) in a call to a host
    that is neither trusted nor an API that works for the user (`?emails=ana@acme.io,j@northwind.dev,...` to
    an enrichment site): a list of customers or contacts handed to a stranger; or, whatever the call reaches,
    three private people's addresses (at mail services anyone may sign up to) in what it says rather than
    whom it addresses. The user's own mail or marketing service given its recipients is its use."""
    texts = [t for t in action_texts(action) if "@" in t or "%40" in t]
    if not texts:  # (most calls name no address at all)
        return False
    from limen.facts.hosts import FREE_MAIL_DOMAINS, first_party_api
    from limen.model import HostClass
    from limen.rules.destinations import is_trusted

    to_stranger = any(
        d.host_class is HostClass.PUBLIC and not is_trusted(d.host, ctx) and not first_party_api(d.host)
        for d in action.destinations
    )
    addressed = {
        text
        for key, value in action.arguments.items()
        if key.lower() in _ADDRESS_KEYS | _ADDRESSING_KEYS
        for text in (value if isinstance(value, list) else [value])
        if isinstance(text, str)
    }
    addresses: set[str] = set()
    domains: set[str] = set()
    private: set[str] = set()
    for text in texts:
        for match in _EMAIL.finditer(text[:65536]):
            domain = match.group(1).lower()
            if PLACEHOLDER_DOMAINS.search(domain):
                continue
            address = match.group(0).lower().replace("%40", "@")
            addresses.add(address)
            domains.add(domain)
            if domain in FREE_MAIL_DOMAINS and text not in addressed:
                private.add(address)
    # (to anyone, a message's or a post's text that lists private people's own addresses, not whom it is for:
    # a list of customers pasted into a chat or an issue)
    return (to_stranger and len(addresses) >= _PEOPLE and len(domains) >= 2) or len(private) >= _PEOPLE


# What says a reply or a comment is shown to everyone (`public: true`, a store review's answer), and a phone
# number as people write one in international form
_PUBLIC_REPLY = re.compile(
    r"(?:^|_)(?:reply|replies|respond|response)_(?:to_)?reviews?(?:_|$)|(?:^|_)reviews?_(?:reply|response)"
)
_PHONE = re.compile(r"(?<![\w+])\+\d{1,3}[ .-]?(?:\(?\d{1,4}\)?[ .-]?){2,4}\d{2,4}(?![\w-])")


def _contacts_made_public(action: Action) -> str:
    """A post everyone can read (a ticket's public reply, a store review's answer) that gives someone's
    contact details: a private address (at a mail service anyone may sign up to), a phone number, or two or
    more people's addresses. "" for an internal note, and for a reply that names only the team's own
    address (`write to support@acme.io`)."""
    arguments = action.arguments
    flagged = arguments.get("public") is True or arguments.get("is_public") is True
    if not flagged and not (action.tool.startswith("mcp__") and "review" in action.tool.lower()):
        return ""  # (most calls: nothing says the text is shown to everyone)
    from limen.facts.hosts import FREE_MAIL_DOMAINS
    from limen.normalize.tools import words_of

    if not flagged and not _PUBLIC_REPLY.search(words_of(action.tool.split("__")[-1])):
        return ""
    texts = [t for t in action_texts(action) if len(t) >= 12]
    addresses = {m.group(0).lower() for t in texts for m in _EMAIL.finditer(t[:65536])}
    addresses = {a for a in addresses if not PLACEHOLDER_DOMAINS.search(a.rsplit("@", 1)[-1])}
    private = {a for a in addresses if a.rsplit("@", 1)[-1] in FREE_MAIL_DOMAINS}
    phones = any(_PHONE.search(t[:65536]) for t in texts)
    if private or phones or len(addresses) >= 2:
        return "people's contact details in a public reply"
    details = {kind for t in texts for kind, shape in _PERSONAL_DETAILS if shape.search(t[:65536])}
    if len(details) >= 2 and details & _PROOFS_OF_IDENTITY:
        return "a person's identity details in a public reply"
    return ""


# What identifies a person to a bank, an airline or a help desk, as a message writes it: a birth date, a
# passport's or a social security number, a card's last digits, a street address
_PERSONAL_DETAILS = (
    ("birth date", re.compile(r"(?i)\b(?:DOB|d\.o\.b\.|date of birth|born(?: on)?)\b[:\s]{0,3}\d")),
    ("passport", re.compile(r"(?i)\bpassport(?: (?:number|no\.?|#))?[:\s]{1,3}[A-Z0-9]{6,9}\b")),
    ("ssn", re.compile(r"(?i)\b(?:SSN|social security(?: number)?)\b[^\d\n]{0,20}\d{4}")),
    (
        "card",
        re.compile(
            r"(?i)\b(?:ending(?: in)?|last (?:4|four)(?: digits)?(?: of (?:the )?card)?)[:\s]{1,3}\d{4}\b"
        ),
    ),
    (
        "street address",
        re.compile(
            r"\b\d{1,5} [A-Z][a-z]+(?: [A-Z][a-z]+)? "
            r"(?:St|Street|Rd|Road|Ave|Avenue|Dr|Drive|Ln|Lane|Blvd|Way|Ct)\b"
        ),
    ),
)
_PROOFS_OF_IDENTITY = frozenset({"birth date", "passport", "ssn"})


# A date in the last century or the first years of this one, as records of people write a birth date
# (`1971-04-12`, `12/04/1971`, `12.04.1971`); what software records (releases, events, logs) is recent
_BIRTH_DATE = re.compile(
    r"(?<![\d-])(?:(?:19\d\d|200[0-5])-[01]\d-[0-3]\d|[0-3]?\d[./][01]?\d[./](?:19\d\d|200[0-5]))(?![\d-])"
)
_BIRTH_DATES = 3  # this many distinct such dates in one payload are a list of people


def _birth_dates(action: Action) -> bool:
    """Three or more distinct birth-date-like dates in what leaves (`DOE, JANE 000482913 DOB 1971-04-12`
    on each line of a message): the records of several people, whoever receives them."""
    found: set[str] = set()
    for text in action_texts(action):
        if "19" in text or "200" in text:
            found.update(_BIRTH_DATE.findall(text[:65536]))
    return len(found) >= _BIRTH_DATES


# A table's cells: comma-, tab-, pipe- or semicolon-separated fields on each line
_CELLS = re.compile(r"\s*[,\t|;]\s*")
_PERSON_NAME = re.compile(r"^(?:[A-Z][a-z]+|[A-Z]\.) [A-Z][a-zA-Z'-]+$|^[A-Z][a-z]+, [A-Z][a-z]+$")
_CELL_KINDS = (
    ("name", _PERSON_NAME),
    ("email", re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")),
    ("birth date", _BIRTH_DATE),
    ("phone", re.compile(r"^\+?\d[\d ().-]{7,16}\d$")),
    (
        "number",
        re.compile(r"^[$€£]?\d[\d,.]{3,15}$|^(?=[A-Za-z0-9-]{5,24}$)(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9-]+$"),
    ),
)
_TABLE_ROWS = 3  # records of this many people make a list of them


def _people_table(text: str) -> bool:
    """A table of people's records in what leaves: three or more lines with the same three or more cells,
    one column of people's names, addresses or birth dates and another of a second kind (a phone, a number,
    an address: `Maria Lopez,mlopez@northbridge.edu,52.0`, `name,base_salary` rows): a customer, student or
    staff list pasted into a chat, an issue or a mail. A table of services or build times names no one; a
    rota names people but holds nothing of theirs."""
    if text.count("\n") < 2:
        return False
    lines = [line.strip().strip("`") for line in text[:65536].splitlines() if line.strip().strip("`")]
    i = 0
    while i < len(lines):
        width = len(_CELLS.split(lines[i]))
        j = i + 1
        while j < len(lines) and j - i < 500 and len(_CELLS.split(lines[j])) == width:
            j += 1
        if width >= 3 and j - i >= _TABLE_ROWS:
            columns = list(zip(*(_CELLS.split(line) for line in lines[i:j]), strict=True))
            kinds = {
                kind
                for column in columns
                for kind, shape in _CELL_KINDS
                if sum(1 for cell in column if _is_kind(kind, shape, cell.strip("\"' "))) >= _TABLE_ROWS
            }
            if kinds & {"name", "email", "birth date"} and len(kinds) >= 2:
                return True
        i = j
    return False


def _is_kind(kind: str, shape: re.Pattern[str], cell: str) -> bool:
    """A cell of that kind; an address at a placeholder domain (`jane@example.com`) is a sample's."""
    if not shape.match(cell):
        return False
    return kind != "email" or not PLACEHOLDER_DOMAINS.search(cell.rsplit("@", 1)[-1].lower())


# A file named for people's identifiers or records (`exports/ssn_dob_report_q3.pdf`, `payroll_2025.csv`,
# `patients-export.xlsx`): a document or a table, by its name
_RECORDS_EXTENSIONS = (
    *(".pdf", ".csv", ".tsv", ".xls", ".xlsx", ".json"),
    *(".zip", ".doc", ".docx", ".txt", ".parquet"),
)
_RECORDS_FILE = re.compile(
    r"(?i)(?:^|[/_.-])(?:ssns?|social[_-]security|dobs?|dates?[_-]of[_-]birth|passports?|patients?|payroll"
    r"|salar(?:y|ies)|tax[_-]?ids?|medical|diagnos[a-z]*|kyc)(?:[_.-][^/\s]*)?(?:"
    + "|".join(re.escape(e) for e in _RECORDS_EXTENSIONS)
    + ")$"
)


def _records_to_personal_mail(texts: tuple[str, ...]) -> str:
    """A call (its texts) that hands over a file named for people's identifiers or records (an envelope's
    document, a mail's attachment) and addresses someone at a mail service anyone may sign up to: the records
    go to a private mailbox, outside the organisation's. The file's name, or ""."""
    from limen.facts.hosts import FREE_MAIL_DOMAINS

    files = [
        t
        for t in texts
        if len(t) < 512 and t[-5:].lower().endswith(_RECORDS_EXTENSIONS) and _RECORDS_FILE.search(t)
    ]
    if not files:
        return ""
    personal = any(
        match.group(1).lower() in FREE_MAIL_DOMAINS
        for text in texts
        if "@" in text
        for match in _EMAIL.finditer(text[:4096])
    )
    return files[0].rsplit("/", 1)[-1][:60] if personal else ""


# A patient's medical record number, named so (`MRN 7781204`, `MRN: 00412377`)
_MEDICAL_RECORD = re.compile(r"\bMRNs?\b\s*[:#]?\s*\d{5,12}\b")
# The codes that open a place (a door's, a gate's, a lockbox's, an alarm's), named so, and a code's shape
_ACCESS_CODE_WORDS = re.compile(
    r"(?i)\b(?:entry|door|gate|lock ?box|alarm|access|garage|master|building|keypad|unlock|key ?safe|padlock)"
    r"\s*(?:codes?|pins?|combinations?)\b"
)
# The codes that open accounts and keys: a PIN, a verification or one-time code, a passcode; each counted
# when it follows the word or the code before it closely (`SO PIN is 81730245, user PIN 5524`,
# `Verification codes: 482913 (ops-admin), 771204 (billing)`), a year aside
_ACCOUNT_CODE_WORDS = re.compile(
    r"\b(?:PINs?|[Vv]erification\s+codes?|[Oo]ne[- ]time\s+(?:codes?|passwords?)|OTPs?|[Pp]asscodes?"
    r"|[Ss]ecurity\s+codes?)\b"
)
_NEAR = 30  # characters between a code and the word or the code it follows
_MAY_NAME_CODES = re.compile(r"(?i)cod|pin|combin|otp")  # (a cheap look before the words are sought)
_CODE_SHAPED = re.compile(r"(?<![\d.,:/-])\d{4,8}(?![\d.,:/-]\d)")


def _access_codes(text: str) -> bool:
    """Two or more codes of places in one message (`Lockbox codes: 12 Elm 4471, 88 Oak 9902`, a list of a
    portfolio's entry codes), or of accounts and keys (`SO PIN is 81730245, user PIN 5524`): whoever reads it
    may open them all. One code sent to the one it is for (`Your door code is 418273`) is its use."""
    named = _ACCESS_CODE_WORDS.search(text[:65536])
    if named is not None and len(_CODE_SHAPED.findall(text, named.end(), named.end() + 600)) >= 2:
        return True
    codes: set[str] = set()
    for word in _ACCOUNT_CODE_WORDS.finditer(text[:65536]):
        last = word.end()
        for code in _CODE_SHAPED.finditer(text, last, last + 600):
            if code.start() - last > _NEAR:
                break
            if not re.fullmatch(r"(?:19|20)\d\d", code.group(0)):
                codes.add(code.group(0))
                last = code.end()
    return len(codes) >= 2


@rule(ReasonCode.PII_DATA_CLASS_EGRESS)
def pii_egress(action: Action, ctx: Context) -> Iterable[Finding]:
    """Card numbers (Luhn-valid), IBANs (checksum-valid), SSNs, US bank accounts (a routing number and an
    account number, each named so), several people's birth dates, a table of people's records, people's
    contact details in a reply everyone can read, medical record numbers and the codes of several doors, in
    an action that can reach an external destination: AUTH in every mode. Quiet: the payee's own IBAN or bank
    account of a transfer, numbers that fail their checksum, recent dates (releases, events), a rota or a
    sample's placeholder rows, local files, an internal note, one door's code."""
    if not reaches_outside(action):
        return []
    addressed = {v for k, v in action.arguments.items() if isinstance(v, str) and k.lower() in _ADDRESS_KEYS}
    labels: dict[str, None] = {}
    texts = action_texts(action)
    for text in texts:
        if "MRN" in text and _MEDICAL_RECORD.search(text):
            labels["a patient's medical record number"] = None
        if _MAY_NAME_CODES.search(text) and _access_codes(text):
            labels["the codes that open several doors, locks or accounts"] = None
        if text in addressed:
            continue  # the payee's IBAN of a transfer is where it goes, not data leaving
        for label in data_classes_in(text):
            labels[label] = None
    if records := _records_to_personal_mail(texts):
        labels[f"a file of people's records ({records}) for a personal mailbox"] = None
    if _several_people(action, ctx):
        labels["the email addresses of several people"] = None
    if contacts := _contacts_made_public(action):
        labels[contacts] = None
    if _birth_dates(action):
        labels["the birth dates of several people"] = None
    if any(_people_table(text) for text in action_texts(action) if "\n" in text):
        labels["a table of people's records"] = None
    if not labels:
        return []
    return [
        Finding(
            ReasonCode.PII_DATA_CLASS_EGRESS,
            Verdict.AUTH,
            70,
            f"{', '.join(sorted(labels))} in an outbound payload",
        )
    ]
