// Calls of the service's HTTP API from the pages (same origin). Errors become ApiError with the
// problem's stable `code` and its other members (field, parameter, problems, reason).

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, readonly problem: Record<string, unknown>) {
    super(String(problem.detail ?? problem.message ?? problem.error ?? `${status} ${code}`));
  }
}

export async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  return (await exchange<T>(path, init)).body;
}

/** A command's answer with the read token it gave (docs/api.md, Read your writes). */
export interface Written<T> {
  body: T;
  /** X-CHAN-Written-Through: send it back as X-CHAN-Read-After to read what the command wrote. */
  writtenThrough: string | null;
}

/** Sends a command; its answer comes with the token of what it wrote, for the next read. */
export async function sendCommand<T>(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Written<T>> {
  const { body: answer, response } = await exchange<T>(path, jsonInit(method, body, headers));
  return { body: answer, writtenThrough: response.headers.get('X-CHAN-Written-Through') };
}

/** The headers of a read that must include a command's write (none without a token). */
export function readAfter(writtenThrough: string | null | undefined): Record<string, string> {
  return writtenThrough ? { 'X-CHAN-Read-After': writtenThrough } : {};
}

async function exchange<T>(path: string, init: RequestInit): Promise<{ body: T; response: Response }> {
  const response = await fetch(path, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // plain text (the provider docs) or an HTML error page of a proxy: kept as text
  }
  if (!response.ok) {
    const problem = (body && typeof body === 'object' ? body : { detail: text }) as Record<string, unknown>;
    throw new ApiError(response.status, String(problem.code ?? problem.error ?? response.status), problem);
  }
  return { body: body as T, response };
}

export function getJson<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
  return request<T>(path, { headers: { accept: 'application/json', ...headers } });
}

export function sendJson<T>(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  return request<T>(path, jsonInit(method, body, headers));
}

function jsonInit(method: string, body: unknown, headers: Record<string, string>): RequestInit {
  return {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
