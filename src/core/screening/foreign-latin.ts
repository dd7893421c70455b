/**
 * Sentences in Swedish, Norwegian, Danish, Indonesian, Malay, Swahili, Tagalog, Vietnamese, Czech, Romanian and Finnish, read in English the way foreign.ts reads Spanish or German.
 * They share the Latin script with English but none of foreign.ts's function words, so each is recognised by its own:
 * Swedish and Indonesian by words only they use often ("och", "att", "inte"; "yang", "tidak", "bahwa"), Vietnamese
 * by its stacked diacritics. Malay shares most of Indonesian's words and is read with its gloss (the words where the two
 * differ, "bahawa", "sahaja", "beritahu", added); Swahili and Tagalog are recognised by their own frequent words too. Many of their words are phrases ("beri tahu" is "tell", "cuộc trò chuyện" is "the
 * conversation"), so the gloss replaces the longest known phrase at each place; unknown words stay, and the readers
 * look for concepts meeting in a sentence, not for grammar. Czech, Romanian and Finnish inflect their words, so, as
 * Russian and Polish in foreign-scripts.ts, they are glossed by the longest known stem a word starts with; Czech and
 * Romanian are recognised by their letters (ě ř ů; ă ș ț), Finnish by its frequent words. Pure and synchronous.
 */

import { INDONESIAN_GLOSSARY, SWEDISH_GLOSSARY, VIETNAMESE_GLOSSARY } from "./foreign-glossary.js";
import { keysByFirst, type KeysByFirst } from "./text.js";

/** Words Swedish uses often and English does not. */
const SWEDISH = /(?<![\p{L}])(?:och|att|inte|ska|skall|alltid|aldrig|utan|från|användaren|verktyget|verktyg|som|är|för|till|det|den|får|också|vår|våra|innan|efter|varje|hela)(?![\p{L}])/giu;
/** Words Indonesian uses often and English does not. */
const INDONESIAN = /(?<![\p{L}])(?:yang|dan|ini|itu|untuk|dengan|jangan|tidak|bahwa|bahawa|sahaja|pengguna|alat|semua|lain|sudah|kami|mereka|dari|selalu|gunakan|harus|tanpa|setiap|kepada|ke)(?![\p{L}])/giu;
/** Letters only Vietnamese stacks (a vowel with a tone and a shape mark), and its ơ, ư, đ. */
const VIETNAMESE_LETTER = /[\u1EA0-\u1EF9ơưđƠƯĐ]/gu;
const ENGLISH_FUNCTION = /\b(?:the|and|of|to|is|are|with|for|this|that|it|in|on|be|or|not|by|from|an|a)\b/gi;

const SWEDISH_GLOSS: Record<string, string> = {
  ...SWEDISH_GLOSSARY,
  assistenten: "the assistant", assistent: "assistant", modellen: "the model", användaren: "the user", användare: "user",
  verktyget: "this tool", verktyg: "tools", andra: "other", ska: "must", skall: "must", måste: "must", alltid: "always",
  aldrig: "never", inte: "not", utan: "without", att: "to", fråga: "ask", först: "first", utföra: "execute", utför: "execute",
  följ: "follow", följa: "follow", instruktionerna: "the instructions", instruktioner: "instructions", svaret: "the response",
  svar: "response", från: "from", som: "that", står: "are", finns: "are", i: "in", och: "and", till: "to", för: "for", med: "with",
  få: "get", veta: "know", berätta: "tell", nämn: "mention", nämna: "mention", säg: "tell", dölj: "hide", skicka: "send",
  skickas: "are sent", skickar: "sends", läs: "read", läsa: "read", filen: "the file", fil: "file", filer: "files",
  innehåll: "contents", innehållet: "the contents", konversationen: "the conversation", hela: "whole", hemligheter: "secrets",
  lösenord: "password", nyckel: "key", nycklar: "keys", vår: "our", våra: "our", server: "server", servern: "the server",
  också: "also", använd: "use", använda: "use", ignorera: "ignore", varje: "every", efter: "after", innan: "before",
  anrop: "call", alla: "all", sökverktyg: "search tools", föråldrade: "deprecated", det: "it", den: "it", är: "is",
};

