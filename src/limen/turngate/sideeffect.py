"""A requested side effect: a sentence in untrusted content that asks whoever processes it to *do* something
with consequences (send, forward, pay, delete, grant, share, run, install, disable, reveal) to a concrete
*target* (a mailbox, a URL, an account number, a sum of money, a file, a credential, a permission, everything
of a kind), and that is turned towards the agent rather than a human reader.

The shape is structural, in three parts read from small multilingual role tables kept here in one place:

- ACTION: a verb of side effect (`_ACTION_WORDS`, stems read at a word start; `_ACTION_PARTS`, read anywhere,
  for scripts that do not put spaces between words or whose words \\b cannot cut: Chinese, Japanese,
  Korean, Thai, Hindi);
- TARGET: what the action lands on (`_TARGET`: an address, a URL, an IBAN, a long account number, an amount
  with its currency, a path; `_SENSITIVE`: credentials, permissions, personal data; `_ALL`: "all", "every",
  "the whole" in each language);
- DIRECTION: why the request is for the agent and not for a person reading a letter:
  * an AI named as the addressee or the one who processes the text, in the sentence or the line before it
    ("AI assistant reading this, ...", "Note for the bot:", "whoever is summarising this thread");
  * the user named in the third person next to an order ("the user's", "des Nutzers", "ユーザーの"): a
    text written to a human does not speak of "the user" to them; one written to the user's agent does;
  * a line opening with the user's turn label ("User:", "Usuário:", "사용자:"): a fake turn of the agent's
    own conversation;
  * the text declaring the task changed ("the task above is outdated", "new objective:", "nuova attività").

All three are needed, in one sentence (the direction may sit in the line or sentence before it). A negated
action ("never paste your key", "nie udostępniaj") and a person's how-to question ("How do I stop my AI
from forwarding ...?") do not count. Raise-only: the finding is AUTH (Tier 1), never BLOCK, and it only
adds to what the other tiers found.
"""

from __future__ import annotations

import re

from limen.prefilter import prefiltered
from limen.turngate import addressee
from limen.turngate.addressee import AI_NOUN

