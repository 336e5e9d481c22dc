// The paid APIs the local network's providers sell, standing in for a real model API and a real
// service, on one loopback port, with no dependency:
//   POST /v1/chat/completions  an OpenAI-compatible chat API: a short deterministic answer built
//                              from the last user message, with `usage`; `stream: true` answers
//                              server-sent events, a usage chunk when stream_options.include_usage
//   POST /v1/leases            a service priced per minute: {minutes, region} → a lease
//   GET  /health               200
// Token counts are the usual rough measure of 4 characters a token, as a real API reports its own.
//
//   UPSTREAM_STUB_PORT=8083 node deploy/devnet/upstream-stub.mjs
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const port = Number(process.env.UPSTREAM_STUB_PORT ?? 8083);
const tokens = (text) => Math.max(1, Math.ceil(text.length / 4));

function answerTo(messages) {
  const last = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const topic = String(last).replace(/\s+/g, ' ').trim().slice(0, 120);
  return `Here is a short answer about "${topic}": payment channels let a client pay per request `
    + 'with signed vouchers and settle on-chain only when it opens and closes the channel.';
}

function json(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function chat(request, response, body) {
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return json(response, 400, { error: { message: 'messages is required', type: 'invalid_request_error' } });
  }
  const content = answerTo(body.messages);
  const promptTokens = body.messages.reduce((sum, m) => sum + tokens(String(m.content ?? '')), 0);
  const usage = { prompt_tokens: promptTokens, completion_tokens: tokens(content),
    total_tokens: promptTokens + tokens(content) };
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  if (!body.stream) {
    return json(response, 200, { id, object: 'chat.completion', created, model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage });
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta, finish = null) => ({ id, object: 'chat.completion.chunk', created, model: body.model,
    choices: [{ index: 0, delta, finish_reason: finish }] });
  const words = content.split(/(?= )/);
  let i = 0;
  const timer = setInterval(() => {
    if (i < words.length) {
      response.write(`data: ${JSON.stringify(chunk(i === 0 ? { role: 'assistant', content: words[i] } : { content: words[i] }))}\n\n`);
      i++;
      return;
    }
    clearInterval(timer);
    response.write(`data: ${JSON.stringify(chunk({}, 'stop'))}\n\n`);
    if (body.stream_options?.include_usage) {
      response.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`);
    }
    response.end('data: [DONE]\n\n');
  }, 5);
  // the client went away: stop writing (the request's own 'close' comes once its body is read)
  response.on('close', () => clearInterval(timer));
}

function lease(response, body) {
  const minutes = Number(body.minutes);
  if (!Number.isInteger(minutes) || minutes < 1) {
    return json(response, 400, { error: 'minutes must be a whole number of minutes' });
  }
  const region = typeof body.region === 'string' ? body.region : 'eu';
  return json(response, 200, { lease: randomUUID(), region, minutes,
    endpoint: `relay-${region}.devnet.invalid:51820`, endsAt: new Date(Date.now() + minutes * 60_000).toISOString() });
}

createServer((request, response) => {
  let raw = '';
  request.setEncoding('utf8');
  request.on('data', (part) => { raw += part; });
  request.on('end', () => {
    const path = new URL(request.url, 'http://stub').pathname;
    if (request.method === 'GET' && path === '/health') return json(response, 200, { status: 'up' });
    if (request.method !== 'POST') return json(response, 405, { error: 'method not allowed' });
    let body;
    try {
      body = JSON.parse(raw || '{}');
    } catch {
      return json(response, 400, { error: 'the body is not JSON' });
    }
    if (path === '/v1/chat/completions') return chat(request, response, body);
    if (path === '/v1/leases') return lease(response, body);
    return json(response, 404, { error: `no ${path} here` });
  });
}).listen(port, '127.0.0.1', () => console.log(`upstream stub on http://127.0.0.1:${port}`));
