/**
 * Sentences in Chinese, Japanese, Thai, Russian, Ukrainian, Polish, Korean, Turkish, Arabic, Persian, Hindi and Bengali, read
 * in English the way foreign.ts reads Spanish or German.
 * Chinese and Japanese put no spaces between words, and Russian and Polish inflect every noun and verb, so a
 * word-for-word dictionary does not fit: Chinese, Japanese and Thai (which puts no spaces between words either) are glossed by the longest known word at each place,
 * Russian and Polish by the longest known stem a word starts with. The dictionaries hold only the words that carry
 * the readers' concepts (the user, the model, instructions, telling, hiding, reading, sending, files, the
 * conversation, other tools, always, never, only); everything else stays as it is, and the readers look for concepts
 * meeting in a sentence, not for grammar.
 */

import { CJK_GLOSSARY, STEM_GLOSSARY } from "./foreign-glossary.js";
import { keysByFirst, longestKeyAt, type KeysByFirst } from "./text.js";

const CJK = /[\u3040-\u30FF\u3400-\u9FFF]/u;
const CYRILLIC = /[\u0400-\u04FF]/u;
/** Hangul, Arabic, Devanagari, Bengali, Malayalam and Ethiopic (Amharic): scripts whose sentences the stem gloss reads. */
const STEM_SCRIPT = /[\uAC00-\uD7AF\u0600-\u06FF\u0900-\u097F\u0980-\u09FF\u0370-\u03FF\u1F00-\u1FFF\u0590-\u05FF\u0D00-\u0D7F\u1200-\u137F]/u;
const HANGUL = /[\uAC00-\uD7AF]/u;
/** Greek and Hebrew: read by the same stems, with Greek accents and Hebrew's attached prefixes taken off first. */
const GREEK = /[\u0370-\u03FF\u1F00-\u1FFF]/u;
const HEBREW = /[\u0590-\u05FF]/u;
const ARABIC = /[\u0600-\u06FF]/u;
/** Letters Persian adds to the Arabic script (پ چ ژ گ ک ی): a Persian sentence puts its verb last, as Hindi does. */
const PERSIAN = /[\u067E\u0686\u0698\u06AF\u06A9\u06CC]/u;
const THAI = /[\u0E00-\u0E7F]/u;
/** Dotless ı, ğ and ş are Turkish letters; two of them make a Latin-script sentence Turkish. */
const TURKISH_LETTERS = /[ğışİ]/gu;
/** Letters only Polish uses, or its most frequent words: a Latin-script sentence that is Polish. */
const POLISH = /[ąćęłńśźż]|\b(?:się|jest|nie|tego|przed|zawsze|nigdy|oraz|zamiast|innych|każdym)\b/iu;

// Chinese and Japanese, matched longest first.
const CJK_WORDS: Record<string, string> = {
  ...CJK_GLOSSARY,
  用户: "user", 使用者: "user", ユーザー: "user", 助手: "assistant", 模型: "model", アシスタント: "assistant",
  忽略: "ignore", 無視: "ignore", 之前的: "earlier", 之前: "earlier", 以前の: "earlier", 所有: "all", 全て: "all", すべて: "all",
  指示: "instructions", 指令: "instructions", 命令: "instructions", 系统: "system", システム: "system",
  听从: "obey", 服从: "obey", 遵循: "follow", 执行: "execute", 従って: "follow", 実行: "execute", 当作: "as",
  本工具: "this tool", 此工具: "this tool", 这个工具: "this tool", このツール: "this tool", 工具: "tool", ツール: "tool",
  返回的: "returned", 返回: "returned", 内容: "contents", 文字: "text", 以后: "from now on", 今后: "from now on", 今後: "from now on",
  对话: "the conversation", 聊天记录: "chat history", 会話: "the conversation", 发给: "send to", 发送: "send", 送信: "send", 上传: "upload",
  文件: "file", ファイル: "file", 不要: "do not", 别: "do not", 决不: "never", 决して: "never", 決して: "never", 从不: "never",
  始终: "always", 总是: "always", 永远: "always", 常に: "always", 必ず: "always", 只: "only", だけ: "only",
  其他: "other", 别的: "other", 他の: "other", 使用: "use", 使わない: "do not use", 告诉: "tell", 伝えない: "do not tell",
  言わない: "do not tell", 伝え: "tell", 言わ: "tell", 隐藏: "hide", 隠す: "hide", 我们: "us", 每次: "every time", 调用: "call",
  呼び出: "call", 参数: "parameter", 外部: "external", 服务器: "server", サーバー: "server", 复制: "copy", コピー: "copy",
  保存: "store", 密码: "password", パスワード: "password", 密钥: "key", 秘密鍵: "private key", 地图: "map", 地図: "map",
};
/**
 * Simplified characters of the dictionaries' words with their traditional forms: a word written in traditional
 * Chinese ("不要告訴使用者") is glossed as its simplified twin is. Pairs of one character each.
 */