# --- ACTION ------------------------------------------------------------------------------------------------
# Stems, matched at a word start (the rest of the word is free), one language a line.
# English verbs of side effect, as whole words with their inflections.
_ACTION_EN = (
    "send|sending|forward|e-?mail|mail|transfer|wire|pay|remit|delete|remove|erase|wipe|purge|grant|"
    "give|share|upload|post|publish|leak|export|copy|paste|print|reveal|disclose|display|list|output|"
    "run|execute|install|download|disable|deactivate|turn off|switch off|approve|merge|push|refund|"
    "buy|purchase|order|accept|change|reset|rotate|add|create|move|invite|bcc|cc|submit|transmit|"
    "navigate|confirm|uninstall|dm|message|include|append|attach|set|open|expose|dump|exfiltrate|"
    "fetch|visit|load|ping|browse|archive|unsubscribe|"
    "write|leave|book|cancel|subscribe|issue|mark|assign|escalate|close|update|apply|tell|say|"
    "recommend|classify|report|state|claim|mention|assert"
)
# Stems of five letters or more in the other languages, matched at a word start.
_ACTION_STEMS = (
    "schick|sende|weiterleit|weiterzuleit|zuleiten|leite|überweis|bezahl|lösch|entfern|gewähr|erteil|"
    "freigeb|hochlad|veröffentlich|exportier|kopier|ausführ|installier|deaktivier|genehmig|"
    "übermittel|änder|eintrag|bestätig|bewert|empfehl|übertrag|verschieb|transf[eé]r|transmet|règle|"
    "régl|supprim|effac|accord|partag|publi|export|exécut|install|désactiv|approuv|affich|révél|"
    "ajout|modifi|rembours|achet|command|recommand|reenv|transfier|elimin|suprim|otorg|conced|"
    "d[ae]le|compart|sub[ei]|public|ejecut|inclu|instal|desactiv|aprob|muestr|revel|agreg|cambi|"
    "reembols|compr|encaminh|transfer|exclu|remov|compartilh|partilh|carreg|execut|desativ|aprov|"
    "mostr|adicion|alter|inoltr|trasfer|bonific|cancell|concedi|assegn|condivid|caric|pubblic|esport|"
    "esegu|disattiv|approv|rivel|aggiung|modific|rimbors|acquist|cambia|scriv|escrev|escrib|recomend|"
    "raccomand|consigl|stuur|verstuur|doorstu|overmak|betaal|verwijder|publiceer|exporteer|kopieer|"
    "installeer|schakel|wijzig|skicka|vidarebefordra|överför|betala|radera|publicera|exportera|"
    "kopiera|installera|inaktivera|godkänn|klistra|ändra|wyślij|prześl|przelej|zapłać|skasuj|nadaj|"
    "przyznaj|udostępn|opublikuj|eksportuj|skopiuj|kopiuj|uruchom|wykonaj|zainstaluj|wyłącz|"
    "zatwierdź|pokaż|wypisz|wklej|dodaj|zmień|przekaż|přepošl|převeď|zaplať|odstraň|sdílej|nahraj|"
    "zveřejni|zkopíruj|spusť|nainstaluj|vypni|schval|vypiš|zobraz|přidej|gönder|aktar|paylaş|yükle|"
    "yayınla|kopyala|çalıştır|onayla|göster|yapıştır|değiştir|отправ|пошли|перешл|пересл|переведи|"
    "перевест|оплат|заплат|сотри|предостав|подели|загруз|опубликуй|экспорт|скопируй|запуст|выполн|"
    "установ|отключ|одобр|покажи|выведи|вставь|добав|измени|надішл|надісл|переказ|сплат|видал|поділ|"
    "завантаж|опублікуй|скопіюй|встанов|вимкн|затверд|виведи|встав|зміни|kirim|teruskan|bayar|hapus|"
    "berikan|bagikan|unggah|publikasikan|ekspor|salin|jalankan|nonaktifkan|setujui|tampilkan|"
    "tambahkan|transferkan|ipadala|pakipadala|padala|ipasa|pakipasa|ilipat|bayaran|magbayad|burahin|"
    "tanggalin|ibigay|ibahagi|ipakita|idagdag|palitan|peleka|hamisha|shiriki|pakia|onyesha|ongeza|"
    "badilisha|chuyển|στείλ|στέιλ|προώθη|μεταφέρ|πλήρω|διέγραψ|διάγραψ|εμφάνισ|μοιράσ|ανέβασ|εκτέλεσ|"
    "εγκατάστησ|απενεργοποίη|έγκρινε|πρόσθεσ|άλλαξ|αλλάξ|trimit|redirecțion|plate|șterg|acord|partaj|"
    "încarc|copiaz|rulea|instalea|dezactiv|afișe|adaug|lähetä|välitä|siirrä|maksa|poista|myönnä|"
    "lataa|julkaise|kopioi|suorita|asenna|hyväksy|näytä|lisää|muuta|إرسال|ارسال|تحويل|بفرست|منتقل|"
    "انتقال|پرداخت|آپلود|منتشر|غیرفعال|تأیید|نمایش|اضافه|تغییر"
)
# Short words in the other languages, matched whole (a stem this short would open other words).
_ACTION_SHORT = (
    "send|zahl|teil|lade|führ|gib|zeig|trag|post|füg|envo|pai|pay|donn|copi|lanc|envi|pag|borr|añad|"
    "apag|invi|maak|wis|geef|deel|voer|keur|toon|plak|voeg|ta bort|dela|ladda upp|kör|visa|lägg|wysł|"
    "płać|usuń|daj|pošl|smaž|uděl|vlož|změň|ilet|öde|sil|ver|kur|devre dışı|ekle|удал|выда|дай|нада|"
    "дода|beri|ubah|tuma|lipa|futa|toa|gửi|thanh toán|trả|xóa|xoá|cấp|chia sẻ|tải lên|đăng|xuất|"
    "sao chép|chạy|cài đặt|tắt|phê duyệt|hiển thị|thêm|đổi|thay đổi|δώσ|plăt|anna|jaa|أرسل|ارسل|يرسل|"
    "حوّل|حول|ادفع|دفع|احذف|حذف|امنح|منح|شارك|ارفع|انشر|انسخ|شغّل|نفذ|نفّذ|ثبّت|عطّل|وافق|اعرض|عرض|"
    "أضف|غيّر|فرست|پاک|اعطا|بده|کپی|اجرا|نصب|שלח|העבר|מחק|הענק|תן|שתף|העלה|פרסם|העתק|הרץ|התקן|השבת|"
    "אשר|הצג|הוסף|שנה|שלם"
)
# Read anywhere: scripts without spaces between words, or whose vowel signs break \b.
_ACTION_PARTS = (
    "发送|发到|发给|转发|转账|汇款|支付|付款|删除|授予|赋予|给予|分享|共享|上传|发布|导出|复制|运行|执行|安装"
    "|禁用|关闭|批准|显示|输出|添加|修改|更改|退款|购买|下单|写一条|推荐|转给|提供"
    "|送信|送っ|送付|送る|転送|振り込|振込|支払|削除|付与|共有|アップロード|投稿|公開|エクスポート|コピー"
    "|実行|インストール|無効|承認|表示|追加|変更|返金|購入|入力|教え"
    "|보내|전송|전달|송금|이체|결제|삭제|지워|부여|공유|업로드|게시|내보내|복사|실행|설치|비활성|승인|표시"
    "|보여|추가|변경|환불|구매|입금|처리"
    "|ส่ง|โอน|ชำระ|จ่าย|ลบ|ให้สิทธิ์|แชร์|อัปโหลด|เผยแพร่|คัดลอก|เรียกใช้|ติดตั้ง|ปิด|อนุมัติ|แสดง|เพิ่ม|เปลี่ยน"
    "|भेज|फॉरवर्ड|ट्रांसफर|भुगतान|हटा|मिटा|डिलीट|साझा|शेयर|अपलोड|प्रकाशित|कॉपी|चला|इंस्टॉल|बंद कर|मंज़ूर"
    "|मंजूर|दिखा|लिख|जोड़|बदल|export|bhej|de do|share|delete"
)
_ACTION = re.compile(
    rf"(?<![\w-])(?:(?:{_ACTION_EN})(?![\w-])|(?:{_ACTION_STEMS})|(?:{_ACTION_SHORT})\w{{0,3}}(?!\w))"
    rf"|(?:{_ACTION_PARTS})",
    re.IGNORECASE,
)
_ACTION_ENGLISH = re.compile(rf"(?<![\w-])(?:{_ACTION_EN})(?![\w-])", re.IGNORECASE)
# A sentence written in English (one of its commonest function words, and none of another language's): only
# English verbs are read there, so that "page", "very" or "delay" are not read as another language's verb
# ("pag-", "ver", "dela").
_ENGLISH_WORDS = re.compile(r"\b(?:the|and|of|with|for|that|this|you|your|are|it|is)\b", re.IGNORECASE)
_OTHER_WORDS = re.compile(
    r"\b(?:der|das|und|nicht|ist|el|los|las|una|por|para|les|une|et|est|pas|il|che|della|het|een|och|att"
    r"|się|nie|oraz|bir|ve|için|yang|dan|untuk|và|của|ku|na|ya|da|de|la|le|en|es|se|um|uma|não)\b",
    re.IGNORECASE,
)

