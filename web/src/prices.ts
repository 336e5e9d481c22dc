// A model's price as the pages show it, from the whole price the API lists (`price`: its kind and
// its amounts in integer base units), never from the two numbers kept for older agent clients:
// those make a per-unit service look like one price per request (its highest).
import type { Model, Price, PublishedPrices } from './types';
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

/** Each model's example request body (JSON text), as its provider publishes it: one its gateway accepts. */
export type Examples = Record<string, string>;

/**
 * The example request bodies of a provider's /v1/pricing, read defensively (a provider elsewhere
 * may publish none, or something else): only an object naming its own model is taken.
 */
export function examplesOf(prices: Partial<PublishedPrices> | null | undefined): Examples {
  const examples: Examples = {};
  for (const [id, model] of Object.entries(prices?.models ?? {})) {
    const example: unknown = model?.example;
    if (example && typeof example === 'object' && (example as { model?: unknown }).model === id) {
      examples[id] = JSON.stringify(example);
    }
  }
  return examples;
}

/**
 * The request body of a model's payment example: its own example from the provider's
 * /v1/pricing; without one, a chat greeting for a model priced per token, else a pointer to the
 * provider's docs, since a service refuses a greeting.
 */
export function exampleBody(model: Model | undefined, examples: Examples): string {
  if (!model) return '{"model":"MODEL","messages":[{"role":"user","content":"hello"}]}';
  return examples[model.id]
    ?? (model.price.kind === 'tokens' ? JSON.stringify({ model: model.id, messages: [{ role: 'user', content: 'hello' }] })
      : `(the request body of ${model.id}: see its example in /v1/docs)`);
}
