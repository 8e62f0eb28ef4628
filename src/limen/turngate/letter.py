"""A letter between people: who the requests of a text are for when nothing in it turns to an AI.

(A numbered procedure of three steps or more, a README's set-up or a runbook, a page of questions and
answers (a FAQ) and a program's diagnostic ("Error 401: ... sign in again") are read the same way: their
steps, answers and advice are for the person who reads them.)

A letter opens with a greeting to a person or a group ("Hi Marco,", "Sehr geehrte Frau Albers,", "Dzień
dobry,", "各位同事：") or closes with a sign-off ("Kind regards,", "Mit freundlichen Grüßen", "С уважением").
Its requests (pay this invoice, send the contract to legal@..., delete the old drafts) are for the person it
is written to, in whatever language: the verbs of moving, paying and deleting say nothing about the agent
that happens to read the mailbox. So in a letter, and only where nothing in it turns to an AI or to whoever
processes the text, the turn gate does not read those verbs as orders to the agent (`heuristics.py` skips its
verb shapes, `__init__.py` the task-drift screen's action requests).

Three things stay suspicious in any letter, because people rarely ask them of each other by mail: moving
everything at once ("forward all emails in this mailbox", "tüm kişileri"), passing on a secret (a
password, one-time codes, an API key), and personal data (payroll, salaries, passports, bank statements).
"""

from __future__ import annotations

import re

from limen.prefilter import prefiltered