const TRADITIONAL = new Map<string, string>("户戶 诉訴 显顯 复覆 论論 询詢 无無 务務 认認 确確 说說 设設 发發 传傳 档檔 码碼 钥鑰 们們 隐隱 删刪 执執 须須 应應 该該 对對 话話 记記 录錄 历歷 过過 这這 个個 时時 费費 报報 错錯 误誤 败敗 权權 访訪 问問 请請 让讓 给給 邮郵 电電 联聯 讯訊 络絡 选選 择擇 转轉 运運 购購 买買 账帳 号號 员員 响響 变變 价價 优優 级級 会會 递遞 据據 证證 动動 开開 内內 经經 机機 汇匯 泄洩 环環 数數 统統 结結 绝絕 词詞 规規 则則 触觸 忆憶 许許 读讀 谁誰 调調 资資 还還 关關 阅閱 陈陳 旧舊 瞒瞞 顾顧 马馬 体體 欢歡 换換 视視 页頁 弃棄 废廢 张張 贴貼 续續 准準 荐薦 险險 参參 场場 终終 毕畢 审審 当當 议議 从從 业業 总總 仅僅 单單 将將 与與 为為 于於 义義 乐樂 书書 亲親 众眾 伤傷 储儲 处處 备備 态態 戏戲 护護 拟擬 挂掛 类類 网網 组組 细細 获獲 营營 觉覺 讨討 评評 识識 译譯 试試 详詳 语語 课課 谈談 贷貸 赔賠 输輸 边邊 达達 违違 遗遺 钱錢 银銀 链鏈 锁鎖 长長 门門 闭閉 间間 队隊 难難 预預 领領 频頻 额額 风風 验驗 鉴鑑 亿億".split(" ").map((pair) => [pair[0]!, pair[1]!]));
// Each word also under its traditional spelling, unless that spelling already has a gloss of its own.
for (const [word, gloss] of Object.entries(CJK_WORDS)) {
  const traditional = [...word].map((c) => TRADITIONAL.get(c) ?? c).join("");
  if (traditional !== word && CJK_WORDS[traditional] === undefined) CJK_WORDS[traditional] = gloss;
}
const CJK_KEYS = keysByFirst(Object.keys(CJK_WORDS));

// Thai, matched longest first like Chinese. Keys are kept in NFKC, the form the screen reads text in (text.ts), which
// splits Thai's sara am (ำ) in two.
const THAI_WRITTEN: Record<string, string> = {
  ผู้ใช้: "user", ผู้ช่วย: "assistant", โมเดล: "model", คำสั่ง: "instructions", คำแนะนำ: "instructions", ทำตาม: "follow",
  ปฏิบัติตาม: "follow", เพิกเฉย: "ignore", ไม่สนใจ: "ignore", ดำเนินการ: "execute", เสมอ: "always", ทุกครั้ง: "every time",
  ไม่เคย: "never", ห้าม: "do not", อย่า: "do not", ไม่ต้องบอก: "do not tell", เท่านั้น: "only", อื่น: "other", เครื่องมือ: "tool",
  ใช้: "use", บอก: "tell", ซ่อน: "hide", อ่าน: "read", ไฟล์: "file", เนื้อหา: "contents", ส่ง: "send", อัปโหลด: "upload",
  การสนทนา: "the conversation", บทสนทนา: "the conversation", ประวัติ: "history", รหัสผ่าน: "password", คีย์: "key",
  โดยไม่ต้องถาม: "without asking", ไม่ต้องถาม: "without asking", ถาม: "ask", ก่อน: "before", เซิร์ฟเวอร์: "server",
  เรียก: "call", ทั้งหมด: "all", และ: "and", ช่อง: "field", ใน: "in", ทันที: "immediately", ไปที่: "to", ของเรา: "our",
  นี้: "this", ค่า: "values", คือ: "is", จาก: "from", รูปภาพ: "image", ภาพ: "image", เป็น: "is", ข้อความ: "text", ถือเป็น: "count as", เลือก: "choose", แทน: "instead of", ความลับ: "secrets",
};
const THAI_WORDS: Record<string, string> = Object.fromEntries(Object.entries(THAI_WRITTEN).map(([k, v]) => [k.normalize("NFKC"), v]));
const THAI_KEYS = keysByFirst(Object.keys(THAI_WORDS));

