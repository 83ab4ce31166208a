/** The spec's success envelope: { success: true, message?, status, data }. */
export type Envelope<T> = { success: true; message?: string; status: number; data: T };

export function envelope<T>(data: T, status = 200, message?: string): Envelope<T> {
  return message === undefined ? { success: true, status, data } : { success: true, message, status, data };
}

export function json<T>(body: T, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function ok<T>(data: T, status = 200, message?: string): Response {
  return json(envelope(data, status, message), status);
}