# Header lines a mail or a ticket carries before its greeting.
_HEADER = re.compile(
    r"^\s*(?:from|to|cc|date|sent|subject|re|fw|fwd|von|an|betreff|datum|de|para|asunto|fecha|objet|à|date"
    r"|da|a|oggetto|assunto|van|aan|onderwerp|od|do|temat|от|кому|тема|主题|发件人|收件人|件名|差出人|宛先|제목"
    r"|보낸 사람|받는 사람|konu|kimden|kime|ämne|från|till)\s?[:：]",
    re.IGNORECASE,
)
# A greeting that opens a line: to a person, a group or nobody in particular (never to an AI: checked apart).
_GREETING = re.compile(
    r"^\W{0,3}(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|greetings|hallo|hi|liebe[rs]?"
    r"|sehr geehrte[rs]?|guten (?:morgen|tag|abend)|moin|servus|hola|estimad[oa]s?|querid[oa]s?"
    r"|buen[oa]s (?:días|tardes|noches)|bonjour|bonsoir|madame|monsieur|cher|chère|chers|salut|ciao|caro|cara"
    r"|cari|gentile|gentili|egregio|buongiorno|buonasera|olá|ola|oi|prezad[oa]s?|car[oa]s?|bom dia|boa tarde"
    r"|beste|geachte|hoi|goedemorgen|goedemiddag|dzień dobry|szanown\w+|witam|cześć|drog[iae]|добрый (?:день"
    r"|вечер)|доброе утро|здравствуй\w*|уважаем\w+|привет|коллеги|merhaba|sayın|selam|iyi günler|hej|hejsan"
    r"|god morgon|tjena|尊敬的|亲爱的|各位|您好|你好|大家好|お疲れ様|拝啓|いつもお世話"
    r"|안녕하세요|안녕|친애하는)\b"
    r"|^[^\n]{1,30}(?:様|さん|殿|先生|님|씨)[、,\s]*$",
    re.IGNORECASE,
)
# A sign-off that closes the letter.
_SIGN_OFF = re.compile(
    r"^\W{0,3}(?:best|best regards|kind regards|regards|warm regards|many thanks|thanks|thank you|cheers"
    r"|sincerely|yours(?: sincerely| truly| faithfully)?|all the best|talk soon|see you"
    r"|mit freundlichen grüßen"
    r"|freundliche grüße|viele grüße|beste grüße|liebe grüße|grüße|gruß|lg|vg|atentamente|saludos|un saludo"
    r"|cordialmente|muchas gracias|gracias|cordialement|bien à vous|bien cordialement|merci|amicalement"
    r"|cordiali saluti|distinti saluti|saluti|grazie|un saluto|atenciosamente|abraços|obrigad[oa]"
    r"|cumprimentos|met vriendelijke groet(?:en)?|vriendelijke groet(?:en)?|groetjes|groeten|z poważaniem"
    r"|pozdrawiam|pozdrowienia|dziękuję|с уважением|спасибо|всего доброго|saygılarımızla|saygılarımla"
    r"|teşekkürler|iyi çalışmalar|vänliga hälsningar|med vänlig hälsning|hälsningar|mvh|tack|此致|敬礼|谢谢"
    r"|祝好|よろしくお願い(?:いたし|致し)?ます|以上|敬具|감사합니다|고맙습니다)\b",
    re.IGNORECASE,
)
# Anything that names an AI reader or the processor of the text: then the letter may be speaking to it.
_AI_READER = re.compile(
    r"\b(?:ai|a\.i\.|ki|ia|llm|gpt\w*|chatgpt|claude|gemini|copilot|chatbot|bot|bots|assistant|assistants"
    r"|agent|agents|model|language model|sprachmodell|ии|ассистент\w*|бот|asistan\w*|asystent\w*|assistent\w*"
    r"|asistente|assistente|agente|whoever|automat\w+)\b|助手|人工智能|智能体|机器人|アシスタント|エージェント"
    r"|어시스턴트|에이전트|챗봇|봇",
    re.IGNORECASE,
)
# Everything moved at once, or a secret: suspicious whoever is asked.
_BULK_OR_SECRET = prefiltered(
    r"\b(?:all|every|each|entire|whole|alle|sämtliche|todos|todas|tous|toutes|tutti|tutte|wszystkie"
    r"|wszystkich|все|всех|всю|tüm|bütün|alla)\b(?:\s[\w'-]+){0,3}?\s(?:e-?mails?|mails|messages?|files?"
    r"|contacts?|documents?|attachments?|records?|data|inbox|mailbox|conversations?|chats?|photos?|invoices"
    r"|nachrichten|dateien|kontakte|dokumente|correos|mensajes|archivos|contactos|courriels|fichiers"
    r"|messaggi|contatti|mensagens|arquivos|contatos|berichten|bestanden|wiadomości|pliki|plików|kontakty"
    r"|письма|сообщения|файлы|контакты|e-postalar\w*|dosyalar\w*|kişiler\w*|filer|kontakter|meddelanden)\b"
    r"|所有(?:的)?(?:邮件|文件|联系人|消息)|全部(?:的)?(?:邮件|文件|联系人)|すべての(?:メール|ファイル|連絡先)"
    r"|모든 (?:메일|이메일|파일|연락처)"
    r"|\b(?:passwords?|passcodes?|credentials?|api[ -]?keys?|access tokens?|private keys?|recovery codes?"
    r"|one-time (?:codes?|passwords?)|otp|2fa codes?|verification codes?|security codes?|cvv|card numbers?"
    r"|passwort\w*|kennwort\w*|zugangsdaten|contraseñas?|mots? de passe|senhas?|wachtwoord\w*|hasło|hasła"
    r"|пароль|пароли|паролей|şifre\w*|lösenord\w*)\b|密码|验证码|パスワード|暗証番号|비밀번호"
    # personal data a payroll or an identity is made of
    r"|\b(?:payroll|payslips?|salary|salaries|passports?|social security|ssn|bank statements?|tax returns?"
    r"|medical records?|gehalt\w*|lohn\w*|nóminas?|salarios?|salaires?|fiches? de paie|stipendi\w*|buste paga"
    r"|salários?|holerites?|salaris\w*|loonstro\w*|wynagrodze\w*|зарплат\w*|maaş\w*|bordro\w*|lönebesked"
    r"|löner?)\b|工资|薪资|薪水|給与|給料|급여|월급",
    re.IGNORECASE,
)
_LINES_AROUND = 3  # how many non-empty lines from the start (past headers) and the end are read
# A numbered step of a procedure (a README's set-up, a runbook): its reader carries it out.
_STEP = re.compile(r"^[ \t]*\d{1,2}[.)][ \t]+\S", re.MULTILINE)
_MIN_STEPS = 3
# A JSON string value: a ticket's or a message's body is a letter of its own.
_JSON_VALUE = re.compile(r'"\s?:\s?"((?:[^"\\]|\\.){1,20000})"')
# A support ticket's turns: a customer's, and a person's who answers for the company.
_CUSTOMER_TURN = re.compile(
    r"^\W{0,3}(?:customer|client|kunde|kundin|cliente|клиент|müşteri|kund|klient|顾客|客户|お客様|고객)\s?[:：]",
    re.IGNORECASE | re.MULTILINE,
)
_STAFF_TURN = re.compile(
    r"^\W{0,3}(?:agent|support|staff|rep|mitarbeiter\w*|agente|asesor\w*|conseill\w+|operatore|atendente"
    r"|medewerker|konsultant\w*|оператор|специалист|temsilci|handläggare|客服|担当者?|상담원)\s?[:：]",
    re.IGNORECASE | re.MULTILINE,
)


