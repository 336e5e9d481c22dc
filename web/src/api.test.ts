import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, getJson, readAfter, sendCommand } from './api';

afterEach(() => vi.unstubAllGlobals());

describe('read your writes (docs/api.md)', () => {
  it('a command answers the token of its write, and the next read sends it back', async () => {
    const fetched: [string, RequestInit][] = [];
    vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
      fetched.push([path, init]);
      return path.startsWith('/api/admin')
        ? new Response('{"id":"prov-1","action":"approved"}', { headers: { 'X-CHAN-Written-Through': '4711' } })
        : new Response('{"count":0,"providers":[]}');
    });
    const approved = await sendCommand<{ action: string }>('POST', '/api/admin/providers/prov-1/approve', {}, { Authorization: 'Bearer t' });
    expect(approved).toEqual({ body: { id: 'prov-1', action: 'approved' }, writtenThrough: '4711' });

    await getJson('/api/directory/providers', readAfter(approved.writtenThrough));
    expect(fetched[1][1].headers).toMatchObject({ 'X-CHAN-Read-After': '4711' });
  });

  it('without a token a read sends none, and a refused command is an ApiError', async () => {
    expect(readAfter(null)).toEqual({});
    vi.stubGlobal('fetch', async () => new Response('{"code":"provider_not_found","detail":"no provider x"}', { status: 404 }));
    await expect(sendCommand('POST', '/api/admin/providers/x/approve', {})).rejects.toBeInstanceOf(ApiError);
  });
});