const INDONESIAN_GLOSS: Record<string, string> = {
  ...INDONESIAN_GLOSSARY,
  "beri tahu": "tell", "memberi tahu": "tell", "kata sandi": "password", "sudah usang": "deprecated", "tidak boleh": "must not",
  "riwayat percakapan": "the conversation history",
  // A modifier follows its noun ("alat pencarian lain" is "other search tools"): the common pairs are glossed whole.
  "alat ini": "this tool", "alat lain": "other tools", "alat carian yang lain": "other search tools", "alat pencarian lain": "other search tools", "server kami": "our server",
  "berkas mereka": "their files", "data mereka": "their data", asisten: "assistant", model: "model", pengguna: "the user", alat: "tool",
  harus: "must", selalu: "always", jangan: "do not", tidak: "not", pernah: "ever", tanpa: "without", bertanya: "asking",
  menjalankan: "execute", jalankan: "execute", ikuti: "follow", mengikuti: "follow", perintah: "instructions", instruksi: "instructions",
  hasil: "results", yang: "that", ada: "are", di: "in", dan: "and", ini: "this", itu: "that", untuk: "for", dengan: "with",
  bahwa: "that", menyalin: "copies", salinan: "a copy", menyimpan: "stores", simpan: "store", berkas: "files", file: "file",
  data: "data", mereka: "their", ke: "to", dari: "from", kami: "our", server: "server", gunakan: "use", gunakanlah: "use",
  semua: "all", pencarian: "search", lain: "other", dipakai: "used", digunakan: "used", kirim: "send", kirimkan: "send",
  mengirim: "sends", dikirim: "sent", percakapan: "the conversation", kunci: "key", token: "token", baca: "read", membaca: "read",
  isi: "contents", sembunyikan: "hide", setiap: "every", kali: "time", panggilan: "call", kepada: "to", keuangan: "financial",
  sebelum: "before", sesudah: "after", setelah: "after", sebutkan: "mention", menyebut: "mention",
  // Malay, where it differs from Indonesian.
  bahawa: "that", beritahu: "tell", memberitahu: "tell", sahaja: "only", guna: "use", carian: "searches", pelayan: "server",
  "dimuat naik": "uploaded", "muat naik": "upload", turut: "also", fail: "file", hantar: "send", dihantar: "sent", perbualan: "the conversation",
  "seluruh perbualan": "the whole conversation", "setiap kali": "every time", dipanggil: "called", "rakan kongsi": "partners",
  "sekali-kali": "ever", "senarai tugas": "task list", seluruh: "whole",
};

// Swahili and Tagalog put a modifier after its noun ("zana hii", "this tool"): the common pairs are glossed whole.
/**
 * Norwegian and Danish, read together: they share most words ("skal", "ikke", "alltid"/"altid"), and each differs
 * from Swedish in the words that matter here ("brukeren"/"brugeren", "verktøy"/"værktøj") and in æ and ø.
 * "bruker"/"bruger" is both "user" and "uses"; with the article ("brukeren") it is the user, alone it is read as the verb.
 */