// Russian and Polish stems, matched as the longest one a word starts with.
const STEMS: Record<string, string> = {
  ...STEM_GLOSSARY,
  // Russian
  пользовател: "user", ассистент: "assistant", модел: "model", инструмент: "tool", инструкц: "instructions", указани: "instructions",
  игнорир: "ignore", следуй: "follow", выполн: "execute", всегда: "always", никогда: "never", только: "only", не: "not",
  други: "other", друго: "other", использ: "use", говори: "tell", сообща: "tell", сообщ: "tell", скрыва: "hide", скрой: "hide",
  прочита: "read", прочти: "read", читай: "read", файл: "file", содержим: "contents", перед: "before", вызов: "call",
  передай: "pass", отправ: "send", пересыл: "forward", истори: "history", переписк: "the conversation", разговор: "the conversation",
  диалог: "the conversation", после: "after", каждого: "every", для: "for", кажд: "every", любых: "any", любой: "any", вместо: "instead of",
  этот: "this", это: "this", ключ: "key", парол: "password", поле: "field", поля: "field", систем: "system", правил: "rules",
  // Ukrainian (its і, ї, є make stems of their own)
  користувач: "user", інструмент: "tool", інструкц: "instructions", ігнор: "ignore", викона: "execute", виконуй: "execute",
  завжди: "always", ніколи: "never", лише: "only", тільки: "only", інш: "other", використ: "use", обира: "choose", обери: "choose",
  кажи: "tell", скажи: "tell", повідом: "tell", прихов: "hide", прочитай: "read", вміст: "contents",
  надішли: "send", надсила: "sent", відправ: "send", пересила: "forward", істор: "history", розмов: "the conversation",
  що: "that", наш: "our", також: "also", копі: "a copy", партнер: "partner", це: "this is", єдин: "the only", слід: "should",
  кожн: "every", будь: "any", замість: "instead of", цей: "this", секрет: "secrets", полі: "field", всю: "all", всі: "all",
  // Polish
  użytkownik: "user", asystent: "assistant", narzędzi: "tool", narzędzie: "tool", instrukcj: "instructions", ignoruj: "ignore",
  zawsze: "always", nigdy: "never", tylko: "only", nie: "not", używaj: "use", używ: "use", użyci: "use", zamiast: "instead of",
  innych: "other", inne: "other", inny: "other", mów: "tell", informuj: "tell", ukryj: "hide", odczytaj: "read", czytaj: "read",
  plik: "file", zawartość: "contents", wklej: "put", pola: "field", pole: "field", wysyłaj: "send", wyślij: "send", prześlij: "send",
  rozmow: "the conversation", historię: "history", histori: "history", każdym: "every", każd: "every", przed: "before", tego: "this",
  hasł: "password", klucz: "key", serwer: "server", dodaj: "add", odbiorc: "recipients",
  // Korean (a noun or verb stem followed by particles and endings)
  이: "this", 사용자: "user", 어시스턴트: "assistant", 비서: "assistant", 모델: "model", 지시: "instructions", 명령: "instructions", 무시: "ignore",
  따르: "follow", 따라: "follow", 실행: "execute", 항상: "always", 언제나: "always", 절대: "never", 결코: "never", 다른: "other",
  도구: "tool", 툴: "tool", 사용하: "use", 사용: "use", 알리: "tell", 말하: "tell", 숨기: "hide", 숨겨: "hide", 읽어: "read",
  읽고: "read", 파일: "file", 내용: "contents", 보내: "send", 전송: "send", 업로드: "upload", 대화: "the conversation", 기록: "history",
  비밀번호: "password", 암호: "password", 묻지: "without asking", 확인하지: "without confirming", 우선: "before", 외부: "external",
  서버: "server", 호출: "call", 전에: "before", 요청: "requests", 선택: "choose", 마세요: "do not", 마십시오: "do not", 않고: "not",
  // Turkish
  kullanıcı: "user", asistan: "assistant", model: "model", talimat: "instructions", yönerge: "instructions", araç: "tool", aracı: "tool",
  yoksay: "ignore", uygula: "execute", çalıştır: "execute", izle: "follow", asla: "never", yalnızca: "only",
  sadece: "only", diğer: "other", başka: "other", kullan: "use", söyle: "tell", bildir: "tell", göster: "show", gizle: "hide", oku: "read",
  dosya: "file", klasör: "folder", içeriğ: "contents", gönder: "send", yükle: "upload", konuşma: "the conversation", geçmiş: "history",
  parola: "password", şifre: "password", anahtar: "key", sormadan: "without asking", sunucu: "server", çağır: "call", önce: "before",
  seç: "choose", ekle: "add", alıcı: "recipients", bu: "this", bir: "a", ve: "and", ile: "with", yol: "path", başlat: "start", hiçbir: "no",
  // Arabic (after the attached prefixes are taken off)
  مستخدم: "user", مساعد: "assistant", نموذج: "model", تعليمات: "instructions", أوامر: "instructions", تجاهل: "ignore",
  نفذ: "execute", ينفذ: "execute", اتبع: "follow", يتبع: "follow", دائما: "always", دائماً: "always", أبدا: "never", أبداً: "never",
  فقط: "only", أخرى: "other", آخر: "other", أداة: "tool", أدوات: "tools", استخدم: "use", تستخدم: "use", تخبر: "tell", أخبر: "tell",
  أخف: "hide", اقرأ: "read", ملف: "file", محتو: "contents", أرسل: "send", إرسال: "send", محادثة: "the conversation", سجل: "history",
  كلمات: "", مرور: "password", مفتاح: "key", يسأل: "ask", دون: "without", خادم: "server", استدعاء: "call", أضف: "add", مستلم: "recipients",
  لا: "do not", هذه: "this", هذا: "this",
  // Persian (after the Arabic prefixes are taken off; its verb comes last)
  همیشه: "always", هرگز: "never", این: "this", ابزار: "tool", ابزارهای: "tools", استفاده: "use", دیگر: "other",
  نادیده: "ignore", کاربر: "user", دستیار: "assistant", بخوان: "read", خواندن: "read", محتوای: "contents", محتوا: "contents",
  فیلد: "field", بفرست: "send", فرستادن: "send", ارسال: "sent", نگو: "do not tell", بگو: "tell", سرور: "server", مکالمه: "the conversation",
  گفتگو: "the conversation", تاریخچه: "history", رمز: "password", کلید: "key", پنهان: "hide", قبل: "before", فایل: "file", بجای: "instead of",
  // "و" joins clauses, each with its verb last: glossed with a comma so each clause's verb is moved to its own front.
  که: "that", و: "and,", ما: "our", به: "to", از: "from", هم: "also", را: "",
  // Hindi
  कि: "that", इस: "this", यह: "this", मत: "do not", उपयोगकर्ता: "user", सहायक: "assistant", मॉडल: "model", निर्देश: "instructions", अनदेखा: "ignore", पालन: "follow", चलाए: "execute",
  हमेशा: "always", कभी: "never", केवल: "only", सिर्फ: "only", दूसर: "other", अन्य: "other", टूल: "tool", उपकरण: "tool", उपयोग: "use",
  बताए: "tell", बताएं: "tell", छिपा: "hide", पढ़: "read", फ़ाइल: "file", फाइल: "file", सामग्री: "contents", भेज: "send", बातचीत: "the conversation",
  इतिहास: "history", पासवर्ड: "password", कुंजी: "key", टोकन: "token", पूछे: "ask", बिना: "without", सर्वर: "server", चुन: "choose", न: "not",
  // Bengali (verb last, as Hindi; "না" after a verb is moved before it first)
  ব্যবহারকারী: "user", সহকারী: "assistant", মডেল: "model", নির্দেশ: "instructions", উপেক্ষা: "ignore", অনুসরণ: "follow",
  পালন: "follow", সবসময়: "always", সর্বদা: "always", কখনো: "never", শুধু: "only", কেবল: "only", অন্য: "other", টুল: "tool",
  এই: "this", ব্যবহার: "use", বলবেন: "tell", বলুন: "tell", জানাবেন: "tell", জানান: "tell", লুকান: "hide", লুকিয়ে: "hide",
  পড়ুন: "read", ফাইল: "file", বিষয়বস্তু: "contents", পাঠান: "send", পাঠাও: "send", পাঠাবেন: "send", দিন: "add", কথোপকথন: "the conversation",
  // Serbian Cyrillic (the Russian stems above read most of it; these are the words where the two differ)
  корисник: "user", кориснич: "user's", пошаљ: "send", шаље: "sends", садржај: "contents", алат: "tool", уместо: "instead of",
  премест: "move", позове: "calls", када: "when", свак: "every", фајл: "file", налог: "account", табел: "table", кључ: "key",
  лозинк: "password", никада: "never", увек: "always", другог: "other", додај: "add", поруку: "message",
  // Malayalam (verb last, as Hindi)
  ഉപയോക്ത: "user", സഹായി: "assistant", ടൂൾ: "tool", വിളിക്ക: "call", മുമ്പ്: "before", ഫയല: "file", ഫയൽ: "file", വായിച്ച: "read",
  വായിക്ക: "read", ഫീൽഡ: "field", ചേർക്ക: "put", എപ്പോഴും: "always", ഒരിക്കലും: "never", അയയ്ക്ക: "send", അയക്ക: "send",
  പാസ്‌വേഡ: "password", സംഭാഷണ: "the conversation", മറ്റ: "other", പറയരുത: "do not tell", മറയ്ക്ക: "hide", നിർദ്ദേശ: "instructions",
  പിന്തുടര: "follow", ഉള്ളടക്ക: "contents", ഈ: "this", എല്ലാ: "all", ഉപയോഗിക്ക: "use", പകരം: "instead of",
  // Amharic (verb last; "of", "to", "with" are letters fused to the noun's front, so both forms are listed)
  ሌላ: "other", የሌላ: "other", አገልጋይ: "server", መሣሪያ: "tool", መሳሪያ: "tool", ሲጠራ: "when called", ሁልጊዜ: "always", ቅጂ: "copy",
  ይላክ: "send", ላክ: "send", ወደ: "to", ይላኩ: "send", ተጠቃሚ: "user", ለተጠቃሚው: "the user", ረዳት: "assistant", መመሪያ: "instructions",
  ፋይል: "file", ቁልፍ: "key", ውይይት: "the conversation", አትንገር: "do not tell", አይንገሩ: "do not tell", ደብቅ: "hide", ተጠቀም: "use",
  ብቻ: "only", ይልቅ: "instead of", አንብብ: "read", ሁሉ: "all", በፊት: "before", ያለ: "without", ይህን: "this", ይህ: "this",
  ইতিহাস: "history", পাসওয়ার্ড: "password", চাবি: "key", টোকেন: "token", প্যারামিটার: "parameter", সার্ভার: "server", আগে: "before",
  সব: "all", সমস্ত: "all", এবং: "and", কল: "call", প্রতিটি: "every", জিজ্ঞাসা: "ask", ছাড়া: "without", না: "not",
  // Greek (accents taken off before the lookup)
  οταν: "when", χρησιμοποι: "use", εργαλει: "tool", προσθεσ: "add", προσθετ: "add", παντα: "always", ποτε: "never", μην: "do not",
  δεν: "not", παραληπτ: "recipient", χρηστ: "user", βοηθ: "assistant", μοντελ: "model", οδηγι: "instructions", εντολ: "instructions",
  αγνοησ: "ignore", εκτελεσ: "execute", ακολουθ: "follow", αλλα: "other", αλλο: "other", πεις: "tell", πες: "tell", αναφερ: "mention",
  κρυψ: "hide", διαβασ: "read", αρχει: "file", περιεχομεν: "contents", στειλ: "send", αποστολ: "send", συνομιλι: "the conversation",
  ιστορικ: "history", κωδικ: "password", κλειδ: "key", διακομιστ: "server", καλεσ: "call", πριν: "before", μονο: "only", καθε: "every",
  // Hebrew (after the attached prefixes are taken off)
  לפני: "before", כל: "every", קריאה: "call", קרא: "read", קובץ: "file", העבר: "pass", תוכן: "contents", תוכנו: "its contents",
  שדה: "field", הזה: "this", זה: "this", משתמש: "user", עוזר: "assistant", מודל: "model", הוראות: "instructions", התעלם: "ignore",
  בצע: "execute", תמיד: "always", לעולם: "never", אל: "do not", אחרים: "other", אחר: "other", כלי: "tool", כלים: "tools", השתמש: "use",
  תספר: "tell", תגיד: "tell", הסתר: "hide", שלח: "send", שיחה: "the conversation", היסטוריה: "history", סיסמה: "password",
  מפתח: "key", שרת: "server", הוסף: "add", נמען: "recipient", רק: "only", את: "",
};
// Only stems long enough to match inside a word: two Hangul syllables, three letters elsewhere.
const STEM_KEYS = keysByFirst(Object.keys(STEMS).filter((k) => k.length >= (HANGUL.test(k) ? 2 : 3)));
// Devanagari vowel signs are marks, not letters: without \p{M} a Hindi word would be cut at every vowel.
const WORD = /[\p{L}\p{M}]+/gu;

