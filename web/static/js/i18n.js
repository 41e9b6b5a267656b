// Every string the pages show comes from the message catalogs (gettext .po files, English and German):
// the browser's own in web/locale/ and web/games/<package>/locale/ (ids "ui.<key>"), the core's and
// each game's messages beside them. GET /i18n/<language>.json serves them merged, with the plural rule
// (web/messages.py); this module loads it once (top-level await) and renders exactly as the Python
// render() does: {name} placeholders, a parameter n choosing the plural form, nested messages
// ({id, params}) and lists (joined with ", ") as parameters, English when a text is missing.
// The language is ?lang=xx (then remembered), else the one remembered in localStorage, else the
// browser's (de* -> de, otherwise en); it is also kept in the "lang" cookie for the server's pages.
// Templates carry only keys (data-i18n, data-i18n-placeholder, data-i18n-aria-label).

const LANGUAGES = ["en", "de"];
const LANGUAGE_KEY = "keydom-language";

function known(lang) {
  return LANGUAGES.includes(lang);
}

function pickLanguage() {
  const asked = new URLSearchParams(window.location.search).get("lang");
  let lang = null;
  try {
    if (known(asked)) window.localStorage.setItem(LANGUAGE_KEY, asked);
    lang = window.localStorage.getItem(LANGUAGE_KEY);
  } catch {
    // storage may be off (private mode): the choice is then not remembered
  }
  if (known(asked)) lang = asked;
  if (!known(lang)) lang = (navigator.language || "").toLowerCase().startsWith("de") ? "de" : "en";
  return lang;
}

const language = pickLanguage();
const catalog = await fetch(new URL(`/i18n/${language}.json`, import.meta.url))
  .then((answer) => (answer.ok ? answer.json() : { messages: {}, plural: "0" }))
  .catch(() => ({ messages: {}, plural: "0" }));
// The plural rule is the catalog header's C expression, e.g. "(n != 1)", read by a small parser rather than run as
// JavaScript: the pages' Content-Security-Policy allows no eval. C's operators: ?: || && == != < <= > >= + - * / %,
// unary !, brackets, n and whole numbers; true is 1. An expression it cannot read gives the first form.
const BINARY = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]];
const APPLY = {
  "||": (a, b) => Number(Boolean(a || b)), "&&": (a, b) => Number(Boolean(a && b)),
  "==": (a, b) => Number(a === b), "!=": (a, b) => Number(a !== b),
  "<": (a, b) => Number(a < b), "<=": (a, b) => Number(a <= b), ">": (a, b) => Number(a > b), ">=": (a, b) => Number(a >= b),
  "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b,
  "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b,
};

/** The plural rule `expression` (a C expression of n) as a function of n: the index of the form to use. */
function pluralRule(expression) {
  const tokens = String(expression).match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()]/g) || [];
  if (tokens.join("") !== String(expression).replace(/\s+/g, "")) return () => 0;
  let at = 0;
  const take = (token) => (tokens[at] === token ? (at += 1, true) : false);
  function primary() {
    const token = tokens[at++];
    if (token === "n") return (n) => n;
    if (/^\d+$/.test(token || "")) return () => Number(token);
    if (token === "!") { const inner = primary(); return (n) => Number(!inner(n)); }
    if (token !== "(") throw new SyntaxError(expression);
    const inner = conditional();
    if (!take(")")) throw new SyntaxError(expression);
    return inner;
  }
  function binary(level) {
    if (level === BINARY.length) return primary();
    let left = binary(level + 1);
    while (BINARY[level].includes(tokens[at])) {
      const apply = APPLY[tokens[at++]], first = left, second = binary(level + 1);
      left = (n) => apply(first(n), second(n));
    }
    return left;
  }
  function conditional() {
    const test = binary(0);
    if (!take("?")) return test;
    const yes = conditional();
    if (!take(":")) throw new SyntaxError(expression);
    const no = conditional();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  try {
    const rule = conditional();
    return at === tokens.length ? (n) => Number(rule(n)) : () => 0;
  } catch {
    return () => 0;
  }
}

const pluralIndex = pluralRule(catalog.plural);

/** Set <html lang> to the page's language (?lang=, then localStorage, then the browser's) and return it. */
export function chooseLanguage() {
  document.documentElement.lang = language;
  document.cookie = `lang=${language}; path=/; max-age=31536000; SameSite=Lax`;
  return language;
}

function renderParam(value) {
  if (Array.isArray(value)) return value.map(renderParam).join(", ");
  if (value !== null && typeof value === "object" && "id" in value) return render(value);
  return String(value);
}

/** A message ({id, params}) in the page's language, as companion.core.messages.render renders it. */
export function render(message) {
  const params = message.params || {};
  let template = catalog.messages[message.id];
  if (template === undefined) return message.id;
  if (Array.isArray(template)) {
    const count = Number.isInteger(params.n) ? params.n : 1;
    template = template[Math.min(pluralIndex(count), template.length - 1)];
  }
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((found) => found[1]);
  if (!names.every((name) => name in params)) return template; // as Python's format_map: a missing one, no filling
  return template.replace(/\{(\w+)\}/g, (whole, name) => renderParam(params[name]));
}

/** Text from the API as players read it: a string as it is, a message ({id, params}) rendered. */
export function say(text) {
  if (text !== null && typeof text === "object" && "id" in text) return render(text);
  return text == null ? "" : String(text);
}

/** Whether the browser's catalog has the string `key` (a key of t). */
export function has(key) {
  return `ui.${key}` in catalog.messages;
}

/** The page's string `key` (a dotted key such as "crops.wine": catalog id "ui.crops.wine"), its
 * {placeholders} filled from `vars` (n chooses the plural form). */
export function t(key, vars = {}) {
  return render({ id: `ui.${key}`, params: vars });
}

/** Fill every element of `root` that names a string key; mark the current language in the switch. */
export function applyStrings(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-aria-label]")) el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  for (const el of root.querySelectorAll("[data-lang]")) {
    if (el.dataset.lang === document.documentElement.lang) el.setAttribute("aria-current", "true");
    else el.removeAttribute("aria-current");
  }
}