def between_people(text: str) -> bool:
    """Whether `text` is a letter between people: a greeting opens it or a sign-off closes it (or a JSON
    value of it: a ticket's body), or it is a support ticket's turns between a customer and the company's
    staff; nothing in it names an AI or the processor of the text, and it moves nothing wholesale, no
    secret and no personal data."""
    if not text or len(text) > 20_000:
        return False
    # the layout first (a few lines are read), then the whole text for what no letter may carry
    ticket = ":" in text and bool(_CUSTOMER_TURN.search(text) and _STAFF_TURN.search(text))
    if (
        not ticket
        and not _greeted_or_signed(text)
        and len(_STEP.findall(text)) < _MIN_STEPS
        and not faq(text)
        and not _DIAGNOSTIC.match(text)
    ):
        json_like = text.lstrip()[:1] in ("{", "[")
        bodies = [m.group(1).replace("\\n", "\n") for m in _JSON_VALUE.finditer(text)] if json_like else []
        if not any(_greeted_or_signed(body) for body in bodies):
            return False
    if _BULK_OR_SECRET.search(text):
        return False
    # the support person's label is no AI reader
    return not _AI_READER.search(_STAFF_TURN.sub("", text) if ticket else text)


# A page of questions and answers: a heading that says so, or two questions each answered by what follows.
_FAQ_HEADING = re.compile(
    r"^\W{0,3}(?:faqs?|frequently asked questions|common questions|q ?& ?a|häufige fragen"
    r"|häufig gestellte fragen|preguntas frecuentes|foire aux questions|questions fréquentes"
    r"|domande frequenti|perguntas frequentes"
    r"|veelgestelde vragen|veel gestelde vragen|najczęstsze pytania|często zadawane pytania|частые вопросы"
    r"|часто задаваемые вопросы|常见问题|常見問題|よくある質問|자주 묻는 질문|sıkça sorulan sorular"
    r"|vanliga frågor"
    r"|pertanyaan umum|الأسئلة الشائعة)\b",
    re.IGNORECASE | re.MULTILINE,
)
# A program's diagnostic: its first line names an error or a warning ("Error 403: Access denied.",
# "Erro 401: sessão expirada."); what it tells to do is for whoever runs the program.
_DIAGNOSTIC = re.compile(
    r"\s*\W{0,3}(?:error|erro|erreur|errore|fehler|fout|fel|błąd|ошибка|помилка|hata|错误|錯誤|エラー|오류|warning"
    r"|warnung|avertissement|aviso|avviso|ostrzeżenie|предупреждение|uyarı|varning|waarschuwing|警告)"
    r"\b[^\n]{0,40}?[:：]",
    re.IGNORECASE,
)
_QA_LABEL = re.compile(r"^\W{0,3}(?:q|a)\s?[:.]", re.IGNORECASE | re.MULTILINE)
# a question, then its answer on the same line ("How do I ...? Open Settings ...")
_QUESTION_ANSWERED = re.compile(r"[?？]\s+\S[^?？]{7,}")


def advice(text: str) -> bool:
    """A FAQ or a program's diagnostic: everything it asks is advice to its reader."""
    return faq(text) or _DIAGNOSTIC.match(text) is not None


def faq(text: str) -> bool:
    """A page of questions and answers: its questions are its readers', its answers tell them what to do."""
    if _FAQ_HEADING.search(text, 0, 400):
        return True
    # labelled questions and answers ("Q: ... A: ..."), two of them answered: the cheap tests first
    if text.count("?") + text.count("？") < 2 or not _QA_LABEL.search(text):
        return False
    return sum(1 for line in text.splitlines() if _QUESTION_ANSWERED.search(line)) >= 2


