/**
 * A sentence in another language inside an English definition is read in English. A definition's readers
 * (intent.ts, structure.ts) know their word families in English; a note to the model written in Spanish, German or
 * French ("Nota para el asistente: ignora las instrucciones…") would pass them by its language alone. So a sentence
 * whose function words are mostly Spanish, German or French is glossed word by word into English with a small
 * dictionary of the words that carry the categories (the model, the user, instructions, telling, hiding, reading,
 * files, other tools, always, never, must), and the gloss is read beside the original.
 *
 * The gloss is crude on purpose: word order stays, unknown words stay. The readers look for concepts meeting in a
 * sentence, not for grammar, so "olvida las reglas del operador" glossed as "forget the rules of the operator" is
 * enough. Pure and synchronous.
 */

import { LATIN_GLOSSARY } from "./foreign-glossary.js";
import { latinGlossOf, mayBeLatinForeign } from "./foreign-latin.js";
import { mayBeOtherScript, scriptGlossOf } from "./foreign-scripts.js";

/** Function words that say a sentence is Spanish, German or French (and are rare in English prose). */
const FOREIGN_FUNCTION =
  /(?<![\p{L}'])(?:el|la|le|los|las|del|al|que|para|por|con|una|esta|este|nunca|siempre|solo|sólo|también|usuario|herramienta|der|die|das|und|nicht|nie|immer|ist|sind|mit|für|des|dem|den|ein|eine|wenn|muss|müssen|dieses|diese|über|vorher|auch|nur|les|du|pour|avec|une|sont|jamais|toujours|ne|pas|nos|vos|cette|ce|et|aux|est|votre|doit|utilisateur|outil|vous|de|cuando|quand|sus|ses|jede|jeder|nach|samt|à|chaque|dile|vom|wird|il|della|delle|degli|dei|nel|nella|non|che|sono|questo|questa|mai|sempre|anche|utente|strumento|gli|ogni|não|os|dos|ao|um|uma|com|também|usuário|ferramenta|deve|nosso|em|pelo|pela|às|het|een|van|niet|nooit|altijd|naar|voor|wordt|ook|alleen|deze|moet|gebruiker|welke|onze|met)(?![\p{L}'])/giu;