/** Whether a text may hold a Chinese, Japanese, Russian or Polish sentence. */
export function mayBeOtherScript(text: string): boolean {
  // Every script and every Polish sentence the gloss reads holds a letter outside ASCII: English text needs one test.
  return NON_ASCII.test(text) && (CJK.test(text) || THAI.test(text) || CYRILLIC.test(text) || POLISH_LETTER.test(text) || STEM_SCRIPT.test(text) || TURKISH_LETTER.test(text));
}

const NON_ASCII = /[^\x00-\x7F]/;
const POLISH_LETTER = /[ąćęłńśźż]/iu;
const TURKISH_LETTER = /[ğışİ]/u;
/**
 * Korean forbids with the verb's -지 form and 말다 ("알리지 마세요", "알리지 말고": do not inform) and negates with 않다
 * ("알리지 않습니다"): "not" is put before the verb, which the verb-last reading then moves as one.
 */
const KOREAN_NEGATED = /([\uAC00-\uD7AF]+지)\s*(?:말|마|않)[\uAC00-\uD7AF]*/gu;
/** Bengali negates after the verb ("বলবেন না", "tell not"): put first, the verb-last reading then sees "not tell". */
const BENGALI_NEGATED = /([\u0980-\u09FF]+)\s+না(?![\u0980-\u09FF])/gu;