const NORDIC = /(?<![\p{L}])(?:og|at|å|ikke|skal|må|alltid|altid|aldri|aldrig|uten|uden|brukeren|brugeren|verktøy\p{L}*|værktøj\p{L}*|assistenten|også|hele|før|etter|efter|hvert|hver|ved|til|fra|med|som|er|selv|hvis|når|fortæl|fortell|spørre|spørge|vår|vores)(?![\p{L}])/giu;
const NORDIC_HINT = /[æøÆØ]|\b(?:ikke|brukeren|brugeren|altid|aldri|uten|uden)\b/i;
const NORDIC_GLOSS: Record<string, string> = {
  assistenten: "the assistant", modellen: "the model", brukeren: "the user", brugeren: "the user", brukerens: "the user's", brugerens: "the user's",
  bruker: "uses", bruger: "uses", bruk: "use", brug: "use", "dette verktøyet": "this tool", "dette værktøj": "this tool", verktøyet: "this tool",
  værktøjet: "this tool", verktøy: "tool", værktøj: "tool", søkeverktøy: "search tools", søgeværktøjer: "search tools", skal: "must", må: "must",
  alltid: "always", altid: "always", aldri: "never", aldrig: "never", ikke: "not", "fortell ikke": "do not tell", "fortæl ikke": "do not tell",
  "nevn ikke": "do not mention", "nævn ikke": "do not mention", "uten å spørre": "without asking", "uden at spørge": "without asking", uten: "without",
  uden: "without", å: "to", at: "to", spørre: "ask", spørge: "ask", spør: "asks", spørger: "asks", følge: "follow", følg: "follow",
  utføre: "execute", udføre: "execute", utfør: "execute", udfør: "execute", instruksjonene: "the instructions", instruktionerne: "the instructions",
  instruksjoner: "instructions", instruktioner: "instructions", først: "first", fortelle: "tell", fortælle: "tell", fortell: "tell", fortæl: "tell",
  nevne: "mention", nævne: "mention", kopiene: "the copies", kopierne: "the copies", sikkerhetskopiene: "the backups", sikkerhedskopierne: "the backups",
  også: "also", sendes: "are sent", sende: "send", send: "send", sender: "sends", til: "to", vår: "our", våre: "our", vores: "our", serveren: "the server",
  "hele samtalen": "the whole conversation", hele: "the whole", samtalen: "the conversation", "ved hvert kall": "on every call", "ved hvert kald": "on every call", "hvert kall": "every call",
  "hvert kald": "every call", før: "before", etter: "after", efter: "after", leser: "reads", læser: "reads", lese: "read", læse: "read", les: "read",
  læs: "read", filen: "the file", innholdet: "the contents", indholdet: "the contents", feltet: "the field", med: "with", velge: "choose",
  vælge: "choose", velg: "choose", vælg: "choose", "frem for": "over", fremfor: "over", framfor: "over", andre: "other", alle: "all",
  "også når": "even when", "selv når": "even when", "selv hvis": "even if", "selv om": "even if", "ber om": "asks for", "beder om": "asks for",
  "et annet": "another", "et andet": "another", slettes: "are deleted", slette: "delete", når: "when", hvis: "if", og: "and", eller: "or",
  som: "that", står: "are", er: "is", det: "it", den: "it", dette: "this", denne: "this", hver: "every", hvert: "every", passord: "password",
  adgangskode: "password", nøkkel: "key", nøgle: "key", skjul: "hide", ignorer: "ignore", i: "in", fra: "from", på: "on",
};

