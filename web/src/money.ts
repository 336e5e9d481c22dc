// USDC amounts: the API writes integer base units (6 decimals) as decimal strings. They are kept
// as bigint and turned into text digit by digit, never through a floating-point number. The text
// rules are the ledger's own (io.chanledger.domain.money.Usdc): the shared table of cases
// ledger-domain/src/test/resources/vectors/usdc-text.json checks both against each other.

export const USDC_DECIMALS = 6;
/** POL, the chain's gas token, in wei. */
export const POL_DECIMALS = 18;
const SCALE = 10n ** BigInt(USDC_DECIMALS);
const UINT256_MAX = 2n ** 256n - 1n;
/** A uint256 has at most 78 decimal digits; with the point, a USDC text at most 79 characters. */
const UINT256_MAX_DIGITS = 78;

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

/** 3750n → "0.00375", 5000000n → "5": plain decimal, trailing zeros stripped, no grouping. */
export function formatUsdc(units: bigint): string {
  if (units < 0n) throw new RangeError('USDC amount is negative');
  return formatUnits(units, USDC_DECIMALS);
}

/** Wei as POL by the same rule: 1_500_000_000_000_000_000n → "1.5". */
export function formatPol(wei: bigint): string {
  if (wei < 0n) throw new RangeError('POL amount is negative');
  return formatUnits(wei, POL_DECIMALS);
}

/** Base units of a token with {@code decimals} decimals as plain decimal text, digit by digit. */
function formatUnits(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const whole = (units / scale).toString();
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/**
 * The ticks of an amount axis from 0 to at least {@code max}: the multiples of one step (1, 2 or 5
 * times a power of ten base units, the smallest that needs at most {@code intervals} intervals) up
 * to the first at or above {@code max}. Integers, so that an axis is labelled with the amounts' own
 * text; a chart turns them into numbers only to place them.
 */
export function amountTicks(max: bigint, intervals = 4): bigint[] {
  const top = max > 0n ? max : 1n;
  const count = BigInt(intervals);
  for (let power = 1n; ; power *= 10n) {
    for (const factor of [1n, 2n, 5n]) {
      const step = factor * power;
      if (step * count >= top) {
        const steps = Number((top + step - 1n) / step);
        return Array.from({ length: steps + 1 }, (_, i) => BigInt(i) * step);
      }
    }
  }
}

/**
 * "0.00375" → 3750n. ASCII digits, optionally a '.' followed by 1 to 6 digits; no sign, exponent,
 * whitespace or grouping. The result must fit a uint256.
 */
export function parseUsdc(text: string): bigint {
  if (text === '') throw new RangeError('USDC amount is empty');
  if (text.length > UINT256_MAX_DIGITS + 1) {
    throw new RangeError(`USDC amount has ${text.length} characters, too many for a uint256`);
  }
  const match = /^([0-9]*)(?:\.([0-9]*))?$/.exec(text);
  if (!match) throw new RangeError(`not a USDC amount: "${text}"; expected digits with at most one '.'`);
  const [, whole, fraction] = match;
  if (whole === '') throw new RangeError("USDC amount needs a digit before the '.'");
  if (fraction === '') throw new RangeError("USDC amount needs a digit after the '.'");
  const fractionDigits = fraction ?? '';
  if (fractionDigits.length > USDC_DECIMALS) {
    throw new RangeError(`USDC amount has ${fractionDigits.length} fraction digits; USDC has ${USDC_DECIMALS}`);
  }
  const units = BigInt(whole) * SCALE + BigInt(fractionDigits.padEnd(USDC_DECIMALS, '0'));
  if (units > UINT256_MAX) throw new RangeError('USDC amount exceeds the uint256 range in base units');
  return units;
}

/** The share of {@code part} in {@code whole} in tenths of a percent, for bar widths (integer math). */
export function permille(part: bigint, whole: bigint): number {
  if (whole <= 0n) return 0;
  const clamped = part < 0n ? 0n : part > whole ? whole : part;
  return Number((clamped * 1000n) / whole);
}