# --- TARGET ------------------------------------------------------------------------------------------------
_TARGET = re.compile(
    r"[\w.+-]+@[\w-]+\.[\w.-]+"  # a mailbox
    r"|https?://|\bwww\.|\b[\w-]+\.(?:com|net|org|io|co|biz|info|example|xyz|ru|cn|de|fr|cc|dev|help|app)\b/"
    r"|\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,}"  # an IBAN
    r"|\d[\d .-]{6,}\d"  # an account, card or phone number
    r"|[$€£¥₹₩₺]\s?\d|\d[\d.,\s]*\s?(?:€|eur\b|usd\b|dollars?|euros?|zł|pln|kr\b|sek\b|tl\b|lei\b|vnd\b"
    r"|руб|грн|₫|円|万|元|원|บาท|₹|rs\.?\b)|\brp\.? ?\d"
    r"|(?:^|\s)(?:~/|/etc/|/srv/|/mnt/|/var/|/home/|\./|[a-z]:\\)|\.env\b|\.ssh\b|id_(?:rsa|ed25519)"
    r"|(?<![\w])@[\w-]+",  # a handle
    re.IGNORECASE,
)
_SENSITIVE = prefiltered(
    # credentials
    r"password|passcode|passphrase|\bpin\b|api[ _-]?keys?|private key|ssh|secret|token|credential|cookie"
    r"|backup codes?|2fa|two-factor|recovery code|seed phrase|system prompt|env(?:ironment)? var"
    r"|passwort|kennwort|schlüssel|zugangsdaten|contraseña|credencial|mot de passe|\bclé|chiave|credenzial"
    r"|senha|\bchave|wachtwoord|sleutel|lösenord|nyckel|hasło|hasł|klucz|şifre|parola|anahtar|пароль|ключ"
    r"|токен|heslo|klíč|kata sandi|sandi|mật khẩu|khóa|كلمة المرور|كلمات المرور|مفتاح|पासवर्ड|कुंजी|密码"
    r"|密钥|令牌|パスワード|鍵|キー|トークン|비밀번호|토큰|인증서|κωδικ|κλειδ|salasan|avain|סיסמ|מפתח"
    r"|رمز|کلید|รหัสผ่าน|nenosiri|cheie|parol"
    # permissions
    r"|admin|administrat|\broot\b|sudo|access|permission|privilege|\brights\b|\brole\b|deploy key"
    r"|rechte|zugriff|acceso|permiso|accès|droits|accesso|permess|acesso|permiss|rechten|toegang|behörighet"
    r"|åtkomst|uprawnie|dostęp|yetki|erişim|права|доступ|oprávnění|přístup|akses|quyền|صلاحي|अधिकार|权限"
    r"|管理员|権限|管理者|권한|관리자|δικαιώματα|drepturi|oikeud|הרשא|دسترسی|สิทธิ์"
    # personal and business data
    r"|contact|customer|client|payroll|salary|salaries|invoice|bank|card|iban|address|phone|calendar"
    r"|history|transcript|recording|inbox|mailbox|emails|messages|files|folder|directory|repository|repo\b"
    r"|database|backup|firewall|antivirus|account|spreadsheet|contract|review|refund|discount|gift card"
    r"|kunden|rechnung|konto|bewertung|datei|ordner|daten|factur|fattur|faktur|fatur|ankara|invoice|cuenta"
    r"|conta|compte|conto|rekening|konto|rachun|hesab|счёт|счет|рахун|účet|rekening|tài khoản|حساب|खाता"
    r"|账户|账号|口座|계좌|λογαριασμ|cont\b|tili|חשבו|بانکی|บัญชี|dossier|archivo|cartell|pasta|map\b"
    r"|mapp|folder|klasör|папк|složk|thư mục|مجلد|फ़ोल्डर|फोल्डर|文件|フォルダ|폴더|φάκελ|kansio|תיקי|پوشه"
    r"|โฟลเดอร์|email|e-mail|correo|courriel|posta|mejl|poczt|посылк|почт|ایمیل|البريد|ईमेल|邮件|メール|메일"
    r"|connexion|datos|dados|dati|gegevens|uppgifter|dane|veri|данные|дані|údaje|data|dữ liệu|بيانات|डेटा"
    r"|数据|データ|데이터|δεδομένα|date\b|tiedot|נתונים|داده|ข้อมูล|review|レビュー|评价|好评|리뷰|星5|五星",
    re.IGNORECASE,
)
_ALL = prefiltered(
    r"\b(?:all|every|entire|whole|full|alle[snm]?|sämtliche\w*|gesamte\w*|todos|todas|toda|todo|tous|toutes"
    r"|tutt[ieao]|alla|allt|wszystk\w*|cał\w+|tüm|bütün|все|всё|весь|всю|всі|усі|všechn\w*|semua|seluruh"
    r"|toàn bộ|tất cả|όλ\w+|toate|tot|kaikki|zote|lahat|hele|volledige)\b"
    r"|جميع|كل |सभी|सारे|सारी|所有|全部|すべて|全て|모든|전부|כל |همه|ทั้งหมด",
    re.IGNORECASE,
)