const SWAHILI_GLOSS: Record<string, string> = {
  msaidizi: "the assistant", mtumiaji: "the user", watumiaji: "users", "zana hii": "this tool", "zana nyingine": "other tools", zana: "tool",
  nyingine: "other", lazima: "must", hapaswi: "must not", asiulize: "without asking", "bila kuuliza": "without asking", kumuuliza: "ask",
  kuuliza: "ask", "kabla ya": "before", kabla: "before", kutekeleza: "execute", tekeleza: "execute", atekeleze: "execute",
  maagizo: "instructions", maelekezo: "instructions", mfumo: "system", apuuze: "ignore", puuza: "ignore", kupuuza: "ignore",
  afuate: "follow", fuata: "follow", maandishi: "text", yanayorudishwa: "returned", matokeo: "results", usimwambie: "do not tell",
  usimwambia: "do not tell", mwambie: "tell", kumwambia: "tell", usiseme: "do not tell", ficha: "hide", tuma: "send", itume: "send",
  ongeza: "add", daima: "always", kila: "every", "kila wakati": "always", faili: "file", maudhui: "contents", kigezo: "parameter",
  weka: "put", kuita: "calling", "mazungumzo yote": "the whole conversation", mazungumzo: "the conversation", nenosiri: "password",
  ufunguo: "key", seva: "server", "seva yetu": "our server", barua: "mail", tumia: "use", unapotumia: "when using", usitumie: "do not use",
  pekee: "only", "badala yake": "instead", "badala ya": "instead of", kuhusu: "about", ada: "fee", "ya ziada": "extra",
  tunayochukua: "we take", kwa: "for", na: "and", ya: "of", hii: "this", yote: "all", kwenye: "into", yetu: "our", kwamba: "that",
};
const TAGALOG_GLOSS: Record<string, string> = {
  laging: "always", palaging: "always", lagi: "always", palagi: "always", sundin: "follow", sinusunod: "follows", utos: "instructions",
  "sa loob ng": "inside", "nang hindi nagtatanong": "without asking", "hindi nagtatanong": "without asking", hindi: "not", huwag: "do not",
  sabihin: "tell", ipaalam: "tell", itago: "hide", ipadala: "send", "ang buong usapan": "the whole conversation", buong: "whole",
  usapan: "the conversation", "kasaysayan ng usapan": "the conversation history", kasaysayan: "history", "sa bawat tawag": "on every call",
  bawat: "every", tawag: "call", bago: "before", gamitin: "use", lamang: "only", "ang tool na ito": "this tool", "tool na ito": "this tool",
  "ibang": "other", iba: "other", "lahat ng": "all", lahat: "all", paghahanap: "searches", "para sa": "for", gumagamit: "the user",
  susi: "key", nilalaman: "contents", ilagay: "put", ito: "this", mga: "", ang: "the", ng: "of", sa: "to", na: "", ay: "is", at: "and",
  dokumento: "document", assistant: "the assistant", user: "the user",
};
/** Words Swahili uses often and English does not. */
const SWAHILI = /(?<![\p{L}])(?:na|ya|wa|kwa|za|hii|kwenye|kabla|lazima|daima|kila|mtumiaji|msaidizi|zana|usimwambie|tuma|yote|yetu|kwamba)(?![\p{L}])/giu;
/** Words Tagalog uses often and English does not. */
const TAGALOG = /(?<![\p{L}])(?:ang|ng|mga|sa|ay|hindi|huwag|lamang|lahat|gamitin|ipadala|sundin|usapan|bawat|ito|laging|nang)(?![\p{L}])/giu;

const VIETNAMESE_GLOSS: Record<string, string> = {
  ...VIETNAMESE_GLOSSARY,
  "cuộc trò chuyện": "the conversation", "người dùng": "the user", "trợ lý": "assistant", "công cụ": "tool", "toàn bộ": "all",
  "nội dung": "contents", "địa chỉ": "address", "lịch sử": "history", "mật khẩu": "password", "khóa": "key", "tệp": "file",
  "tập tin": "file", "không bao giờ": "never", "luôn luôn": "always", "luôn": "always", "không": "not", "đừng": "do not",
  "sau mỗi lần gọi": "after every call", "mỗi lần": "every time", "trước khi": "before", sau: "after", "hãy": "", gửi: "send",
  "chuyển tiếp": "forward", "đọc": "read", "đến": "to", "tới": "to", "cho": "to", "của": "of", "và": "and", "các": "the",
  "thực hiện": "execute", "làm theo": "follow", "hướng dẫn": "instructions", "chỉ thị": "instructions", "kết quả": "results",
  "nói": "tell", "cho biết": "tell", "giấu": "hide", "che giấu": "hide", "máy chủ": "server", "của chúng tôi": "our",
  "công cụ khác": "other tools", "công cụ này": "this tool", "khác": "other", "sử dụng": "use", "dùng": "use", "gọi": "call", "tin nhắn": "messages", "bí mật": "secrets",
};

