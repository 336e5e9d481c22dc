// A model's price as the pages show it, from the whole price the API lists (`price`: its kind and
// its amounts in integer base units), never from the two numbers kept for older agent clients:
// those make a per-unit service look like one price per request (its highest).
import type { Price } from './types';
import { baseUnits, formatUsdc } from './money';

/**
 * "0.00015 in / 0.0006 out per 1k tokens", "0.002 per request", or for a price per unit
 * "0.0001 per unit of minutes (5–240 minutes)": amounts in USDC, from base units digit by digit.
 */
export function priceText(price: Price): string {
  switch (price.kind) {
    case 'flat':
      return `${usdc(price.perRequest)} per request`;
    case 'per-unit':
      return `${usdc(price.perUnit)} per unit of ${price.unit} (${price.minUnits}–${price.maxUnits} ${price.unit})`;
    default:
      return `${usdc(price.inputPer1kTokens)} in / ${usdc(price.outputPer1kTokens)} out per 1k tokens`;
  }
}

function usdc(units: string | undefined): string {
  return formatUsdc(baseUnits(units));
}