def _greeted_or_signed(text: str) -> bool:
    """Laid out as a letter: a greeting on a line of its own or a sign-off on a line of its own, around a
    body. A message of one or two lines with a greeting in it ("Hello, this is Mark from finance, would
    you transfer ...") is a request with a few words around it, judged as the request."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) < 3:
        return False
    opening = [line for line in lines[: _LINES_AROUND + 4] if not _HEADER.match(line)][:_LINES_AROUND]
    greeted = any(_GREETING.match(line) and len(line) <= 60 and len(line.split()) <= 6 for line in opening)
    return greeted or any(_SIGN_OFF.match(line) and len(line) <= 40 for line in lines[-_LINES_AROUND:])


# A request to act, in a sentence of a letter: the reader is asked to do something (not to write, explain
# or answer, which is what a task planted for an assistant asks).
_READER_ACTION = re.compile(
    r"\b(?:send|forward|pay|transfer|wire|sign|return|confirm|book|bring|submit|review|update|delete|remove"
    r"|call|contact|reply|check|complete|fill|upload|share|schedule|cancel|order|print|approve|rotate|reset"
    r"|arrive|join|attend|register|renew|settle|deliver|ship|reimburse|invoice"
    r"|senden|schicken|weiterleiten|überweisen|bezahlen|unterschreiben|bestätigen|buchen|löschen|prüfen"
    r"|zurücksenden|abgeben|enviar|envía|enviad|reenviar|pagar|transferir|firmar|confirmar|reservar|borrar"
    r"|revisar|actualizar|envoyer|transférer|payer|signer|confirmer|réserver|supprimer|vérifier|virement"
    r"|inviare|inoltrare|pagare|firmare|confermare|prenotare|cancellare|bonifico|encaminhar|pagar|assinar"
    r"|reservar|apagar|versturen|sturen|doorsturen|betalen|ondertekenen|bevestigen|boeken|verwijderen"
    r"|overmaken|przesłać|wysłać|zapłacić|przelać|podpisać|potwierdzić|usunąć|отправить|переслать"
    r"|оплатить|перевести|подписать|подтвердить|удалить|прислать|göndermek|gönder\w*|ödeme\w*|ilet\w*"
    r"|skicka|betala|signera|bekräfta|boka|radera|ta bort"
    r"|e-?mail|mail|post|notify|restart|run|install|download|copy|move|open|click|log in|page|drain)\b"
    r"|发送|转发|付款|支付|汇款|签署|确认|预订|删除|提交|送付|転送|支払|振込|署名|確認|予約|削除|提出|보내|전달|결제|송금|서명"
    r"|확인|예약|삭제|제출",
    re.IGNORECASE,
)


def reader_action(sentence: str) -> bool:
    """Whether a sentence of a letter asks its reader to act (pay, send, sign, delete, book ...)."""
    return _READER_ACTION.search(sentence) is not None


# A request whose subject is a third person ("Can a maintainer close this issue?", "Kann jemand ...",
# "¿Puede alguien ...?"): asked of someone else, not of the reader, let alone of the agent reading it.
_ASKED_OF_SOMEONE_ELSE = re.compile(
    r"^\W{0,3}(?:\w+[,:]\s)?(?:(?:can|could|would|will|may)\s(?:a\s|the\s|some\s|any\s|one of the\s|our\s)?"
    r"(?:maintainers?|admins?|administrators?|reviewers?|moderators?|developers?|devs?|someone|somebody|anyone"
    r"|anybody|owners?|colleagues?|members?|folks|people)\b"
    r"|(?:someone|somebody|anyone|anybody)\s(?:please\s)?(?:can|could|should|must|needs? to)\b"
    r"|kann\s(?:bitte\s)?(?:jemand|ein\w*\s(?:maintainer|admin)\w*)\b|könnte\s(?:bitte\s)?jemand\b"
    r"|¿?(?:puede|podría|pueden|podrían)\s(?:alguien|algún|algun)\b|quelqu'un\s(?:peut|pourrait)\b"
    r"|qualcuno\s(?:può|potrebbe)\b|alguém\s(?:pode|poderia)\b|kan\s(?:iemand|een\s(?:beheerder|maintainer))\b"
    r"|czy\s(?:ktoś|ktos)\b|(?:может|могли бы)\s(?:кто-нибудь|кто-то)\b|кто-нибудь\s(?:может|сможет)\b"
    r"|kan\snågon\b|biri\b|birisi\b|有人能|有没有人|谁能|誰か|누가|누군가)",
    re.IGNORECASE,
)


def asked_of_someone_else(sentence: str) -> bool:
    """Whether a request's subject is a third person ("Can a maintainer close this issue?")."""
    return _ASKED_OF_SOMEONE_ELSE.search(sentence) is not None