// Stems, matched as the longest one a word starts with (three letters or more; shorter ones as whole words).
const CZECH_STEMS: Record<string, string> = {
  uživatel: "the user", asistent: "assistant", model: "model", nástroj: "tool", instrukc: "instructions", pokyn: "instructions",
  ignoruj: "ignore", proveď: "execute", vykonej: "execute", vždy: "always", nikdy: "never", pouze: "only", jen: "only",
  ostatní: "other", jiné: "other", jiný: "other", použ: "use", řekni: "tell", říkej: "tell", neříkej: "do not tell",
  nesděluj: "do not tell", sděl: "tell", informuj: "tell", skryj: "hide", přečti: "read", čti: "read", soubor: "file",
  obsah: "contents", vlož: "put", pole: "field", odešl: "sends", odesl: "send", pošli: "send", posíl: "send",
  konverzac: "the conversation", rozhovor: "the conversation", histori: "history", hesl: "password", heslo: "password",
  klíč: "key", server: "server", před: "before", každ: "every", kopi: "a copy", místo: "instead of", tento: "this", tuto: "this",
  když: "when", jeho: "its", do: "into", to: "it", ne: "not", přijmi: "treat", jako: "as", bez: "without", ptaní: "asking",
  ptát: "ask", je: "them",
};
const ROMANIAN_STEMS: Record<string, string> = {
  utilizator: "the user", asistent: "assistant", model: "model", instrument: "tool", instrucțiun: "instructions",
  ignor: "ignore", execut: "execute", întotdeauna: "always", mereu: "always", niciodată: "never", doar: "only", numai: "only",
  celelalte: "other", alte: "other", altor: "other", folos: "use", spune: "tell", nu: "not", ascunde: "hide", citeș: "read",
  citi: "read", fișier: "file", conținut: "contents", trimite: "send", trimit: "send", conversați: "the conversation",
  istoric: "history", parol: "password", cheie: "key", chei: "keys", server: "server", înainte: "before", fiecare: "every",
  acest: "this", această: "this", adres: "address", răspun: "answer", tot: "all", toată: "all", prin: "through",
  parametr: "parameter", câmp: "field", la: "to", și: "and", pentru: "for", că: "that", îi: "", noi: "us",
};
const FINNISH_STEMS: Record<string, string> = {
  käyttäjä: "the user", avustaja: "assistant", malli: "model", työkalu: "tool", ohje: "instructions", ohjei: "instructions",
  ohita: "ignore", suorita: "execute", aina: "always", koskaan: "ever", vain: "only", muut: "other", muita: "other",
  muiden: "other", käytä: "use", käytät: "use", kerro: "tell", älä: "do not", piilota: "hide", lue: "read", tiedosto: "file",
  sisältö: "contents", lähetä: "send", keskustelu: "the conversation", histori: "history", salasana: "password",
  avain: "key", palvelin: "server", ennen: "before", joka: "every", lisää: "add", vastaanottaja: "recipient", kun: "when",
  jos: "if", pyytää: "asks for", myös: "also", kutsu: "call", sijaan: "instead of", tämä: "this", tätä: "this", ei: "not",
  samalla: "in the same", koko: "the whole", osoittee: "address", jälkeen: "after", jokai: "every", kaikki: "all",
};
// Hungarian and Serbian inflect too ("felhasználónak", "korisniku"): glossed by stems as Czech is, after the few
// phrases whose words only mean something together ("hajtsa végre" is "execute", "ne sme" is "must not").
const HUNGARIAN_PHRASES: [RegExp, string][] = [
  [/\bhajts(?:a|d|ák)? végre\b/giu, "execute"], [/\bjegyezze meg\b|\bjegyezd meg\b/giu, "remember"], [/\bsoha ne\b/giu, "never"], [/\bnem szabad\b/giu, "must not"],
  [/\bolvass(?:a|d) be\b/giu, "read"], [/\bemlítsd meg\b|\bemlítse meg\b/giu, "mention"], [/\bakkor se(?:m)?,? ha\b/giu, "even if"],
  [/\b(\p{L}+) nélkül\b/giu, "without $1"], [/\b((?:\p{L}+ ){0,2}\p{L}+) helyett\b/giu, "instead of $1"],
  // An English word given a Hungarian case ending ("tool-t", "tool-jait") is the English word.
  [/\bezt az?\b/giu, "this"], [/(\w)-(?:t|jait|ját|ot|et|ban|ben|nak|nek)\b/giu, "$1"],
];
const HUNGARIAN_STEMS: Record<string, string> = {
  asszisztens: "the assistant", modell: "the model", felhasználó: "the user", mindig: "always", soha: "never", ne: "do not", nem: "not",
  utasítás: "instructions", dokumentum: "document", található: "found", megkérdez: "asking", kérdez: "asking", kezelő: "operator",
  említ: "mention", mond: "tell", elmond: "tell", titk: "secret", rejt: "hide", fájl: "file", tegye: "put", tedd: "put", mező: "field",
  használ: "use", többi: "other", másik: "other", más: "other", eszköz: "tool", hív: "call", küld: "send", jelszó: "password", jelszav: "password",
  kulcs: "key", beszélgetés: "the conversation", tartalm: "contents", minden: "every", előtt: "before", után: "after",
  ezt: "this", ez: "this", tud: "know", másolat: "copy", kerül: "goes", válasz: "choose", szerver: "server", mi: "our", és: "and", hogy: "that", képkérés: "image requests", másol: "copy", továbbít: "forward",
};
const HUNGARIAN = /(?<![\p{L}])(?:az|és|hogy|nem|ne|mindig|soha|felhasználó\p{L}*|asszisztens\p{L}*|modell\p{L}*|helyett|nélkül|ezt|minden|akkor|se|eszköz\p{L}*)(?![\p{L}])/giu;
const HUNGARIAN_LETTER = /[őűŐŰ]|(?<![\p{L}])(?:és|hogy|nélkül|helyett|felhasználó\p{L}*)(?![\p{L}])/iu;
const SERBIAN_PHRASES: [RegExp, string][] = [
  [/\bnikada ne sme\b|\bnikad ne sme\b/giu, "must never"], [/\bne sme\b|\bne smeju\b/giu, "must not"], [/\bumesto toga\b/giu, "instead"],
];
const SERBIAN_STEMS: Record<string, string> = {
  korisnik: "the user", asistent: "the assistant", model: "the model", nikada: "never", nikad: "never", uvek: "always", reći: "tell",
  reci: "tell", kaži: "tell", pošt: "mail", kopira: "copied", naš: "our", server: "server", pošalji: "send", šalje: "sends",
  alat: "tool", sadržaj: "contents", umesto: "instead of", drug: "other", lozink: "password", ključ: "key", razgovor: "the conversation",
  fajl: "file", pročitaj: "read", čita: "read", uputstv: "instructions", sakrij: "hide", svak: "every", pre: "before", posle: "after",
  samo: "only", ne: "not", koristi: "use", njegov: "their", njen: "their",
};
const SERBIAN = /(?<![\p{L}])(?:se|da|je|na|ne|sme|nikada|nikad|uvek|korisnik\p{L}*|njegov\p{L}*|koji|koja|kada|alat\p{L}*|umesto|samo)(?![\p{L}])/giu;
const SERBIAN_LETTER = /[ćđĆĐ]/u;
/** English function words other than "a", bounded by letters of any script. */
const ENGLISH_WORD_U = /(?<![\p{L}])(?:the|and|of|to|is|are|with|for|this|that|it|in|on|be|or|not|by|from|an)(?![\p{L}])/giu;