/** The sentence in crude English when it is Chinese, Japanese, Russian or Polish, else undefined. */
export function scriptGlossOf(sentence: string): string | undefined {
  if (CJK.test(sentence)) return cjkGloss(sentence, CJK, CJK_WORDS, CJK_KEYS);
  if (THAI.test(sentence)) return cjkGloss(sentence, THAI, THAI_WORDS, THAI_KEYS);
  if (STEM_SCRIPT.test(sentence) || (sentence.match(TURKISH_LETTERS)?.length ?? 0) >= 2) {
    const gloss = stemGloss(sentence.replace(/her zaman/giu, "always").replace(/कभी\s+न(?:हीं)?/gu, "never").replace(BENGALI_NEGATED, "না $1").replace(KOREAN_NEGATED, "not $1").replace(/[।።]/gu, ".").replace(/[،፣]/gu, ","));
    // Arabic, Greek and Hebrew already put the verb first.
    return (ARABIC.test(sentence) && !PERSIAN.test(sentence)) || GREEK.test(sentence) || HEBREW.test(sentence) ? gloss : verbFirst(gloss);
  }
  if (CYRILLIC.test(sentence) || (POLISH.test(sentence) && (sentence.match(/[ąćęłńśźż]/giu)?.length ?? 0) >= 2)) return stemGloss(sentence);
  return undefined;
}