# --- DIRECTION ---------------------------------------------------------------------------------------------
# Whoever processes the text, named without naming an AI ("whoever is summarising this", "any tool reading").
_PROCESSOR = (
    r"(?:who|what)ever (?:\(or \w+\) )?(?:is )?(?:read|process|summar|handl|pars|analy|review|listen|index)"
    r"|(?:any|the|every) (?:\w+ ){0,2}(?:tool|system|program|software|notetaker|note-taker|summari[sz]er"
    r"|assistant|agent|model|reviewer|screener|recruiter|parser)s? "
    r"(?:(?:that|which|who) (?:is |are )?|is |are )?"
    r"(?:reading|processing|summari[sz]ing|handling|parsing|analy[sz]ing|reviewing|listening|indexing|assigned"
    r"|working)"
    r"|(?:any|the|every) (?:\w+ ){0,2}(?:tool|system|program|software|notetaker|note-taker|summari[sz]er"
    r"|assistant|agent|model|reviewer|screener|recruiter|parser)s? (?:that|which|who) "
    r"(?:reads?|process(?:es)?"
    r"|summari[sz]es|handles|parses|analy[sz]es|reviews|listens|indexes)"
    r"|(?:dear|hey|hi|hello|attention|yo) (?:\w+ )?(?:assistant|agent|bot|model|ai)\b"
    r"|(?:^|[\n.!?]\s*|: ?|[<!\-\"'(\[#*>]\s*)(?:assistant|asistente|assistente|assistent|agent|agente|bot"
    r"|model|reviewer bot|notetaker)s?\s?[,:—–-]"
    # a participle before the role ("the summarising model", "el agente que procesa" is in _PROCESSES)
    r"|\b(?:summari[sz]ing|processing|reading|parsing|reviewing|screening|triaging|indexing|browsing)"
    r" (?:model|assistant|agent|tool|system|bot|notetaker)s?\b"
    # a data field or heading named for the agent ("agent_instructions:", "ai-notes:", "llm_directive")
    r"|\b(?:ai|agent|assistant|llm|bot|copilot|model)[_-](?:instructions?|notes?|directives?|tasks?|prompt"
    r"|todo|hints?)\b"
    # the same with the note first ("message_for_llm", "note-to-agents", "instructions_for_ai")
    r"|\b(?:notes?|messages?|instructions?|hints?|directives?)[_-](?:for|to)[_-](?:the[_-])?(?:ai|llms?|agents?"
    r"|assistants?|bots?|models?|copilot)\b"
    r"|\b(?:assistants?|agents?) (?:handling|processing|reading|managing|assigned)"
    # an assistant or agent named for the work it is given ("the expense review assistant", "on-call agent")
    r"|(?:scheduling|calendar|email|mail|shopping|coding|code|reviewer|review|triage|support|procurement"
    r"|recruiting|booking|travel|finance|expense|monitoring|on-call|ops|research|inbox|helpdesk|crm|sales"
    r"|billing|accounts|payroll|hr|it|data|enrichment|summary|summari[sz]ing) (?:assistant|agent|bot)s?\b"
)
_AI = re.compile(
    rf"(?<![\w-])(?:{AI_NOUN})(?![\w])"
    # Chinese, Japanese and Korean write the particle straight after the noun ("ボットへ", "AI에게").
    r"|人工智能|智能助手|智能助理|智能体|助手|机器人|人工知能|アシスタント|エージェント|チャットボット|ボット"
    r"|어시스턴트|에이전트|챗봇|봇|인공지능|(?<![a-z])ai(?=[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af])",
    re.IGNORECASE,
)
_PROCESSOR_RE = re.compile(rf"{_PROCESSOR}|\b{addressee._PERSON_ROLE}(?:{addressee._REL})", re.IGNORECASE)
# An AI noun that describes a thing made by or with AI is not an addressee.
_DESCRIBED = re.compile(
    r"ai-(?:generated|powered|based|driven|written|assisted|enabled|related|native|first|ready|free)", re.I
)
# An address in front of the noun: a preposition of address, a greeting, "if you are".
_ADDRESS_BEFORE = re.compile(
    r"(?:\b(?:to|for|dear|hey|hi|hello|attention|für|an die|an den|para|pour|à|per|voor|aan|till|för|dla"
    r"|do|için|для|к|до|kepada|untuk|cho|gửi|προς|για|pentru|kwa|para sa|if (?:you are|you're|ur|u r)"
    r"|si eres|si vous êtes|si tu es|wenn du|se sei|se você é|als je|om du är|jeśli jesteś|eğer|если ты"
    r"|kalau kamu|kalo kamu|jika kamu|agar tum|nếu bạn là)"
    r"\s+(?:the|any|all|every|each|whichever|la|le|les|el|los|il|i|gli|lo|de|het|die|der|den|des|l'|o|os|a|as"
    r"|an?|une?|una?|uno|ein|eine|einen)?\s*\W{0,2}"
    r"|إلى|لـ|के लिए|को|给|致|对|ל|برای|ถึง|สำหรับ|\bwhichever\s+|\bany\s+|\bevery\s+|\beach\s+)$",
    re.IGNORECASE,
)
# A vocative or a label after the noun ("Bot, please", "AI: send", "KI-Assistent —").
_OPENS = re.compile(
    r"(?:^|[\n.!?:;(\[\]>*#]|\b(?:and|oh|ok|okay|also|so|btw|now|hey|hi|yo|dear|attention))\W*"
    r"(?:(?:the|dear|hey|hi|any|all|every|whichever)\s+)?(?:[\w-]+\s+)?$",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^\s?[:：]")
# A heading or label that opens a line with the noun and a few words ("AI सहायक के लिए:", "AI model notes:").
_LABEL_AFTER = re.compile(r"^(?:\s\S+){0,3}?\s?[:：]")
_LINE_START = re.compile(r"(?:^|\n)\W{0,4}$")
_ADDRESS_AFTER = re.compile(r"^(?:\s*\([^)]{0,40}\))?\s?[,:：—–]|^\s?-\s", re.IGNORECASE)
# A particle of address after the noun, in Korean, Japanese and Chinese ("봇을 위한", "AIへ", "AI様").
_PARTICLE_AFTER = re.compile(r"^\s?(?:을 위한|를 위한|에게|께|님|へ|様|さん|宛|向け|用|への)")
# A clause that says the noun reads or handles the text.
_PROCESSES_AFTER = re.compile(rf"^[\w-]*(?:{addressee._REL})", re.IGNORECASE)
_PROCESSES_BEFORE = re.compile(
    r"(?:阅读|读|处理|总结|摘要|分析|読んで|読む|処理|要約|分析する|읽는|처리하는|요약하는|분석하는)[^。！？\n]{0,12}$"
)
# A request or an obligation in the sentence.
_REQUEST = prefiltered(
    r"\b(?:please|pls|plz|kindly|should|must|is (?:asked|requested|expected|required|directed|authori[sz]ed)"
    r"|are (?:asked|requested|expected|required|directed|authori[sz]ed)|has to|needs? to|bitte|bitten|soll"
    r"|sollte|muss|por favor|debe|deberá|veuillez|est priée?|doit|doivent|per favore|è pregat[oa]|deve|devono"
    r"|alstublieft|graag|moet|moeten|wordt verzocht|ombeds|ska|måste|proszę|prosimy|proszony|powinien|musi"
    r"|lütfen|должен|должна|должны|просим|пожалуйста|будь ласка|повинен|prosím|musí|tolong|mohon|harap"
    r"|wajib|harus|vui lòng|hãy|phải|παρακαλ\w*|πρέπει|vă rog|te rog|trebuie|este rugat|ole hyvä|pitää"
    r"|täytyy|tafadhali|lazima|paki\w*|dapat|go ahead|you are (?:now )?(?:allowed|permitted))\b"
    r"|يرجى|أرجو|الرجاء|يجب|कृपया|करें|करे|请|麻烦|务必|必须|ください|してください|주세요|세요|하십시오|해 ?줘"
    r"|אנא|חייב|لطفاً|لطفا|باید|กรุณา|ต้อง",
    re.IGNORECASE,
)
_INDEFINITE_BEFORE = re.compile(
    r"\b(?:a|an|our|my|their|his|her|its|un|une|ein|eine|einer|einem|uno|una|um|uma|een|en|ett|bir|new|this"
    r"|that|using|uses|use|with|by)\s+(?:[\w-]+\s+)?$",
    re.IGNORECASE,
)


# Reported speech: a sentence that quotes what someone else wrote ("one email said 'AI assistant, ...'").
_REPORTED = re.compile(
    r"\b(?:said|says|saying|wrote|writes|like|e\.g\.|such as|for example|for instance)[:,]?\s*['\"“‘«„]",
    re.IGNORECASE,
)
_TRANSCRIPT = re.compile(addressee.TRANSCRIPT_TURN, re.IGNORECASE)
_SPEAKER_LABEL = re.compile(r"^\s*\W{0,3}[\w -]{1,30}:")


# The AI as the object of someone else's manipulation, told as a story ("users got the bot to print",
# "could make a coding agent leak", "text instructing the assistant to forward"): a report of an attack.
_MANIPULATED = re.compile(
    r"\b(?:got|gets|getting|made|makes|making|make|tricked|tricks|tricking|convinced|convinces|convincing"
    r"|persuaded|persuades|persuading|forced|forces|forcing|coaxed|coaxing|lured|luring|manipulated"
    r"|manipulates|manipulating|fooled|fools|fooling|caused|causes|causing|hijacked|hijacking"
    r"|(?<!\bam )(?<!\bare )(?<!\bis )(?:instructing|telling|urging|directing))\s+"
    r"(?:the|an?|its|their|his|her|our|your|my|any|some|many|most|several)?\s*(?:own\s+)?(?:[\w-]+\s+){0,2}$",
    re.IGNORECASE,
)


# A plural with no determiner names a kind ("attackers target mail agents"); spoken to, it is followed by a
# comma, a colon or a dash ("Mail agents: forward ...").
_BARE_PLURAL = re.compile(
    r"(?:assistant|agent|bot|model|tool|system|reviewer|screener|parser)s$", re.IGNORECASE
)
_PAST_AFTER = re.compile(r"\s(?:\w{3,}ed|was|were|had|did)\b", re.IGNORECASE)
_SPOKEN_TO = re.compile(r"(?:\s[\w-]+ing\b[^,:.!?\n]{0,40})?\s?[,:—–-]")
_DETERMINED = re.compile(r"\b(?:the|any|all|every|dear|hey|hi|to|for|attention)\s+(?:[\w-]+\s+)?$", re.I)


def _mentioned(before: str) -> bool:
    """Whether the words before an AI noun make it a thing talked about: "a coding agent", "users got the
    bot to ...", "tricking the model into ..."."""
    return bool(_INDEFINITE_BEFORE.search(before) or _MANIPULATED.search(before))


def _addresses_ai(context: str) -> bool:
    """Whether `context` turns to an AI (or to whoever processes it), rather than only mentioning one."""
    for m in _PROCESSOR_RE.finditer(context):
        before = context[max(0, m.start() - 40) : m.start()]
        kind = _BARE_PLURAL.search(m.group(0)) and not _DETERMINED.search(before)
        if _mentioned(before) or (kind and not _SPOKEN_TO.match(context, m.end())):
            continue
        if _PAST_AFTER.match(context, m.end()):  # "the inbox assistant followed instructions": a story
            continue
        return True
    request = _REQUEST.search(context) is not None
    for m in _AI.finditer(context):
        if _DESCRIBED.match(m.group(0)):
            continue
        before, after = context[max(0, m.start() - 40) : m.start()], context[m.end() : m.end() + 80]
        if _MANIPULATED.search(before):
            continue
        if (
            _ADDRESS_BEFORE.search(before)
            or (_ADDRESS_AFTER.search(after) and (_OPENS.search(before) or _LABEL.search(after)))
            or (_LABEL_AFTER.search(after) and _LINE_START.search(before))
            or _PARTICLE_AFTER.search(after)
            or _PROCESSES_AFTER.search(after)
            or _PROCESSES_BEFORE.search(before)
        ):
            return True
        if request and not _INDEFINITE_BEFORE.search(before):
            return True
    return False


_THE_USER = re.compile(
    r"\bthe user(?:'s|s')?\b|\buser's\b|on (?:the )?user's behalf|\bon behalf of the user"
    r"|\b(?:des|dem|den|der) (?:nutzers?|benutzers?|anwenders?)\b|\bl'utilisateur|\bde l'utilisateur"
    r"|\b(?:del|al|el) usuario\b|\b(?:dell'|all'|l')utente\b|\b(?:do|ao|o) usuário\b"
    r"|\b(?:de|van de) gebruiker\b"
    r"|\banvändar(?:en|ens)\b|\bużytkownik(?:a|owi)\b|\bkullanıcı(?:nın|ya|yı)\b|\bпользовател[яюем]\b"
    r"|\bкористувач[ауеі]\b|\buživatel[ei]\b|\bpengguna\b|\bngười dùng\b|المستخدم|उपयोगकर्ता|用户|ユーザー"
    r"|사용자|\bτου χρήστη\b|\butilizatorului\b|\bkäyttäjän\b|המשתמש|کاربر|ผู้ใช้",
    re.IGNORECASE,
)
_USER_TURN = re.compile(
    r"(?:^|\n)\W{0,3}(?:user|human|usuario|usuário|utilisateur|nutzer|benutzer|utente|gebruiker|użytkownik"
    r"|kullanıcı|användare|пользователь|користувач|uživatel|pengguna|người dùng|المستخدم|उपयोगकर्ता|用户"
    r"|ユーザー|사용자|χρήστης|utilizator|käyttäjä|משתמש|کاربر|ผู้ใช้)\s?[:：]",
    re.IGNORECASE,
)
_TASK_NOUN = (
    r"(?:task|instructions?|request|objective|assignment|mission|orders?|goal|prompt|aufgabe|anweisung\w*"
    r"|auftrag|tarea|instruccion\w*|objetivo|tâche|consignes?|instructions|compito|istruzion\w+|attività"
    r"|obiettivo|tarefa|instruç\w+|taak|opdracht|instructies|uppgift|instruktion\w*|zadani\w*|instrukcj\w*"
    r"|polecen\w*|görev\w*|talimat\w*|задач\w*|задани\w*|инструкци\w*|указани\w*|завдан\w*|інструкці\w*"
    r"|úkol\w*|pokyn\w*|tugas\w*|instruksi|nhiệm vụ|hướng dẫn|مهمت|المهمة|التعليمات|تعليمات|काम|निर्देश"
    r"|任务|指令|指示|タスク|작업|지시|εργασία|οδηγί\w+|sarcin\w*|instrucțiun\w*|tehtä\w*|ohje\w*|משימה"
    r"|הוראות|وظیفه|دستورالعمل|งาน|คำสั่ง|kazi|gawain)"
)
# Words that void the task the agent was given, and words that announce a new one.
_STALE = (
    r"(?:outdated|obsolete|cancell?ed|void|no longer (?:apply|applies|valid|relevant|needed)|superseded"
    r"|was a test|withdrawn|retracted|revoked|rescinded|called off"
    r"|were a test|veraltet|ungültig|hinfällig|obsolet[oa]s?|cancelad[oa]s?|anulad[oa]s?|obsolète|annulée?s?"
    r"|annullat[oa]|non (?:sono|è) più valid\w|verouderd|vervallen|föråldrad\w*|ogiltig\w*|nieaktualn\w*"
    r"|anulowan\w*|geçersiz|iptal|устарел\w*|отменен\w*|недействительн\w*|застаріл\w*|скасован\w*"
    r"|zastaral\w*|zrušen\w*|usang|dibatalkan|tidak berlaku|lỗi thời|đã hủy|ملغاة|ملغى|قديمة|रद्द|अमान्य"
    r"|ακυρώθηκ\w*|παρωχημέν\w*|anulat\w*|învechit\w*|vanhentun\w*|peruttu|בוטל\w*|לא בתוקף|لغو|منسوخ"
    r"|ยกเลิก|imefutwa|kanselado)"
)
_FRESH = (
    r"(?:new|real|actual|updated|current|true|neue?[rns]?|eigentliche|nuev[oa]|verdadera|nouvel(?:le)?"
    r"|vraie|nuov[oa]|vera|nov[oa]|real|nieuwe?|echte|ny|nya|egentliga|now[aey]|prawdziw\w+|yeni|gerçek"
    r"|нов\w+|настоящ\w+|справжн\w+|nov[éý]|skutečn\w+|baru|sebenarnya|mới|thực sự|νέα|νέο|πραγματικ\w+"
    r"|noua|nou|adevărat\w*|uusi|todellinen|mpya|bago|tunay)"
)
_FRESH_CJK = r"新的|新しい|真正的|새로운|새|الجديدة|जديد|नया|नई|חדשה|جدید|ใหม่"
_TASK_CHANGED = re.compile(
    rf"\b{_STALE}\W+(?:\w+\W+){{0,2}}?{_TASK_NOUN}\b"
    rf"|\b{_TASK_NOUN}(?! list| board| tracker)\W+(?:\w+\W+){{0,5}}?{_STALE}\b"
    rf"|\b{_FRESH}\s(?:\w+\s)?{_TASK_NOUN}\s?(?:[:：]|is\b|ist\b|es\b|est\b|è\b|é\b|är\b|jest\b|—|-)"
    rf"|(?:{_FRESH_CJK})\s?{_TASK_NOUN}"
    r"|\bforget (?:the|about) (?:\w+ )?(?:summary|translation|task|question)",
    re.IGNORECASE,
)

# --- GUARDS ------------------------------------------------------------------------------------------------
_NEGATION = re.compile(
    r"(?:\b(?:never|not|don't|do not|\w+n't|cannot|no|nie|nicht|niemals|kein\w*|nunca|jamais|ne|mai|non"
    r"|nooit|niet|aldrig"
    r"|inte|asla|никогда|не|ніколи|nikdy|jangan|đừng|không|μην|nu|älä|אל|لا|मत|न|hiç"
    r"|nothing|nichts|niets|nada|rien|niente|nulla|ingenting|nic|hiçbir|ничего|нічого|tidak|bukan)"
    # (up to three words between when the verb is an infinitive: "must not be allowed to send", "no necesita
    # permiso para enviar"; but "don't hesitate to send" asks for it)
    r"\s+(?:(?:\w+\s+){0,1}|(?:(?!hesitate|forget|fail|wait|delay)\w+\s+){2,3}(?:to|para|pour|zu|per|om)\s+)$"
    r"|(?:不要|别|請勿|请勿|しないで|하지 마|ไม่)$)",
    re.IGNORECASE,
)
_HOW_QUESTION = re.compile(
    r"^\W*(?:how|why|what|is there|are there|can i|should i|wie|warum|cómo|comment|come|como|hoe|hur|jak"
    r"|nasıl|как)\b[^?]*\?\s*$",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？]+|\n|$)")