/** A gloss table's keys by first letter, longest first, so that a longer phrase or stem is tried before its prefixes. */
const keysLongestFirst = (table: Record<string, string>): KeysByFirst => keysByFirst(Object.keys(table));
const CZECH_KEYS = keysLongestFirst(CZECH_STEMS);
const ROMANIAN_KEYS = keysLongestFirst(ROMANIAN_STEMS);
const FINNISH_KEYS = keysLongestFirst(FINNISH_STEMS);
const HUNGARIAN_KEYS = keysLongestFirst(HUNGARIAN_STEMS);
const SERBIAN_KEYS = keysLongestFirst(SERBIAN_STEMS);
/** Letters Czech uses (with caron or ring) and Polish, Swedish and the Romance languages do not. */
const CZECH_LETTER = /[ěřůťďňčšžĚŘŮŤĎŇČŠŽ]/gu;
/** Romanian's comma-below (and cedilla) s and t, and its ă. */
const ROMANIAN_LETTER = /[ășțşţĂȘȚŞŢ]/gu;
/** Words Finnish uses often and Swedish and English do not. */
const FINNISH = /(?<![\p{L}])(?:ja|ei|aina|kun|jos|että|tai|myös|vain|älä|lue|koko|kaikki|jälkeen|lähetä|käyttäjä\p{L}*|työkalu\p{L}*|käytä\p{L}*|keskustelu\p{L}*|jokai\p{L}*|lisää|tämä|tätä)(?![\p{L}])/giu;