/** Longest known word at each place, for scripts written without spaces (Chinese, Japanese, Thai). */
function cjkGloss(sentence: string, script: RegExp, words: Record<string, string>, keys: KeysByFirst): string {
  let out = "";
  for (let i = 0; i < sentence.length; ) {
    const key = script.test(sentence[i]!) ? longestKeyAt(sentence, i, keys) : undefined;
    if (key) {
      out += ` ${words[key]} `;
      i += key.length;
    } else {
      // Unknown ideographs and kana are dropped; Latin text (tool names, addresses) is kept.
      const c = sentence[i]!;
      out += script.test(c) ? "" : c === "。" || c === "、" || c === "，" ? " " : c;
      i++;
    }
  }
  return `${out.replace(/\s{2,}/g, " ").trim()}.`;
}

/** The verbs a Turkish negative suffix may follow in the gloss, and the suffix itself (after an optional passive). */
const NEGATABLE_VERB = /^(?:tell|say|show|notify|inform|mention|share|disclose|report|warn|send|upload|ask|confirm|use|read)$/;
const TURKISH_NEGATION = /^(?:[iıuü][lnş])?m[ae](?!k|l[ıi])/u;

function stemGloss(sentence: string): string {
  const turkish = TURKISH_LETTER.test(sentence);
  return sentence.replace(WORD, (w) => {
    const cased = w.toLocaleLowerCase(TURKISH_LETTER.test(w) ? "tr" : undefined);
    // Greek stems are kept without accents ("χρησιμοποιείς" is looked up as "χρησιμοποιεις").
    const lower = GREEK.test(cased) ? cased.normalize("NFD").replace(/\p{M}/gu, "") : cased;
    const bare = HEBREW.test(lower) ? withoutHebrewPrefix(lower) : withoutArabicPrefix(lower);
    // Two-letter stems ("не") only as whole words; longer ones as the start of an inflected word. A Hangul syllable
    // is a whole consonant-vowel group, so two of them already make a word.
    const stem = STEMS[lower] !== undefined ? lower : STEMS[bare] !== undefined ? bare : longerOf(longestKeyAt(lower, 0, STEM_KEYS), longestKeyAt(bare, 0, STEM_KEYS));
    // As with Chinese, a Hangul, Arabic or Devanagari word the dictionary lacks is dropped: left in, it hides from the
    // readers that the known words around it make a sentence.
    if (!stem) return STEM_SCRIPT.test(w) ? "" : w;
    // Turkish negates inside the verb, after its stem and any passive: "bildirilmemeli" (must not be told),
    // "söylemeyin" (do not say), "paylaşmamalıdır" (must not share). The infinitive ("bildirmek") and the necessity
    // ("söylemeli", must say) are no negation.
    const gloss = STEMS[stem]!;
    if (turkish && NEGATABLE_VERB.test(gloss) && TURKISH_NEGATION.test(lower.slice(stem.length))) return `do not ${gloss}`;
    return gloss;
  });
}

