// Card data in what the client shows (hook events, error messages): a card number is found by
// its form under any name (12 to 19 digits, with single spaces, dashes or other invisible
// separators between, passing the Luhn check) and a CVV/CVC by its member's name.

const MASK = '***';
/** A separator a card number may be written with: whitespace, a dash, a control or zero-width character. */
const SEPARATOR = '[\\s\\x00-\\x1f\\x7f\\u00ad\\u200b-\\u200d\\u2060\\ufeff-]';
/** A run of digits, at most two separators between two digits. */
const RUN = new RegExp(`\\d(?:${SEPARATOR}{0,2}\\d)*`, 'g');

/** Whether `digits` (only digits) pass the Luhn check. */
function luhn(digits) {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i -= 1, double = !double) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

const isCard = (digits) => digits.length >= 12 && digits.length <= 19 && luhn(digits);

/** A run with its card numbers masked: the whole run, or, in a longer one, groups of it (a card then its expiry). */
function maskRun(run) {
  if (isCard(run.replace(/\D/g, ''))) return MASK;
  const groups = [...run.matchAll(/\d+/g)];
  if (groups.length < 2) return run;
  let out = '';
  let at = 0;
  for (let i = 0; i < groups.length; i += 1) {
    let digits = '';
    for (let j = i; j < groups.length && digits.length < 19; j += 1) {
      digits += groups[j][0];
      if (!isCard(digits)) continue;
      out += run.slice(at, groups[i].index) + MASK;
      at = groups[j].index + groups[j][0].length;
      i = j;
      break;
    }
  }
  return out + run.slice(at);
}

/** `text` with every card number in it replaced by '***' (a text that is not a string: as it is). */
function maskCards(text) {
  if (typeof text !== 'string' || !/\d{4}/.test(text.replace(new RegExp(SEPARATOR, 'g'), ''))) return text;
  return text.replace(RUN, maskRun);
}

/** Whether a JSON number may be a card number: 12 to 19 digits passing Luhn, or a whole number too large to tell. */
function cardNumber(value) {
  if (!Number.isInteger(value) || Math.abs(value) < 1e11) return false;
  return !Number.isSafeInteger(value) || isCard(String(Math.abs(value)));
}

/** Whether a member's name is a CVV/CVC's (any case, any separators: `cvv`, `CVC2`, `card_cvv`, `security_code`). */
const isSecurityCode = (name) => /(?:cvv|cvc|cvn)2?$|securitycode$/.test(name.toLowerCase().replace(/[^a-z0-9]/g, ''));

export { MASK, cardNumber, isSecurityCode, maskCards };
