// Texts of the page in its language: the catalogue of <html lang> (one JSON per language, served
// by this server as /static/i18n-zh.json or /static/i18n-en.json; nothing comes from elsewhere).
const pageLang = document.documentElement.lang.startsWith("zh") ? "zh" : "en";
const C = await (await fetch(`/static/i18n-${pageLang}.json`)).json();
export const lang = C.lang;

// The text of a catalogue key with {name} fields filled; a missing key shows the key itself (the
// catalogue test keeps every key used by the scripts present in both languages).
// A seat's name as shown: a bot's stored name ("efficiency-bot-2") as 电脑2 / Bot 2 (i18n.py's
// person_name does the same for the server's pages); a person's name as it is.
const BOT_NAME = /^(strong|efficiency|random)-bot-(\d+)$/;
export function personName(name) {
  const m = BOT_NAME.exec(name || "");
  return m ? t("bot.name", {n: m[2]}) : (name || "");
}

export function t(key, params) {
  let s = C.texts[key];
  if (s === undefined) return key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? params[k] : m));
  return s;
}

// The text of ``key`` for a count ``n``: the catalogue's ``key + "_one"`` when n is 1 and it has one
// ("1 point", not "1 points"), else ``key`` (i18n.py's tn does the same).
export function tn(key, n, params) {
  return Number(n) === 1 && C.texts[key + "_one"] !== undefined ? t(key + "_one", params) : t(key, params);
}

// A server message (English, as the server writes it) in the page's language.
const RULES = (C.messages || []).map(([en, tr]) => {
  const parts = en.split(/(\{\d\})/);
  const rx = parts.map(p => (/^\{\d\}$/.test(p) ? "(.*?)" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("");
  return [new RegExp("^" + rx + "$", "s"), tr];
});
export function tm(message) {
  let out = message;
  for (const [rx, tr] of RULES) {
    const m = rx.exec(message);
    if (m) { out = tr.replace(/\{(\d)\}/g, (x, i) => m[Number(i) + 1]); break; }
  }
  // English messages read as sentences: the first letter capitalised (i18n.py _sentence does the same)
  return pageLang === "en" && /^[a-z]/.test(out) ? out[0].toUpperCase() + out.slice(1) : out;
}

// A pattern of a hand-end result in the page's language (old results are [id, points, count]).
export function patternName(p) {
  if (Array.isArray(p)) return p[0];
  return lang === "zh" ? p.name_zh : p.name_en;
}
export function local(obj) { return obj ? (obj[lang] ?? obj.zh ?? "") : ""; }
