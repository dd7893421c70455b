/**
 * Sentences in Chinese, Japanese, Russian and Polish, read in English the way foreign.ts reads Spanish or German.
 * Chinese and Japanese put no spaces between words, and Russian and Polish inflect every noun and verb, so a
 * word-for-word dictionary does not fit: Chinese and Japanese are glossed by the longest known word at each place,
 * Russian and Polish by the longest known stem a word starts with. The dictionaries hold only the words that carry
 * the readers' concepts (the user, the model, instructions, telling, hiding, reading, sending, files, the
 * conversation, other tools, always, never, only); everything else stays as it is, and the readers look for concepts
 * meeting in a sentence, not for grammar.
 */

const CJK = /[\u3040-\u30FF\u3400-\u9FFF]/u;
const CYRILLIC = /[\u0400-\u04FF]/u;
/** Letters only Polish uses, or its most frequent words: a Latin-script sentence that is Polish. */
const POLISH = /[ąćęłńśźż]|\b(?:się|jest|nie|tego|przed|zawsze|nigdy|oraz|zamiast|innych|każdym)\b/iu;

// Chinese and Japanese, matched longest first.
const CJK_WORDS: Record<string, string> = {
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
const CJK_KEYS = Object.keys(CJK_WORDS).sort((a, b) => b.length - a.length);

// Russian and Polish stems, matched as the longest one a word starts with.
const STEMS: Record<string, string> = {
  // Russian
  пользовател: "user", ассистент: "assistant", модел: "model", инструмент: "tool", инструкц: "instructions", указани: "instructions",
  игнорир: "ignore", следуй: "follow", выполн: "execute", всегда: "always", никогда: "never", только: "only", не: "not",
  други: "other", друго: "other", использ: "use", говори: "tell", сообща: "tell", сообщ: "tell", скрыва: "hide", скрой: "hide",
  прочита: "read", прочти: "read", читай: "read", файл: "file", содержим: "contents", перед: "before", вызов: "call",
  передай: "pass", отправ: "send", пересыл: "forward", истори: "history", переписк: "the conversation", разговор: "the conversation",
  диалог: "the conversation", после: "after", каждого: "every", для: "for", кажд: "every", любых: "any", любой: "any", вместо: "instead of",
  этот: "this", это: "this", ключ: "key", парол: "password", поле: "field", поля: "field", систем: "system", правил: "rules",
  // Polish
  użytkownik: "user", asystent: "assistant", narzędzi: "tool", narzędzie: "tool", instrukcj: "instructions", ignoruj: "ignore",
  zawsze: "always", nigdy: "never", tylko: "only", nie: "not", używaj: "use", używ: "use", użyci: "use", zamiast: "instead of",
  innych: "other", inne: "other", inny: "other", mów: "tell", informuj: "tell", ukryj: "hide", odczytaj: "read", czytaj: "read",
  plik: "file", zawartość: "contents", wklej: "put", pola: "field", pole: "field", wysyłaj: "send", wyślij: "send", prześlij: "send",
  rozmow: "the conversation", historię: "history", histori: "history", każdym: "every", każd: "every", przed: "before", tego: "this",
  hasł: "password", klucz: "key", serwer: "server", dodaj: "add", odbiorc: "recipients",
};
const STEM_KEYS = Object.keys(STEMS).sort((a, b) => b.length - a.length);
const WORD = /[\p{L}]+/gu;

/** Whether a text may hold a Chinese, Japanese, Russian or Polish sentence. */
export function mayBeOtherScript(text: string): boolean {
  // Every script and every Polish sentence the gloss reads holds a letter outside ASCII: English text needs one test.
  return NON_ASCII.test(text) && (CJK.test(text) || CYRILLIC.test(text) || POLISH_LETTER.test(text));
}

const NON_ASCII = /[^\x00-\x7F]/;
const POLISH_LETTER = /[ąćęłńśźż]/iu;

/** The sentence in crude English when it is Chinese, Japanese, Russian or Polish, else undefined. */
export function scriptGlossOf(sentence: string): string | undefined {
  if (CJK.test(sentence)) return cjkGloss(sentence);
  if (CYRILLIC.test(sentence) || (POLISH.test(sentence) && (sentence.match(/[ąćęłńśźż]/giu)?.length ?? 0) >= 2)) return stemGloss(sentence);
  return undefined;
}

function cjkGloss(sentence: string): string {
  let out = "";
  for (let i = 0; i < sentence.length; ) {
    const key = CJK.test(sentence[i]!) ? CJK_KEYS.find((k) => sentence.startsWith(k, i)) : undefined;
    if (key) {
      out += ` ${CJK_WORDS[key]} `;
      i += key.length;
    } else {
      // Unknown ideographs and kana are dropped; Latin text (tool names, addresses) is kept.
      const c = sentence[i]!;
      out += CJK.test(c) ? "" : c === "。" || c === "、" || c === "，" ? " " : c;
      i++;
    }
  }
  return `${out.replace(/\s{2,}/g, " ").trim()}.`;
}

function stemGloss(sentence: string): string {
  return sentence.replace(WORD, (w) => {
    const lower = w.toLowerCase();
    // Two-letter stems ("не") only as whole words; longer ones as the start of an inflected word.
    const stem = STEMS[lower] !== undefined ? lower : STEM_KEYS.find((k) => k.length >= 3 && lower.startsWith(k));
    return stem ? STEMS[stem]! : w;
  });
}
