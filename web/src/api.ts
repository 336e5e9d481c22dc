// Calls of the service's HTTP API from the pages (same origin). Errors become ApiError with the
// problem's stable `code` and its other members (field, parameter, problems, reason).

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, readonly problem: Record<string, unknown>) {
    super(String(problem.detail ?? problem.message ?? problem.error ?? `${status} ${code}`));
  }
}

export async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
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
  return body as T;
}

export function getJson<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
  return request<T>(path, { headers: { accept: 'application/json', ...headers } });
}

export function sendJson<T>(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  return request<T>(path, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