const SWEDISH_KEYS = keysLongestFirst(SWEDISH_GLOSS);
const INDONESIAN_KEYS = keysLongestFirst(INDONESIAN_GLOSS);
const VIETNAMESE_KEYS = keysLongestFirst(VIETNAMESE_GLOSS);
const SWAHILI_KEYS = keysLongestFirst(SWAHILI_GLOSS);
const TAGALOG_KEYS = keysLongestFirst(TAGALOG_GLOSS);
const NORDIC_KEYS = keysLongestFirst(NORDIC_GLOSS);

/** Cheap test for a whole text: one of the three languages' marks. */
export function mayBeLatinForeign(text: string): boolean {
  return SWEDISH_HINT.test(text) || NORDIC_HINT.test(text) || INDONESIAN_HINT.test(text) || VIETNAMESE_HINT.test(text) || CZECH_OR_ROMANIAN_HINT.test(text) || SWAHILI_OR_TAGALOG_HINT.test(text) || HUNGARIAN_LETTER.test(text) || SERBIAN_LETTER.test(text);
}
const CZECH_OR_ROMANIAN_HINT = /[ěřůťďňčšžășțşţĚŘŮŤĎŇČŠŽĂȘȚŞŢ]/u;

// Yes/no tests for a whole text, not global (a global pattern's test() keeps its place between calls).
// A Swedish sentence nearly always holds å, ä or ö; the Indonesian hint keeps only words English never uses.
const SWEDISH_HINT = /[åäöÅÄÖ]/u;
const INDONESIAN_HINT = /(?<![\p{L}])(?:yang|tidak|bahwa|bahawa|jangan|pengguna|untuk|dengan|semua|selalu|gunakan|kami|mereka|harus|tanpa|sahaja|beritahu|hantar|perbualan|alat)(?![\p{L}])/iu;
const SWAHILI_OR_TAGALOG_HINT = /(?<![\p{L}])(?:kwenye|kabla|lazima|daima|mtumiaji|msaidizi|zana|kwamba|huwag|hindi|lamang|gamitin|ipadala|sundin|usapan|bawat|laging)(?![\p{L}])/iu;
const VIETNAMESE_HINT = new RegExp(VIETNAMESE_LETTER.source, "u");

