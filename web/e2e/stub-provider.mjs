// A provider endpoint on loopback for the registration scenario: answers GET /v1/pricing (with a
// model's whole price and example request where it has them, readable from any origin) and
// /v1/models the way the service's connection test and health checks expect, GET /v1/docs
// with at least the 100 characters the marketplace requires of a listed provider, and
// POST /v1/chat/completions without a voucher with the 402 and payment terms the marketplace's
// chat probe expects of a provider online for agents; its logo at /logo.svg.
import { createServer } from 'node:http';

export async function startStubProvider(address, models) {
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://stub').pathname;
    let body;
    if (path === '/v1/pricing') {
      body = {
        provider: address, providerName: 'e2e stub', chainId: 137, currency: 'USDC', decimals: 6,
        models: Object.fromEntries(models.map((m) => [m.id, {
          name: m.name, inputPer1kTokens: m.input, outputPer1kTokens: m.output,
          ...(m.price ? { price: m.price } : {}), ...(m.example ? { example: m.example } : {}),
        }])),
      };
    } else if (path === '/v1/models') {
      body = { object: 'list', data: models.map((m) => ({ id: m.id, object: 'model', created: 1763700000, owned_by: 'e2e' })) };
    } else if (path === '/v1/docs') {
      response.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
      response.end('Stub provider for the web pages end-to-end tests. It answers chat completions for its models, '
        + 'paid per request with vouchers of a payment channel; see /v1/pricing for the prices.\n');
      return;
    } else if (path === '/v1/chat/completions') {
      request.resume();
      response.writeHead(402, {
        'content-type': 'application/json', 'x-payment-protocol': 'chan-v2', 'x-payment-provider': address,
        'x-payment-contract': '0x5FbDB2315678afecb367f032d93F642f64180aa3', 'x-payment-chain': '137',
        'x-payment-signing': 'http://127.0.0.1/api/chan/signing', 'x-payment-docs': 'http://127.0.0.1/v1/docs',
        'x-chan-error': 'voucher_required',
      });
      response.end('{"error":{"message":"voucher required","type":"payment_required","code":"voucher_required"}}');
      return;
    } else if (path === '/logo.svg') {
      response.writeHead(200, { 'content-type': 'image/svg+xml' });
      response.end('<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><rect width="32" height="32" fill="#2a7"/></svg>');
      return;
    } else {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not found"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    response.end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}
