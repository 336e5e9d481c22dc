import { describe, expect, it } from 'vitest';
import cases from '../../ledger-domain/src/test/resources/vectors/usdc-text.json';
import { amountTicks, baseUnits, formatPol, formatUsdc, parseUsdc, permille } from './money';

interface ParseCase { text: string; units?: string; error?: string }
interface FormatCase { units: string; text?: string; error?: string }

// The ledger's own table (read by ledger-domain's UsdcTextCasesTest too): the pages write and read
// USDC text exactly as the service does.
describe('USDC text, as the shared table of cases says', () => {
  it('has cases', () => {
    expect(cases.parse.length).toBeGreaterThan(10);
    expect(cases.format.length).toBeGreaterThan(5);
  });

  for (const c of cases.parse as ParseCase[]) {
    it(`parses "${c.text}"${c.error ? ` as an error (${c.error})` : ''}`, () => {
      if (c.error) expect(() => parseUsdc(c.text)).toThrow(RangeError);
      else expect(parseUsdc(c.text)).toBe(BigInt(c.units!));
    });
  }

  for (const c of cases.format as FormatCase[]) {
    it(`formats ${c.units}${c.error ? ` as an error (${c.error})` : ''}`, () => {
      if (c.error) expect(() => formatUsdc(BigInt(c.units))).toThrow(RangeError);
      else expect(formatUsdc(BigInt(c.units))).toBe(c.text);
    });
  }
});

describe('USDC amounts', () => {
  it('keeps amounts beyond the range of a double exact', () => {
    const huge = 2n ** 200n + 1n;
    expect(parseUsdc(formatUsdc(huge))).toBe(huge);
  });

  it('reads the API amounts: decimal strings, never unsafe numbers', () => {
    expect(baseUnits('1500000')).toBe(1_500_000n);
    expect(baseUnits(42)).toBe(42n);
    expect(baseUnits(null)).toBe(0n);
    expect(() => baseUnits(0.1)).toThrow();
    expect(() => baseUnits('1.5')).toThrow();
  });

  it('computes bar shares with integers', () => {
    expect(permille(1n, 3n)).toBe(333);
    expect(permille(5n, 0n)).toBe(0);
    expect(permille(7n, 5n)).toBe(1000);
  });
});

describe('POL amounts', () => {
  it('writes wei as POL, exactly, by the USDC text rule', () => {
    expect(formatPol(0n)).toBe('0');
    expect(formatPol(1n)).toBe('0.000000000000000001');
    expect(formatPol(1_500_000_000_000_000_000n)).toBe('1.5');
    expect(formatPol(9_999_999_790_000_000_000_000n)).toBe('9999.99979');
    expect(() => formatPol(-1n)).toThrow(RangeError);
  });
});

describe('amount axis ticks', () => {
  it('steps by 1, 2 or 5 times a power of ten base units, up to the first tick at or above the largest amount', () => {
    expect(amountTicks(7_769n)).toEqual([0n, 2_000n, 4_000n, 6_000n, 8_000n]);
    expect(amountTicks(5_000n)).toEqual([0n, 2_000n, 4_000n, 6_000n]);
    expect(amountTicks(10_000n)).toEqual([0n, 5_000n, 10_000n]);
    expect(amountTicks(3n)).toEqual([0n, 1n, 2n, 3n]);
    expect(amountTicks(123_456_789n).map(formatUsdc)).toEqual(['0', '50', '100', '150']);
  });

  it('labels fractions of a cent as the amounts they are', () => {
    expect(amountTicks(7_769n).map(formatUsdc)).toEqual(['0', '0.002', '0.004', '0.006', '0.008']);
  });

  it('keeps an axis without amounts one base unit high, and huge amounts exact', () => {
    expect(amountTicks(0n)).toEqual([0n, 1n]);
    const huge = 2n ** 100n;
    const ticks = amountTicks(huge);
    expect(ticks[ticks.length - 1] >= huge).toBe(true);
    expect(ticks.length).toBeLessThanOrEqual(5);
  });
});