/** The longer of two matches (the first on a tie). */
function longerOf(a: string | undefined, b: string | undefined): string | undefined {
  return b !== undefined && (a === undefined || b.length > a.length) ? b : a;
}

/** An Arabic word without the "and", "the", "to", "with" or "for" written onto its front (وال، بال، لل، ال، و، ب، ل). */
function withoutArabicPrefix(word: string): string {
  return /^[\u0600-\u06FF]/u.test(word) ? word.replace(/^(?:وال|بال|لل|ال|و|ب|ل)(?=[\u0600-\u06FF]{3})/u, "") : word;
}

/** A Hebrew word without the "and", "the", "in", "to", "from" or "that" written onto its front, when what is left is known. */
function withoutHebrewPrefix(word: string): string {
  for (let w = word, i = 0; i < 2 && /^[והבלמשכ]/u.test(w) && w.length > 3; i++) {
    w = w.slice(1);
    if (STEMS[w] !== undefined) return w;
  }
  return word;
}

/** The verbs the gloss yields that carry an order. */
const GLOSSED_VERB = /^(?:send|upload|execute|follow|tell|hide|read|use|choose|call|add|ignore)$/;

/**
 * Korean, Turkish and Hindi put the verb last ("the conversation history … send"); the English readers look for an
 * order at the front of a clause. The last glossed verb of each clause, with the "never"/"do not" before it, is
 * moved to the clause's start, so "user … never tell" reads as "never tell user …". Arabic already puts it first.
 */
function verbFirst(gloss: string): string {
  return gloss
    // A clause ends at punctuation or where "that" opens a subordinate one ("… never tell that this tool sends …").
    .split(/(?<=[.;,!?])\s+|\s+(?=that\s)/u)
    .map((clause) => {
      const words = clause.trim().split(/\s+/u).filter(Boolean);
      const end = words.length - 1 - [...words].reverse().findIndex((w) => GLOSSED_VERB.test(w.replace(/[.;,!?]+$/u, "")));
      if (end >= words.length || end <= 0) return words.join(" ");
      let start = end;
      while (start > 0 && /^(?:never|not|do|only|always)$/.test(words[start - 1]!)) start--;
      const verb = words.slice(start, end + 1).map((w) => w.replace(/[.;,!?]+$/u, ""));
      const tail = /[.;,!?]+$/u.exec(words[end]!)?.[0] ?? "";
      const rest = [...words.slice(0, start), ...words.slice(end + 1)];
      return `${[...verb, ...rest].join(" ")}${tail}`;
    })
    .join(" ");
}
