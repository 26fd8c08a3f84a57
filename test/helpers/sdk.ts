// An SDK-speaking client for tests: the SDK key, a chosen client IP (the harness trusts X-Forwarded-For when
// started with TRUST_PROXY) and a device User-Agent.
import { request, type JsonResponse } from './http.js';

export const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
export const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';

export function sdkClient(baseUrl: string, sdkKey: string, ip = '203.0.113.10') {
  const headers = { 'x-forwarded-for': ip };
  return {
    post: <T = any>(path: string, body: unknown): Promise<JsonResponse<T>> =>
      request<T>(baseUrl, 'POST', `/api/sdk${path}`, { token: sdkKey, body, headers }),
    get: <T = any>(path: string): Promise<JsonResponse<T>> => request<T>(baseUrl, 'GET', `/api/sdk${path}`, { token: sdkKey, headers }),
  };
}