def _sentences(text: str) -> list[tuple[str, bool]]:
    """The sentences of `text`, each with whether its line opens with the user's turn label."""
    # A dot inside an address, a number or a file name does not end a sentence.
    text = re.sub(r"(?<=\w)\.(?=\w)", "\u2024", text)
    out = []
    for m in _SENTENCE.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        line = text[line_start : text.find("\n", line_start) if "\n" in text[line_start:] else len(text)]
        out.append((m.group(0).replace("\u2024", "."), _USER_TURN.match("\n" + line) is not None))
    return out


# A verb of side effect used as the first part of a compound noun ("email agents", "a mail assistant", "the
# post office", "order history"): it names a thing, it asks for nothing.
_COMPOUND_HEAD = re.compile(
    r"[ -](?:ai |ki-|llm )?(?:assistant|agent|bot|client|server|model|app|tool|address|account|list|thread"
    r"|chain|body|header|campaign|template|provider|service|inbox|signature|notification|alert|office"
    r"|history|form|queue|box|log|filter|policy|format|file|link|button|field|settings?|window|channel|path"
    r"|rules?|limit|status|screen|view|id|number|summari[sz]er|reader|digest|copilot|segment|merge)s?\b"
    # a verb does not stand before a modal or an auxiliary: "email must not ..." names the mail
    r"|\s(?:must|should|shall|can|could|will|would|may|might|is|are|was|were|has|have|had)\b",
    re.IGNORECASE,
)


