// Drives the identify limit (2 requests per second per client IP) with chosen X-Forwarded-For headers, to see which
// address the API takes as the client's.
import { request } from './http.js';

/** Statuses of `n` identify calls sent at once, each with the header `xff(i)` (undefined: no header). */
export async function identifyBurst(baseUrl: string, sdkKey: string, n: number, xff: (i: number) => string | undefined): Promise<number[]> {
  const calls = Array.from({ length: n }, (_, i) => {
    const value = xff(i);
    return request(baseUrl, 'POST', '/api/sdk/identify', {
      token: sdkKey,
      body: { app_user_id: `ip-user-${i}` },
      headers: value === undefined ? {} : { 'x-forwarded-for': value },
    });
  });
  return (await Promise.all(calls)).map((r) => r.status).sort();
}

export const randomIp = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
