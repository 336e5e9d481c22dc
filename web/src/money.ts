// USDC amounts: the API writes integer base units (6 decimals) as decimal strings. They are kept
// as bigint and turned into text digit by digit, never through a floating-point number.

export const USDC_DECIMALS = 6;
const SCALE = 10n ** BigInt(USDC_DECIMALS);

/** Base units from what the API sends: a decimal string of an integer (or a safe JSON integer). */
export function baseUnits(value: string | number | bigint | null | undefined): bigint {
  if (value === null || value === undefined) return 0n;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not an exact amount: ${value}`);
    return BigInt(value);
  }
  if (!/^-?\d+$/.test(value)) throw new RangeError(`not an integer amount: ${value}`);
  return BigInt(value);
}

/** "1.234500" for 1234500n: always six decimals, as the ledger counts. */
export function formatUsdc(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / SCALE;
  const fraction = (abs % SCALE).toString().padStart(USDC_DECIMALS, '0');
  return `${negative ? '-' : ''}${groupThousands(whole.toString())}.${fraction}`;
}

/** Base units of a decimal USDC text such as "0.2" or "12.000001"; more than six decimals is an error. */
export function parseUsdc(text: string): bigint {
  const match = /^\s*(\d+)(?:\.(\d*))?\s*$/.exec(text.replace(/,/g, ''));
  if (!match) throw new RangeError(`not a USDC amount: "${text}"`);
  const fraction = match[2] ?? '';
  if (fraction.length > USDC_DECIMALS) throw new RangeError(`more than ${USDC_DECIMALS} decimals: "${text}"`);
  return BigInt(match[1]) * SCALE + BigInt(fraction.padEnd(USDC_DECIMALS, '0') || '0');
}

/**
 * A price as the providers publish it (decimal USDC per 1,000 tokens, which may be finer than a
 * base unit): checked and shown without trailing zeros beyond the sixth decimal.
 */
export function formatPrice(decimal: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) return decimal;
  let fraction = match[2] ?? '';
  while (fraction.length > USDC_DECIMALS && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${groupThousands(match[1])}.${fraction.padEnd(USDC_DECIMALS, '0')}`;
}

/** The share of {@code part} in {@code whole} in tenths of a percent, for bar widths (integer math). */
export function permille(part: bigint, whole: bigint): number {
  if (whole <= 0n) return 0;
  const clamped = part < 0n ? 0n : part > whole ? whole : part;
  return Number((clamped * 1000n) / whole);
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