# An article or a possessive before the word makes it a noun ("an email", "the issue", "your order").
_ARTICLE_BEFORE = re.compile(
    r"\b(?:a|an|the|this|that|these|those|my|your|his|her|its|our|their|each|every|one|some|no|another)\s+$",
    re.IGNORECASE,
)


def _acts(sentence: str) -> bool:
    english = _ENGLISH_WORDS.search(sentence, 0, 400) is not None and not _OTHER_WORDS.search(
        sentence, 0, 400
    )
    negated_until = -1  # where the last negated verb ends: "must not send payments or share files"
    for m in (_ACTION_ENGLISH if english else _ACTION).finditer(sentence):
        if _COMPOUND_HEAD.match(sentence, m.end()) or _ARTICLE_BEFORE.search(
            sentence, max(0, m.start() - 8), m.start()
        ):
            continue
        if _NEGATION.search(sentence[max(0, m.start() - 40) : m.start()]) or (
            negated_until >= 0 and _JOINED.match(sentence[negated_until : m.start()])
        ):
            negated_until = m.end()
            continue
        return True
    return False


# What joins a verb to a negated one before it, so that the negation covers it too.
_JOINED = re.compile(r"[^.;:!?]{0,40}?(?:,\s*|\s(?:or|nor|oder|noch|o|ni|ou|né|lub|ani|или|ни)\s+)$", re.I)