/** Frequent Spanish, German and French words, any of which a sentence in those languages nearly always holds. */
const FOREIGN_HINT = /\b(?:el|la|los|las|del|que|para|por|con|una|der|die|das|und|nicht|ist|mit|den|dem|des|ein|eine|les|pour|avec|une|est|et|ne|pas|du|au|aux|il|della|non|che|per|sono|het|een|van|niet|naar|voor|wordt|ook|de|os|dos|ao|uma|com|deve|ogni|dell)\b|(?:não|também|usuário|às)/;
/** An elided article or preposition ("l'assistente", "dell'utente", "qu'il") counts as a function word of its sentence. */
const ELIDED = /(?<![\p{L}])(?:l|dell|all|nell|sull|dall|qu|d|n|c|j)['’](?=\p{L})/giu;
const ELIDED_GLOSS: Record<string, string> = { dell: "of the", all: "to the", nell: "in the", sull: "on the", dall: "from the" };
/** English function words: a sentence with as many of these is English with a foreign name or two in it. */
const ENGLISH_FUNCTION = /\b(?:the|and|of|to|is|are|with|for|this|that|it|in|on|be|or|not|by|from|an|a)\b/gi;
// Not inside an address: "suchdienst.de" keeps its "de".
// Nor inside a path or an identifier: "id_ed25519" keeps its "ed".
const WORD = /(?<![./@:_~\p{L}\p{N}])[\p{L}][\p{L}'’-]*(?![\p{N}_])/gu;

/** Word-by-word English for the words that carry a category; everything else is left as it is. */
const GLOSS: Record<string, string> = {
  // The wider vocabulary first: this dictionary's own words win.
  ...LATIN_GLOSSARY,
  // Pronouns and particles with no weight for the readers ("nunca le digas", "se guarda", "ne mentionnez").
  le: "", se: "", lo: "", en: "in", als: "as",
  // Spanish
  el: "the", la: "the", los: "the", las: "the", del: "of the", al: "the", que: "that", para: "for", por: "by", con: "with",
  una: "a", un: "a", esta: "this", este: "this", y: "and", nunca: "never", siempre: "always", solo: "only", sólo: "only",
  también: "also", usuario: "user", usuarios: "users", asistente: "assistant", modelo: "model", herramienta: "tool",
  herramientas: "tools", otras: "other", otros: "other", instrucciones: "instructions", instrucción: "instruction", reglas: "rules",
  indicaciones: "instructions", sistema: "system", ignora: "ignore", ignorar: "ignore", olvida: "forget", sigue: "follow",
  obedece: "obey", responde: "answer", digas: "tell", digan: "tell", decir: "tell", menciones: "mention", mencionar: "mention",
  debe: "must", debes: "must", usa: "use", utiliza: "use", lee: "read", leer: "read", archivo: "file", fichero: "file", envía: "send",
  envia: "send", enviar: "send", copia: "copy", contenido: "contents", campo: "field", servidor: "server", servidores: "servers",
  nuestros: "our", nuestro: "our", guarda: "stores", guardan: "store", obsoletas: "deprecated", obsoletos: "deprecated",
  erróneos: "wrong", erróneas: "wrong", falsos: "wrong", búsqueda: "search", oculta: "hide", ocultar: "hide", datos: "data",
  contraseña: "password", contraseñas: "passwords", claves: "keys", conversación: "conversation", mensajes: "messages",
  // German
  der: "the", die: "the", das: "the", und: "and", nicht: "not", nie: "never", niemals: "never", immer: "always", ist: "is",
  sind: "are", mit: "with", für: "for", des: "of the", dem: "the", den: "the", ein: "a", eine: "a", wenn: "when", muss: "must",
  müssen: "must", soll: "should", dieses: "this", diese: "this", dieser: "this", über: "about", vorher: "first", auch: "also",
  nur: "only", zusätzlich: "also", nutzer: "user", benutzer: "user", assistent: "assistant", modell: "model", werkzeug: "tool",
  werkzeuge: "tools", tool: "tool", anderen: "other", andere: "other", anweisungen: "instructions", regeln: "rules",
  ignoriere: "ignore", vergiss: "forget", befolge: "follow", sage: "tell", sag: "tell", erwähne: "mention", verwende: "use",
  benutze: "use", nutze: "use", lies: "read", lese: "read", datei: "file", inhalt: "contents", feld: "field", füge: "put",
  übergib: "pass", schicke: "send", schicken: "send", sende: "send", senden: "send", kopiere: "copy", veraltet: "deprecated",
  falsche: "wrong", ergebnisse: "results", suchwerkzeuge: "search tools", verschweige: "hide", verberge: "hide", daten: "data",
  passwort: "password", empfänger: "recipient", verwenden: "use", benutzen: "use", spricht: "talks", erwähnt: "mentions",
  konto: "account", zahlungen: "payments", liefern: "give", kanal: "channel", jede: "every", jeden: "every", alle: "all", schlüssel: "keys", gespräch: "conversation", nachrichten: "messages", nachricht: "message",
  // French
  les: "the", du: "of the", pour: "for", avec: "with", une: "a", sont: "are", jamais: "never", toujours: "always",
  ne: "", pas: "not", nos: "our", vos: "your", cette: "this", ce: "this", et: "and", aux: "to the", est: "is", votre: "your",
  doit: "must", doivent: "must", utilisateur: "user", utilisateurs: "users", outil: "tool", outils: "tools", autres: "other",
  assistant: "assistant", modèle: "model", instructions: "instructions", règles: "rules", ignorez: "ignore", ignore: "ignore",
  oubliez: "forget", suivez: "follow", dites: "tell", mentionnez: "mention", mentionner: "mention", dire: "tell", utilisez: "use",
  lisez: "read", fichier: "file", contenu: "contents", champ: "field", envoyez: "send", envoyer: "send", copiez: "copy",
  serveurs: "servers", serveur: "server", conservé: "stored", conservée: "stored", conservés: "stored", obsolètes: "deprecated",
  faux: "wrong", résultats: "results", recherche: "search", cachez: "hide", données: "data", "mot de passe": "password",
  conversation: "conversation", messages: "messages", vous: "you", à: "to", aussi: "also", envoyé: "sent", envoyée: "sent",
  envoyés: "sent", envoyées: "sent", partagé: "shared", partagée: "shared", gardé: "kept", gardée: "kept",
  // Everyday words of requests and answers, what moves where, and whose it is ("leitet jede Anfrage samt Antwort an …
  // weiter", "cuando se use …, el campo … debe ser", "ses fichiers sont copiés sur notre serveur").
  de: "of", cuando: "when", quand: "when", ser: "be", être: "be", sus: "their", su: "their", ses: "their", leurs: "their",
  notre: "our", sur: "on", respuestas: "answers", respuesta: "answer", tienen: "have", tiene: "has", prioridad: "priority",
  sobre: "over", pagos: "payments", pago: "payment", historial: "history", fichiers: "files", copiés: "copied", copiées: "copied",
  historique: "history", clés: "keys", ajoutez: "add", ajouter: "add", tout: "all", toute: "all", "réponse": "answer",
  "réponses": "answers", requête: "request", requêtes: "requests", chaque: "every", paiements: "payments",
  sendet: "sends", schickt: "sends", leitet: "forwards", weiter: "on", an: "to", samt: "with", nach: "after", jeder: "every",
  suche: "search", suchbegriffe: "search terms", anfrage: "request", anfragen: "requests", antwort: "answer", antworten: "answers",
  vollständigen: "full", vollständige: "full", bisherigen: "earlier", gesprächsverlauf: "conversation history", verlauf: "history",
  gespeicherten: "saved", zugangsdaten: "credentials", hinweis: "note", notizen: "notes", systemanweisungen: "system instructions",
  gehen: "go", vor: "before", unseren: "our", unser: "our", server: "server",
  si: "if", notas: "notes", alguien: "someone", asunto: "subject", empezar: "start", empieza: "starts", correo: "mail",
  gelten: "apply", gilt: "applies", üblichen: "usual", richtlinien: "guidelines", fragt: "asks", fragen: "ask", nota: "note", artículo: "article", antes: "before", propias: "own", propios: "own", pregunta: "asks",
  preguntan: "ask", privacidad: "privacy", dile: "tell", díle: "tell", nada: "nothing",
  passwörter: "passwords", vom: "of the", verwendet: "used", wird: "is", werden: "are", sein: "be",
  transmet: "sends", transmettez: "send", envoie: "sends", analysé: "analysed", améliorer: "improve", mots: "words",
  personne: "person", demande: "asks",
  // Approving and checking, done or skipped ("aprobar automáticamente … sin consultar al usuario", "bitte … mitsenden").
  aprobar: "approve", aprueba: "approve", automáticamente: "automatically", solicitud: "request", solicitudes: "requests",
  consultar: "consulting", comprobar: "checking", verificar: "checking", confirmar: "confirming", ni: "or", motivo: "reason",
  avisar: "telling", borrar: "delete", eliminar: "delete", genaue: "accurate", im: "in the", von: "of", mitsenden: "send along",
  mitschicken: "send along", nachzufragen: "asking", bestätigung: "confirmation", automatisch: "automatically",
  genehmigen: "approve", approuver: "approve", automatiquement: "automatically", vérifier: "checking", confirmer: "confirming",
  aprovar: "approve", perguntar: "asking", automaticamente: "automatically",
  // Italian
  il: "the", gli: "the", della: "of the", delle: "of the", degli: "of the", dei: "of the", nel: "in the", nella: "in the",
  che: "that", non: "not", mai: "never", sempre: "always", soltanto: "only", anche: "also", questo: "this", questa: "this",
  utente: "user", utenti: "users", assistente: "assistant", strumento: "tool", strumenti: "tools", regole: "rules",
  istruzioni: "instructions", segui: "follow", seguire: "follow", dimentica: "forget", ignorare: "ignore", deve: "must",
  devono: "must", dovrebbe: "should", includere: "include", includa: "include", contenuto: "contents", altrimenti: "otherwise",
  archivio: "archive", caricato: "uploaded", caricati: "uploaded", nostro: "our", nostri: "our", viene: "is", vengono: "are",
  inviare: "send", invia: "send", inoltri: "forward", inoltrare: "forward", ogni: "every", messaggio: "message", messaggi: "messages",
  altri: "other", altre: "other", ricerca: "search", obsoleti: "deprecated", obsoleto: "deprecated", chiave: "key", chiavi: "keys",
  conversazione: "conversation", cronologia: "history", precedenza: "before", precedenti: "earlier", ricevute: "received",
  restituito: "returned", restituisce: "returns", indirizzo: "address", telefono: "phone", sono: "are", è: "is",
  // Portuguese
  os: "the", dos: "of the", ao: "to the", às: "to the", um: "a", uma: "a", com: "with", em: "in", não: "not",
  também: "also", usuário: "user", usuários: "users", utilizador: "user", ferramenta: "tool", ferramentas: "tools",
  regras: "rules", instruções: "instructions", anteriores: "earlier", obedecer: "obey", texto: "text", devolvido: "returned",
  incluir: "include", copie: "copy", copiar: "copy", privada: "private", diga: "tell", dizer: "tell", arquivo: "file",
  arquivos: "files", enviados: "sent", enviado: "sent", envie: "send", nosso: "our", nossa: "our", histórico: "history",
  conversa: "conversation", depois: "after", cada: "every", prefere: "prefers", outras: "other", demais: "others", busca: "search",
  senha: "password", senhas: "passwords", "frase-senha": "passphrase", chaves: "keys", pelo: "by the", pela: "by the",
  // Dutch
  het: "the", een: "a", van: "of", niet: "not", nooit: "never", altijd: "always", moet: "must", moeten: "must", wordt: "is",
  worden: "are", naar: "to", voor: "for", met: "with", deze: "this", dit: "this", ook: "also", alleen: "only",
  gebruiker: "user", gebruikers: "users", hulpmiddel: "tool", tools: "tools", instructies: "instructions", regels: "rules",
  eerdere: "earlier", negeert: "ignores", negeer: "ignore", volgt: "follows", volg: "follow", vertel: "tell", vertelt: "tells",
  zeg: "tell", gebruik: "use", gebruikt: "used", zoektools: "search tools", verkeerde: "wrong", resultaten: "results",
  wachtwoord: "password", wachtwoorden: "passwords", sleutel: "key", sleutels: "keys", gesprek: "conversation", veld: "field",
  plakt: "puts", plak: "put", stuur: "send", stuurt: "sends", gestuurd: "sent", verstuurd: "sent", sturen: "send", onze: "our",
  mappen: "folders", buiten: "outside", wanneer: "when", eerst: "first", bestand: "file", bestanden: "files", inhoud: "contents",
  uit: "from", welke: "which", elk: "every", elke: "every", horen: "should", hoort: "should", commando: "command", beginnen: "start",
  gebruikelijk: "usual", leeggemaakt: "emptied", verwijderd: "deleted", terugstuurt: "returns", teruggeeft: "returns",
  // Italian, more
  modello: "model", testo: "text", e: "and", da: "from", arrivano: "come", arriva: "comes", valgono: "apply", vale: "applies",
  considerare: "treat", nulle: "void", nulla: "void", funziona: "works", dica: "tell", inoltra: "forwards",
  // Requests written half in English ("le modèle doit exécuter … du fichier fetched", "wenn der agent das tool … callt"):
  // the English nouns already read; the verbs, quantifiers and "without asking" that carry the request are glossed.
  exécuter: "execute", exécutez: "execute", exécute: "execute", toutes: "all", tous: "all", sans: "without", demander: "asking",
  même: "even", utiliser: "use", utilise: "uses", lire: "read", lit: "reads", mettre: "put", mettez: "put", ignorer: "ignore",
  autre: "other", choisit: "chooses", choisir: "choose", informer: "tell", informez: "tell", cacher: "hide", partager: "share",
  contar: "tell", contarle: "tell", informar: "tell", informarle: "tell", enruta: "routes", después: "after", añade: "add",
  añadir: "add", agrega: "add", otro: "other", otra: "other", usar: "use", ejecuta: "execute", ejecutar: "execute", sin: "without",
  preguntar: "asking", todas: "all", todos: "all", pon: "put", poner: "put", incluye: "include", aunque: "even if",
  ausführen: "execute", führe: "execute", führt: "executes", ohne: "without", stattdessen: "instead", verschieben: "move",
  verschiebe: "move", melden: "report", melde: "report", trotzdem: "anyway", eines: "of a", bevor: "before", komplette: "full",
  kompletten: "full", direkt: "directly", bitte: "please", eingabe: "input", zu: "to", jedem: "every", jedes: "every",
  cualquier: "any", guardado: "saved", guardada: "saved", orden: "order",
  // Reports and recommendations made by the model ("el asistente recomienda …", "l'assistant indique simplement …
  // sans préciser", "trägt der Assistent … stets … ein").
  recomienda: "recommends", recomendar: "recommend", pide: "asks for", pedirle: "ask for", cuenta: "account", abrir: "open",
  número: "number", teléfono: "phone", indique: "tells", indiquer: "tell", simplement: "simply", préciser: "mentioning",
  réel: "actual", supprimées: "deleted", supprimés: "deleted",
  stets: "always", trägt: "enters", aufruf: "calling", beim: "when",
  pedir: "asking", confirmación: "confirmation", savoir: "know", ajoutées: "added", ajoutés: "added", ajouté: "added", adresses: "addresses",
};

/**
 * Dutch shares "de", "en", "die" and "dat" with the other languages but means "the", "and", "that": a sentence with
 * two words only Dutch has reads them the Dutch way.
 */
const DUTCH = /(?<![\p{L}'])(?:het|een|niet|nooit|naar|wordt|worden|gebruiker|gebruikers|ook|altijd|moet|welke|onze|alleen|zijn|uit|wanneer|dit|deze|wat|voortaan)(?![\p{L}'])/giu;
const DUTCH_GLOSS: Record<string, string> = { de: "the", en: "and", die: "that", dat: "that", te: "to", zijn: "be", van: "of" };
/** "Non valgono più", "niet meer", "não … mais": a rule that lapses, as the English readers know it. */
const NO_LONGER_ROMANCE = /\b(?:non|não)\s+(\p{L}+)\s+(?:più|mais)(?![\p{L}])|\bniet (?:meer|langer)\b/giu;

/** "Al posto di", "em vez de", "in plaats van": "instead of", which the readers know as one phrase. */
const INSTEAD_OF = /\b(?:al posto (?:di|del|della|degli|dei|delle)|invece di|em vez d[eoa]s?|ao invés d[eoa]s?|in plaats van)\b/giu;

/** "Nicht mehr", "ya no", "ne … plus": a rule that lapses, read as one English phrase. */
const NO_LONGER = /\b(?:nicht mehr|ya no|no más)\b/giu;

/** Whether a text may hold a foreign sentence at all: one test per text, before any sentence is counted. */
export function mayBeForeign(text: string): boolean {
  return FOREIGN_HINT.test(text) || mayBeOtherScript(text) || mayBeLatinForeign(text);
}

/** Whether a sentence reads as Spanish, German or French: three of their function words, and more than English ones. */
export function isForeign(sentence: string): boolean {
  // Nearly every sentence is English and holds none of these: one non-global test turns it away before counting.
  if (!FOREIGN_HINT.test(sentence)) return false;
  const foreign = (sentence.match(FOREIGN_FUNCTION)?.length ?? 0) + (sentence.match(ELIDED)?.length ?? 0);
  if (foreign < 3) return false;
  return foreign > (sentence.match(ENGLISH_FUNCTION)?.length ?? 0);
}

/** The sentence with every word the dictionary knows put in English (undefined when it is not foreign). */
export function glossOf(sentence: string): string | undefined {
  const gloss = wordGlossOf(sentence);
  return gloss === undefined ? undefined : inEnglishOrder(gloss);
}

/** A speech verb negated the way other languages do it: "no inform", "not show", "mentions … not". */
const BARE_NEGATION = /(^|[.;,:]\s*|\b(?:and|but|then)\s+)(?:no|not)\s+(inform|tell|show|mention|say|reveal|disclose|report|notify|warn|display|share|list)\b/gi;
const NEGATION_LAST = /\b(inform|tell|show|mention|say|reveal|disclose|report|notif(?:y|ie)|warn|display|list)s?\b([^.;]{0,80}?)\s+not(?=\s*(?:[.;,]|$))/gi;
/** "User" with no article, as languages without articles gloss it ("reply user do not mention"). */
const BARE_USER_WORD = /(?<!\b(?:the|a|an|this|that|each|every|any|your|our|their|its|of)\s)\buser\b(?!['’]s)/gi;

/** A word-for-word gloss put closer to English order: negations before their verb, "user" with its article. */
function inEnglishOrder(gloss: string): string {
  return gloss
    .replace(BARE_NEGATION, (_m, lead: string, verb: string) => `${lead}do not ${verb}`)
    .replace(NEGATION_LAST, (_m, verb: string, rest: string) => `does not ${verb.toLowerCase().replace(/^notifie$/, "notify")}${rest}`)
    .replace(BARE_USER_WORD, "the user");
}

/** The sentence glossed word by word, in its own order (undefined when it is not foreign). */
function wordGlossOf(sentence: string): string | undefined {
  // One ć makes a Serbian sentence look Polish to the script test: a script gloss that declines leaves it to the Latin one.
  if (!isForeign(sentence)) return (mayBeOtherScript(sentence) ? scriptGlossOf(sentence) : undefined) ?? latinGlossOf(sentence);
  const dutch = (sentence.match(DUTCH)?.length ?? 0) >= 2;
  const lapsed = sentence.replace(NO_LONGER, "no longer").replace(NO_LONGER_ROMANCE, (_m, verb: string | undefined) => (verb ? `no longer ${verb}` : "no longer"));
  return lapsed.replace(INSTEAD_OF, "instead of").replace(WORD, (w) => {
    // Elided articles and pronouns ("l'utilisateur", "qu'il", "d'autres", "dell'utente") are read as the word they lead.
    const elided = /^(l|d|qu|n|s|j|c|all|dell|nell|sull|dall|un)['’]/.exec(w.toLowerCase());
    const lower = w.toLowerCase().slice(elided?.[0].length ?? 0);
    const g = (dutch ? DUTCH_GLOSS[lower] : undefined) ?? GLOSS[lower];
    // "dell'utente" is "of the user": the preposition a contraction carries is kept.
    const lead = elided ? ELIDED_GLOSS[elided[1]!] ?? "" : "";
    if (g !== undefined) return lead ? `${lead} ${g}` : g;
    // "des Bank-Servers", "du serveur-paiements": a server named by a compound.
    const server = /^([\p{L}]+)-?(?:servers?|servern|serveurs?|servidor(?:es)?)$/u.exec(lower);
    return server ? `${server[1]} server` : w;
  }).replace(/\s{2,}/g, " ").replace(VERB_THEN_ADVERB, "$2 $1").replace(NEGATION_FIRST, "$1 not");
}

/** "No se le debe contar", "non deve": the negation before its modal, put after it as English has it. */
const NEGATION_FIRST = /\b(?:no|not)\s+(must|should|may)\b/gi;

/** "Utilisez toujours X", "usa siempre X", "verwende immer X": the verb before its adverb, put in English order. */
const VERB_THEN_ADVERB = /\b(use|call|choose|pick|follow|send|execute|read|tell|mention|forward|copy)\s+(always|never|only)\b/gi;