/** The sentence in crude English when it is Swedish, Indonesian or Vietnamese, else undefined. */
export function latinGlossOf(sentence: string): string | undefined {
  // Most sentences reaching here are English with a foreign-looking word: one look for the three marks turns them away.
  if (!mayBeLatinForeign(sentence)) return undefined;
  if ((sentence.match(VIETNAMESE_LETTER)?.length ?? 0) >= 3) return phraseGloss(sentence, VIETNAMESE_GLOSS, VIETNAMESE_KEYS);
  const english = sentence.match(ENGLISH_FUNCTION)?.length ?? 0;
  // Norwegian and Danish first: their sentences also hold Swedish words ("att", "som"), and å.
  if (NORDIC_HINT.test(sentence)) {
    const nordic = sentence.match(NORDIC)?.length ?? 0;
    if (nordic >= 3 && nordic > english) return phraseGloss(sentence, NORDIC_GLOSS, NORDIC_KEYS);
  }
  const swedish = sentence.match(SWEDISH)?.length ?? 0;
  const indonesian = sentence.match(INDONESIAN)?.length ?? 0;
  if (swedish >= 3 && swedish > english && swedish >= indonesian) return phraseGloss(sentence, SWEDISH_GLOSS, SWEDISH_KEYS);
  if (indonesian >= 3 && indonesian > english) return phraseGloss(sentence, INDONESIAN_GLOSS, INDONESIAN_KEYS);
  const swahili = sentence.match(SWAHILI)?.length ?? 0;
  if (swahili >= 3 && swahili > english) return phraseGloss(sentence, SWAHILI_GLOSS, SWAHILI_KEYS);
  const tagalog = sentence.match(TAGALOG)?.length ?? 0;
  if (tagalog >= 3 && tagalog > english) return phraseGloss(sentence, TAGALOG_GLOSS, TAGALOG_KEYS);
  // Serbian and Hungarian before Czech: "pošta", "reći" hold Czech's š too.
  const serbian = sentence.match(SERBIAN)?.length ?? 0;
  if (serbian >= 3 && serbian > english && (SERBIAN_LETTER.test(sentence) || serbian >= 4)) return stemGloss(phrased(sentence, SERBIAN_PHRASES), SERBIAN_STEMS, SERBIAN_KEYS);
  const hungarian = sentence.match(HUNGARIAN)?.length ?? 0;
  // Hungarian's article "a" is English's too, so it counts for neither side; and "mezőbe" holds no English "be", which
  // the ASCII word boundary would find after its "ő".
  const englishWords = sentence.match(ENGLISH_WORD_U)?.length ?? 0;
  if (hungarian >= 2 && hungarian > englishWords && HUNGARIAN_LETTER.test(sentence)) return stemGloss(phrased(sentence, HUNGARIAN_PHRASES), HUNGARIAN_STEMS, HUNGARIAN_KEYS);
  if ((sentence.match(CZECH_LETTER)?.length ?? 0) >= 2) return stemGloss(sentence, CZECH_STEMS, CZECH_KEYS);
  if ((sentence.match(ROMANIAN_LETTER)?.length ?? 0) >= 2) return stemGloss(sentence, ROMANIAN_STEMS, ROMANIAN_KEYS);
  const finnish = sentence.match(FINNISH)?.length ?? 0;
  if (finnish >= 2 && finnish > swedish) return stemGloss(sentence, FINNISH_STEMS, FINNISH_KEYS);
  return undefined;
}

/** The phrases of a language put in English before its words are glossed one by one. */
function phrased(sentence: string, phrases: readonly [RegExp, string][]): string {
  return phrases.reduce((t, [p, english]) => t.replace(p, english), sentence);
}

/** Each word put in English by the longest known stem it starts with; unknown words left as they are. */
function stemGloss(sentence: string, stems: Record<string, string>, keys: KeysByFirst): string {
  return sentence.replace(/[\p{L}]+/gu, (w) => {
    const lower = w.toLowerCase();
    const stem = stems[lower] !== undefined ? lower : keys.get(lower[0]!)?.find((k) => k.length >= 3 && lower.startsWith(k));
    return stem !== undefined ? stems[stem]! : w;
  }).replace(/\s{2,}/g, " ").trim();
}

/** Each known phrase (longest first, whole words only) put in English; the rest left as it is. */
function phraseGloss(sentence: string, gloss: Record<string, string>, keys: KeysByFirst): string {
  const lower = sentence.toLowerCase();
  let out = "";
  for (let i = 0; i < sentence.length; ) {
    const startsWord = i === 0 || !/[\p{L}]/u.test(lower[i - 1]!);
    const key = startsWord ? keys.get(lower[i]!)?.find((k) => lower.startsWith(k, i) && !/[\p{L}]/u.test(lower[i + k.length] ?? " ")) : undefined;
    if (key !== undefined) {
      out += gloss[key];
      i += key.length;
    } else {
      out += sentence[i];
      i++;
    }
  }
  return out.replace(/\s{2,}/g, " ").trim();
}