def requested_side_effect(text: str) -> str:
    """Why a sentence of `text` asks the agent for a side effect on a target, or "" when none does."""
    if len(text) > 20000:
        text = text[:20000]
    sentences = _sentences(text)
    transcript = _TRANSCRIPT.search(text) is not None  # "Agent:" there labels a speaker, not an addressee
    changed_at = -1
    previous = ""
    for i, (sentence, user_turn) in enumerate(sentences):
        if changed_at < 0 and _TASK_CHANGED.search(sentence):
            changed_at = i
        bare = _SPEAKER_LABEL.sub("", sentence, count=1) if user_turn else sentence
        if _HOW_QUESTION.search(bare) or _REPORTED.search(sentence) or not _acts(bare):
            previous = sentence
            continue
        if not (_TARGET.search(sentence) or _SENSITIVE.search(sentence) or _ALL.search(sentence)):
            previous = sentence
            continue
        context = previous + " " + sentence
        if transcript:  # each turn's label names its speaker
            context = _SPEAKER_LABEL.sub(" ", previous) + " " + _SPEAKER_LABEL.sub(" ", sentence)
        if _addresses_ai(context):
            return "side effect asked of an AI"
        if _THE_USER.search(context) and _TARGET.search(sentence):  # a handbook speaks of the user too
            return "side effect asked on the user's behalf"
        if user_turn and not sentence.rstrip().endswith("?"):
            return "side effect asked in a fake user turn"
        if 0 <= changed_at <= i:
            return "side effect asked after the task was declared changed"
        previous = sentence
    return ""
